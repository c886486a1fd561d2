"""Order statistics and covariance: ptp, median, quantile, percentile, cov, corrcoef.

All are compositions of existing primitives (so they have gradients, CuPy
kernels and serialization for free): a quantile sorts along its axis (moved
last) and takes NumPy's "linear" method, `lerp(s[lo], s[hi], gamma)` with
`virtual index = q * (n - 1)`, exactly as NumPy computes it (NaN where the
slice holds a NaN), or "lower", "higher", "nearest" (an element) or
"midpoint"; the indices are constants where `n` is known, traced values where
it is not. `q` must be static (a number, list or NumPy array).
`ptp` is `max - min` along the axis, as NumPy computes it (a bool array's
subtraction raises NumPy's `TypeError`); `median` is the mean of the middle one or
two sorted elements, as NumPy's.
`cov` centres the rows and takes `X @ X.T.conj() / (N - ddof)` in
`result_type(m, float64)`; `corrcoef` divides by the standard deviations and
clips to [-1, 1]. The NaN-ignoring family is in `nan_reductions.py`.
"""
from __future__ import annotations

import numpy as np

from ..abstract import normalize_axes
from ..dispatch import implements, unsupported
from ..tracer import Tracer
from ._rules import reject
from .introspection import dynamic_shape
from .shape_ops import ndim, operand


# -- the reduced axes, moved last ------------------------------------------------------
def reduce_last(a, axis):
    """`a` with the reduced axes merged into its last one, and the axes reduced."""
    a = operand(a)
    if not isinstance(a, Tracer):
        a = np.asarray(a)
    if axis is None:
        return np.ravel(a), tuple(range(ndim(a)))
    axes = normalize_axes(axis, ndim(a))
    kept = [d for d in range(ndim(a)) if d not in axes]
    moved = np.transpose(a, kept + list(axes))
    if len(axes) == 1:
        return moved, axes
    if any(a.shape[d] is None for d in kept):
        raise unsupported("an order statistic over several axes of an array whose other "
                          "dimensions are unknown")
    return np.reshape(moved, tuple(a.shape[d] for d in kept) + (-1,)), axes


def restore_dims(result, axes, keepdims, lead=0):
    """`keepdims`: the reduced axes back as size-1 dimensions (after `lead` q dims)."""
    if not keepdims:
        return result
    for d in sorted(axes):
        result = np.expand_dims(result, lead + d)
    return result


def quantile_dtype(a, q, numpy_fn=np.quantile, method="linear"):
    """NumPy's result dtype for `numpy_fn(a, q)` (q as given: a Python q is weak)."""
    with np.errstate(all="ignore"):
        return np.asarray(numpy_fn(np.ones(3, a.dtype), q, method=method)).dtype


def lerp(low, high, gamma):
    """NumPy's `_lerp`: the nearer end subtracts, so gamma 1 gives `high` exactly."""
    diff = high - low
    return np.where(gamma >= 0.5, high - diff * (1 - gamma), low + diff * gamma)


def _q_first(x, q_ndim):
    """q's dimensions (last after indexing) first, as NumPy puts them."""
    if not q_ndim:
        return x
    return np.moveaxis(x, tuple(range(-q_ndim, 0)), tuple(range(q_ndim)))


def _indices(virtual, count):
    """NumPy's `_get_indexes` for q in [0, 1]: the neighbours, -1 from the last on."""
    above = virtual >= count - 1
    below = np.floor(virtual)
    previous = np.where(above, -1, below)
    upper = np.where(above, -1, below + 1)
    if isinstance(virtual, Tracer):
        return np.astype(previous, np.intp), np.astype(upper, np.intp)
    return np.asarray(previous).astype(np.intp), np.asarray(upper).astype(np.intp)


def _virtual_index(method, count, qv):
    """NumPy's virtual index of each quantile (`_QuantileMethods`), integer for the
    methods that pick an element."""
    virtual = (count - 1) * qv
    if method == "linear":
        return virtual
    if method == "midpoint":
        return 0.5 * (np.floor(virtual) + np.ceil(virtual))
    picked = {"lower": np.floor, "higher": np.ceil, "nearest": np.round}[method](virtual)
    return np.astype(picked, np.intp) if isinstance(picked, Tracer) else \
        np.asarray(picked).astype(np.intp)


def _quantile(a, q, qv, axis, keepdims, numpy_fn, method="linear"):
    """NumPy's quantile of `a` at `qv` (the array form of the static `q`)."""
    flat, axes = reduce_last(a, axis)
    if flat.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    dtype = quantile_dtype(flat, q, numpy_fn, method)
    s = np.sort(flat, axis=-1)
    if s.shape[-1] == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    count = s.shape[-1] if s.shape[-1] is not None else dynamic_shape(s)[-1]
    virtual = _virtual_index(method, count, qv)
    if np.dtype(virtual.dtype).kind in "iub":  # the elements themselves
        result = _q_first(s[..., virtual], qv.ndim)
    else:
        previous, upper = _indices(virtual, count)
        gamma = virtual - previous
        if method == "midpoint":
            gamma = np.where(virtual % 1 == 0, 0.0, 0.5)
        if type(q) in (int, float) and not isinstance(gamma, Tracer):
            gamma = float(gamma)  # a Python q stays weak, as NumPy keeps it
        else:
            gamma = np.reshape(np.astype(gamma, qv.dtype), qv.shape + (1,) * (s.ndim - 1))
        result = lerp(_q_first(s[..., previous], qv.ndim), _q_first(s[..., upper], qv.ndim),
                      gamma)
    if s.dtype.kind == "f":
        result = np.where(np.isnan(s[..., -1]), s[..., -1], result)
    return restore_dims(np.astype(result, dtype), axes, keepdims, qv.ndim)


def _static_q(q, name):
    if isinstance(q, Tracer) or any(isinstance(x, Tracer) for x in np.ravel(
            np.asarray(q, dtype=object))):
        raise unsupported(f"numpy.{name} with a traced q")


METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _check_method(method, interpolation, name):
    if interpolation is not None:
        raise unsupported(f"numpy.{name}(..., interpolation=...)")
    if method not in METHODS:
        raise unsupported(f"numpy.{name}(..., method={method!r})")


@implements(np.quantile, out=True)
def _np_quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                 keepdims=False, *, weights=None, interpolation=None):
    reject({"out": out, "weights": weights}, "numpy.quantile")
    _check_method(method, interpolation, "quantile")
    _static_q(q, "quantile")
    qv = np.asanyarray(q)
    if qv.size and not (np.all(qv >= 0) and np.all(qv <= 1)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    return _quantile(a, q, qv, axis, keepdims, np.quantile, method)


@implements(np.percentile, out=True)
def _np_percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                   keepdims=False, *, weights=None, interpolation=None):
    reject({"out": out, "weights": weights}, "numpy.percentile")
    _check_method(method, interpolation, "percentile")
    _static_q(q, "percentile")
    qv = np.true_divide(q, 100)
    if np.size(qv) and not (np.all(qv >= 0) and np.all(qv <= 1)):
        raise ValueError("Percentiles must be in the range [0, 100]")
    return _quantile(a, q, np.asanyarray(qv), axis, keepdims, np.percentile, method)


# -- ptp, median ---------------------------------------------------------------------
@implements(np.ptp)
def _ptp(a, axis=None, out=None, keepdims=False):
    reject({"out": out}, "numpy.ptp")
    return np.subtract(np.max(a, axis=axis, keepdims=keepdims),
                       np.min(a, axis=axis, keepdims=keepdims))



@implements(np.median, out=True)
def _median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    reject({"out": out}, "numpy.median")
    flat, axes = reduce_last(a, axis)
    s = np.sort(flat, axis=-1)
    n = s.shape[-1]
    if n is not None:
        middle = s[..., (n - 1) // 2: n // 2 + 1]
    else:
        count = dynamic_shape(s)[-1]
        middle = s[..., (count - 1) // 2: count // 2 + 1]
    result = np.mean(middle, axis=-1)
    if s.dtype.kind in "fc":  # a NaN sorts last; an empty slice has none (its mean is NaN)
        holds_nan = np.any(np.isnan(s[..., -1:]), axis=-1)
        result = np.astype(np.where(holds_nan, np.nan, result), result.dtype)
    return restore_dims(result, axes, keepdims)


# -- cov, corrcoef -------------------------------------------------------------------
def _as_rows(x, dtype, rowvar):
    x = np.astype(operand(x), dtype)
    if x.ndim == 0:
        x = np.reshape(x, (1, 1))
    elif x.ndim == 1:
        x = x[None, :]
    elif not rowvar:
        x = np.transpose(x)
    return x


@implements(np.cov)
def _cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
         dtype=None):
    reject({"fweights": fweights, "aweights": aweights}, "numpy.cov")
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = operand(m)
    if ndim(m) > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = operand(y)
        if ndim(y) > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = np.result_type(m, np.float64) if y is None else np.result_type(m, y, np.float64)
    dtype = np.dtype(dtype)
    x = _as_rows(m, dtype, rowvar or ndim(m) == 1)
    if x.shape[0] == 0:
        return np.array([]).reshape(0, 0)
    if y is not None:
        rows = _as_rows(y, dtype, rowvar or ndim(y) < 2 or y.shape[0] == 1)
        x = np.concatenate((x, rows), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    samples = x.shape[1] if x.shape[1] is not None else dynamic_shape(x)[1]
    fact = np.maximum(samples - ddof, 0)
    centered = x - np.mean(x, axis=1)[:, None]
    c = np.dot(centered, np.conjugate(np.transpose(centered)))
    c = np.astype(c * np.true_divide(1, fact), c.dtype)
    if c.shape[0] == 1:
        return np.reshape(c, ())
    return np.squeeze(c)


@implements(np.corrcoef)
def _corrcoef(x, y=None, rowvar=True, bias=np._NoValue, ddof=np._NoValue, *, dtype=None):
    c = _cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    rows = c.shape[0]
    d = np.einsum("ii->i", c) if rows is None else c[np.arange(rows), np.arange(rows)]
    stddev = np.sqrt(np.real(d))
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind == "c":
        return np.clip(np.real(c), -1, 1) + 1j * np.clip(np.imag(c), -1, 1)
    return np.clip(c, -1, 1)
