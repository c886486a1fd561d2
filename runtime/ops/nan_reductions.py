"""The NaN-ignoring reductions: nansum, nanprod, nancumsum, nancumprod, nanmean,
nanvar, nanstd, nanmin, nanmax, nanargmin, nanargmax, nanmedian, nanquantile
and nanpercentile.

Compositions, as NumPy writes them: NaNs replaced by the operation's identity
(0 for sums, 1 for products, +-inf for extrema), counts of the other elements,
and NaN where a slice holds nothing else (`nanvar` also where `count - ddof <=
0`). Integer and boolean input has no NaN: the plain reduction. `nanargmin`
and `nanargmax` are primitives with NumPy's kernels (an all-NaN slice raises
NumPy's `ValueError` when the graph runs). `nanmedian` and `nanquantile`
(method "linear") sort (NaN last) and pick each slice's elements among its
first `count` by position (a sum over a one-hot mask: exact, and the same code
for known and unknown lengths).
"""
from __future__ import annotations

import numpy as np

import functools

from .. import primitives
from ..abstract import normalize_axes, normalize_axis
from ..dispatch import implements, unsupported
from ..tracer import bind
from ._rules import aval, reject
from .shape_ops import ndim, operand
from .statistics import lerp, quantile_dtype, reduce_last, restore_dims


def _inexact(a) -> bool:
    return np.dtype(getattr(a, "dtype", np.result_type(a))).kind in "fc"


def _axis(a, axis):
    return None if axis is None else normalize_axes(axis, ndim(a))


def _filled(a, value):
    return np.where(np.isnan(a), value, a)


def _check(name, out=None, where=True, initial=np._NoValue):
    if where is not True and where is not np._NoValue:
        reject({"where": where}, name)
    reject({"out": out, "initial": None if initial is np._NoValue else initial}, name)


# -- sums, products, scans -------------------------------------------------------------
def _identity_reduction(name, reduce, identity):
    def handler(a, axis=None, dtype=None, out=None, keepdims=np._NoValue,
                initial=np._NoValue, where=np._NoValue):
        _check(f"numpy.{name}", out, where, initial)
        a = operand(a)
        keep = False if keepdims is np._NoValue else keepdims
        filled = _filled(a, identity) if _inexact(a) else a
        return reduce(filled, axis=_axis(a, axis), dtype=dtype, keepdims=keep)
    return handler


def _identity_scan(name, scan, identity):
    def handler(a, axis=None, dtype=None, out=None):
        _check(f"numpy.{name}", out)
        a = operand(a)
        return scan(_filled(a, identity) if _inexact(a) else a, axis=axis, dtype=dtype)
    return handler


implements(np.nansum, out=True)(_identity_reduction("nansum", np.sum, 0))
implements(np.nanprod, out=True)(_identity_reduction("nanprod", np.prod, 1))
implements(np.nancumsum, out=True)(_identity_scan("nancumsum", np.cumsum, 0))
implements(np.nancumprod, out=True)(_identity_scan("nancumprod", np.cumprod, 1))


# -- mean, var, std -----------------------------------------------------------------
def _divide(total, count):
    """NumPy's `_divide_by_count`: the quotient in the total's dtype."""
    return np.astype(np.true_divide(total, count), total.dtype)


@implements(np.nanmean, out=True)
def _nanmean(a, axis=None, dtype=None, out=None, keepdims=np._NoValue, *, where=np._NoValue):
    _check("numpy.nanmean", out, where)
    a = operand(a)
    keep = False if keepdims is np._NoValue else keepdims
    if not _inexact(a):
        return np.mean(a, axis=_axis(a, axis), dtype=dtype, keepdims=keep)
    axes = _axis(a, axis)
    count = np.sum(~np.isnan(a), axis=axes, dtype=np.intp, keepdims=keep)
    total = np.sum(_filled(a, 0), axis=axes, dtype=dtype, keepdims=keep)
    return _divide(total, count)


@implements(np.nanvar, out=True)
def _nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=np._NoValue, *,
            where=np._NoValue, mean=np._NoValue, correction=np._NoValue):
    _check("numpy.nanvar", out, where)
    reject({"mean": None if mean is np._NoValue else mean}, "numpy.nanvar")
    if correction is not np._NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    a = operand(a)
    keep = False if keepdims is np._NoValue else keepdims
    axes = _axis(a, axis)
    if not _inexact(a):
        return np.var(a, axis=axes, dtype=dtype, ddof=ddof, keepdims=keep)
    missing = np.isnan(a)
    filled = _filled(a, 0)
    count = np.sum(~missing, axis=axes, dtype=np.intp, keepdims=True)
    average = _divide(np.sum(filled, axis=axes, dtype=dtype, keepdims=True), count)
    centered = np.where(missing, 0, np.astype(filled - average, filled.dtype))
    if centered.dtype.kind == "c":
        squares = np.real(centered * np.conjugate(centered))
    else:
        squares = centered * centered
    total = np.sum(squares, axis=axes, dtype=dtype, keepdims=keep)
    dof = np.sum(~missing, axis=axes, dtype=np.intp, keepdims=keep) - ddof
    return np.where(dof <= 0, np.nan, _divide(total, dof)).astype(total.dtype)


@implements(np.nanstd, out=True)
def _nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=np._NoValue, *,
            where=np._NoValue, mean=np._NoValue, correction=np._NoValue):
    return np.sqrt(_nanvar(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                           correction=correction))


# -- min, max, argmin, argmax -------------------------------------------------------
def _extremum(name, reduce, fill):
    def handler(a, axis=None, out=None, keepdims=np._NoValue, initial=np._NoValue,
                where=np._NoValue):
        _check(f"numpy.{name}", out, where, initial)
        a = operand(a)
        keep = False if keepdims is np._NoValue else keepdims
        axes = _axis(a, axis)
        if not _inexact(a):
            return reduce(a, axis=axes, keepdims=keep)
        missing = np.isnan(a)
        result = reduce(_filled(a, fill), axis=axes, keepdims=keep)
        return np.where(np.all(missing, axis=axes, keepdims=keep), np.nan, result)
    return handler


implements(np.nanmin, out=True)(_extremum("nanmin", np.min, np.inf))
implements(np.nanmax, out=True)(_extremum("nanmax", np.max, -np.inf))


def _arg_rule(name):
    def rule(x, *, axis=None, keepdims=False):
        shape = x.aval.shape
        axes = tuple(range(len(shape))) if axis is None else (axis,)
        if any(shape[a] == 0 for a in axes):
            raise ValueError(f"attempt to get {name[3:]} of an empty sequence")
        if keepdims:
            return aval(tuple(1 if i in axes else d for i, d in enumerate(shape)), np.intp)
        return aval(tuple(d for i, d in enumerate(shape) if i not in axes), np.intp)
    return rule


def _arg_kernel(name):
    return lambda xp, axis=None, keepdims=False: functools.partial(
        getattr(xp, name), axis=axis, keepdims=keepdims)


nanargmin_p, nanargmax_p = (primitives.define(name, _arg_rule(name), _arg_kernel(name))
                            for name in ("nanargmin", "nanargmax"))


def _arg_extremum(prim, arg):
    def handler(a, axis=None, out=None, *, keepdims=np._NoValue):
        _check(f"numpy.{prim.name}", out)
        a = operand(a)
        keep = False if keepdims is np._NoValue else bool(keepdims)
        if not _inexact(a):
            return arg(a, axis=axis, keepdims=keep)
        if axis is not None:
            axis = normalize_axis(axis, max(ndim(a), 1)) if ndim(a) else None
        return bind(prim, a, axis=axis, keepdims=keep)
    return handler


implements(np.nanargmin, out=True)(_arg_extremum(nanargmin_p, np.argmin))
implements(np.nanargmax, out=True)(_arg_extremum(nanargmax_p, np.argmax))


# -- median, quantile, percentile ----------------------------------------------------
def _pick(s, index):
    """`s[..., index]` where `index` (one per slice, with q's dims last) may differ
    by slice: a sum over a one-hot mask of positions."""
    index = np.expand_dims(index, -1)
    for _ in range(index.ndim - s.ndim):
        s = np.expand_dims(s, -2)
    positions = np.cumsum(np.ones_like(s, dtype=np.intp), axis=-1) - 1
    return np.sum(np.where(positions == index, s, 0), axis=-1)


def _nan_order_statistic(a, axis, keepdims, qv, q, numpy_fn, median):
    flat, axes = reduce_last(a, axis)
    s = np.sort(flat, axis=-1)
    count = np.sum(~np.isnan(s), axis=-1) if _inexact(s) else \
        np.sum(np.ones_like(s, dtype=np.intp), axis=-1)
    q_nd = 0 if median else np.ndim(qv)
    counts = count
    for _ in range(q_nd):
        counts = np.expand_dims(counts, -1)
    if median:
        low = _pick(s, (counts - 1) // 2)
        result = (low + _pick(s, counts // 2)) / 2
        dtype = np.result_type(np.mean(np.ones(2, s.dtype)))
    else:
        dtype = quantile_dtype(flat, q, numpy_fn)
        virtual = np.asarray(qv) * (counts - 1)
        below = np.floor(virtual)
        above = np.minimum(below + 1, counts - 1)
        gamma = virtual - below
        result = lerp(_pick(s, np.astype(below, np.intp)), _pick(s, np.astype(above, np.intp)),
                      np.astype(gamma, dtype) if dtype.kind == "f" else gamma)
        result = np.moveaxis(result, tuple(range(-q_nd, 0)), tuple(range(q_nd))) \
            if q_nd else result
        counts = np.moveaxis(counts, tuple(range(-q_nd, 0)), tuple(range(q_nd))) \
            if q_nd else counts
    result = np.where(counts == 0, np.nan, np.astype(result, dtype))
    return restore_dims(np.astype(result, dtype), axes, keepdims, q_nd)


@implements(np.nanmedian, out=True)
def _nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=np._NoValue):
    reject({"out": out}, "numpy.nanmedian")
    a = operand(a)
    keep = False if keepdims is np._NoValue else keepdims
    if not _inexact(a):
        return np.median(a, axis=axis, keepdims=keep)
    return _nan_order_statistic(a, axis, keep, None, None, None, median=True)


def _nan_quantile(name, scale, numpy_fn, plain):
    def handler(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=np._NoValue, *, weights=None, interpolation=None):
        reject({"out": out, "weights": weights, "interpolation": interpolation},
               f"numpy.{name}")
        keep = False if keepdims is np._NoValue else keepdims
        a = operand(a)
        if not _inexact(a):
            return plain(a, q, axis=axis, method=method, keepdims=keep)
        if method != "linear":
            raise unsupported(f"numpy.{name}(..., method={method!r})")
        qv = np.true_divide(q, scale)
        if np.size(qv) and not (np.all(qv >= 0) and np.all(qv <= 1)):
            raise ValueError("Quantiles must be in the range [0, 1]" if scale == 1 else
                             "Percentiles must be in the range [0, 100]")
        return _nan_order_statistic(a, axis, keep, qv, q, numpy_fn, median=False)
    return handler


implements(np.nanquantile, out=True)(_nan_quantile("nanquantile", 1, np.nanquantile, np.quantile))
implements(np.nanpercentile, out=True)(_nan_quantile("nanpercentile", 100, np.nanpercentile,
                                           np.percentile))
