"""Reductions and scans: sum, prod, mean, std, var, max, min, argmax, argmin,
any, all, cumsum and cumprod.

Handlers serve the NumPy functions (`np.sum`, `np.amax`, ...), hence the array
methods, and the ufunc methods `np.add.reduce`, `np.multiply.reduce`,
`np.maximum.reduce`, `np.minimum.reduce`, `np.logical_and.reduce`,
`np.logical_or.reduce`, `np.add.accumulate` and `np.multiply.accumulate`.
Params: `axis` is None (every axis) or a sorted tuple of non-negative axes for
reductions, a non-negative int or None (flattened) for argmax/argmin and scans;
`keepdims`; `dtype` only where given; `ddof` for std/var.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import primitives
from ..backend import DASK_OVERRIDES
from ..abstract import normalize_axes, normalize_axis
from ..dispatch import implements, ufunc_handlers, unsupported
from ..tracer import bind
from ._rules import aval, dtype_by_example, reject
from .shape_ops import known_size, ndim, operand


def _reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _reduction_rule(numpy_fn, no_identity=None):
    def rule(x, *, axis=None, keepdims=False, ddof=0, **dtype):
        shape = x.aval.shape
        axes = normalize_axes(axis, len(shape))
        if no_identity and any(shape[a] == 0 for a in axes):
            raise ValueError(f"zero-size array to reduction operation {no_identity} "
                             "which has no identity")
        return aval(_reduced_shape(shape, axes, keepdims),
                    dtype_by_example(numpy_fn, [x], **dtype))
    return rule


def _arg_rule(name):
    def rule(x, *, axis=None, keepdims=False):
        shape = x.aval.shape
        axes = tuple(range(len(shape))) if axis is None else (normalize_axis(axis, len(shape)),)
        if any(shape[a] == 0 for a in axes):
            raise ValueError(f"attempt to get {name} of an empty sequence")
        return aval(_reduced_shape(shape, axes, keepdims), np.intp)
    return rule


def _scan_rule(numpy_fn):
    def rule(x, *, axis=None, **dtype):
        shape = x.aval.shape
        if axis is None or not shape:
            shape = (known_size(shape),)
        normalize_axis(0 if axis is None else axis, len(shape))
        return aval(shape, dtype_by_example(numpy_fn, [x], **dtype))
    return rule


def _kernel(name):
    def kernel(xp, **params):
        return functools.partial(getattr(xp, name), **params)
    return kernel


_REDUCTIONS = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "std": np.std,
               "var": np.var, "max": np.max, "min": np.min, "any": np.any, "all": np.all}
_NO_IDENTITY = {"max": "maximum", "min": "minimum"}
_p = {name: primitives.define(name, _reduction_rule(fn, _NO_IDENTITY.get(name)), _kernel(name))
      for name, fn in _REDUCTIONS.items()}
for _name in ("argmax", "argmin"):
    _p[_name] = primitives.define(_name, _arg_rule(_name), _kernel(_name))
for _name, _fn in (("cumsum", np.cumsum), ("cumprod", np.cumprod)):
    _p[_name] = primitives.define(_name, _scan_rule(_fn), _kernel(_name))
del _name, _fn

sum_p, prod_p, mean_p, std_p, var_p = (_p[n] for n in ("sum", "prod", "mean", "std", "var"))
max_p, min_p, any_p, all_p = (_p[n] for n in ("max", "min", "any", "all"))
def _dask_arg_kernel(name):
    """On Dask, the flat index of `axis=None` from the raveled array: Dask's over n-d
    chunks breaks ties in chunk order, where NumPy's gives the first in C order."""
    def kernel(xp, axis=None, keepdims=False):
        fn = getattr(xp, name)
        if axis is not None:
            return functools.partial(fn, axis=axis, keepdims=keepdims)

        def run(a):
            flat = fn(xp.ravel(a), axis=0)
            return xp.reshape(flat, (1,) * a.ndim) if keepdims else flat
        return run
    return kernel


for _name in ("argmax", "argmin"):
    DASK_OVERRIDES[_p[_name]] = _dask_arg_kernel(_name)
argmax_p, argmin_p, cumsum_p, cumprod_p = (_p[n] for n in ("argmax", "argmin", "cumsum",
                                                            "cumprod"))


# -- handlers ------------------------------------------------------------------
def _check(where_name, where=True, **kwargs):
    if where is not True and where is not np._NoValue:
        raise unsupported(f"{where_name}(..., where=...)")
    reject(kwargs, where_name)


def _dtype(dtype):
    return {} if dtype is None else {"dtype": np.dtype(dtype)}


def _keepdims(keepdims):
    return False if keepdims is np._NoValue else bool(keepdims)


_UFUNC_BASED = ("sum", "prod", "max", "min", "any", "all")


def _reduce(name, a, axis, keepdims, dtype=None, **extra):
    a = operand(a)
    if ndim(a) == 0 and name in _UFUNC_BASED and not isinstance(axis, tuple) and axis in (0, -1):
        axis = None  # NumPy's ufunc reductions take axis 0 or -1 of a 0-d array
    axis = None if axis is None else normalize_axes(axis, ndim(a))
    return bind(_p[name], a, axis=axis, keepdims=_keepdims(keepdims), **_dtype(dtype), **extra)


def _with_dtype(name):
    def handler(a, axis=None, dtype=None, out=None, keepdims=False,
                initial=np._NoValue, where=True):
        _check(f"numpy.{name}", where, out=out, initial=initial)
        return _reduce(name, a, axis, keepdims, dtype)
    return handler


def _without_dtype(name):
    def handler(a, axis=None, out=None, keepdims=False, initial=np._NoValue, where=True):
        _check(f"numpy.{name}", where, out=out, initial=initial)
        return _reduce(name, a, axis, keepdims)
    return handler


def _statistic(name):
    def handler(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
                where=True, mean=np._NoValue, correction=np._NoValue):
        _check(f"numpy.{name}", where, out=out, mean=mean)
        if correction is not np._NoValue:
            if ddof != 0:
                raise ValueError("ddof and correction can't be provided simultaneously.")
            ddof = correction
        ddof = ddof if isinstance(ddof, int) else float(ddof)
        return _reduce(name, a, axis, keepdims, dtype, **({"ddof": ddof} if ddof else {}))
    return handler


def _arg(name):
    def handler(a, axis=None, out=None, *, keepdims=False):
        _check(f"numpy.{name}", out=out)
        a = operand(a)
        if axis is not None:
            axis = None if ndim(a) == 0 and axis in (0, -1) else normalize_axis(axis, ndim(a))
        return bind(_p[name], a, axis=axis, keepdims=_keepdims(keepdims))
    return handler


def _scan(name):
    def handler(a, axis=None, dtype=None, out=None):
        _check(f"numpy.{name}", out=out)
        a = operand(a)
        if axis is not None:
            axis = normalize_axis(axis, max(ndim(a), 1))
        return bind(_p[name], a, axis=axis, **_dtype(dtype))
    return handler


@implements(np.mean, out=True)
def _mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    _check("numpy.mean", where, out=out)
    return _reduce("mean", a, axis, keepdims, dtype)


implements(np.sum, out=True)(_with_dtype("sum"))
implements(np.prod, out=True)(_with_dtype("prod"))
implements(np.max, np.amax, out=True)(_without_dtype("max"))
implements(np.min, np.amin, out=True)(_without_dtype("min"))
implements(np.std, out=True)(_statistic("std"))
implements(np.var, out=True)(_statistic("var"))
implements(np.argmax, out=True)(_arg("argmax"))
implements(np.argmin, out=True)(_arg("argmin"))
implements(np.cumsum, out=True)(_scan("cumsum"))
implements(np.cumprod, out=True)(_scan("cumprod"))


@implements(np.any, out=True)
def _any(a, axis=None, out=None, keepdims=False, *, where=True):
    _check("numpy.any", where, out=out)
    return _reduce("any", a, axis, keepdims)


@implements(np.all, out=True)
def _all(a, axis=None, out=None, keepdims=False, *, where=True):
    _check("numpy.all", where, out=out)
    return _reduce("all", a, axis, keepdims)


# -- ufunc methods: np.add.reduce, np.add.accumulate, ... ------------------------
def _ufunc_reduce(name, takes_dtype):
    def handler(ufunc, array, axis=0, dtype=None, out=None, keepdims=False,
                initial=np._NoValue, where=True):
        what = f"numpy.{ufunc.__name__}.reduce"
        _check(what, where, out=out, initial=initial, **({} if takes_dtype else {"dtype": dtype}))
        return _reduce(name, array, axis, keepdims, dtype if takes_dtype else None)
    return handler


def _ufunc_accumulate(name):
    def handler(ufunc, array, axis=0, dtype=None, out=None):
        _check(f"numpy.{ufunc.__name__}.accumulate", out=out)
        array = operand(array)
        if ndim(array) == 0:
            raise TypeError("cannot accumulate on a scalar")
        if axis is None and ndim(array) == 1:
            axis = 0
        if axis is None or isinstance(axis, tuple) and len(axis) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = axis[0] if isinstance(axis, tuple) else axis
        return bind(_p[name], array, axis=normalize_axis(axis, ndim(array)), **_dtype(dtype))
    return handler


for _ufunc, _name, _takes_dtype in ((np.add, "sum", True), (np.multiply, "prod", True),
                                    (np.maximum, "max", False), (np.minimum, "min", False),
                                    (np.logical_and, "all", False),
                                    (np.logical_or, "any", False)):
    ufunc_handlers[(_ufunc, "reduce")] = _ufunc_reduce(_name, _takes_dtype)
ufunc_handlers[(np.add, "accumulate")] = _ufunc_accumulate("cumsum")
ufunc_handlers[(np.multiply, "accumulate")] = _ufunc_accumulate("cumprod")
del _ufunc, _name, _takes_dtype
