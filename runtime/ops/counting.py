"""Counting and binning: searchsorted, bincount, histogram and unique.

Each is a primitive with NumPy's (or CuPy's) kernel. `bincount` and `unique`
give results whose length depends on the values: an unknown dimension (like a
boolean-mask read), which later operations and staged loops accept.
`histogram` with an int `bins` has known shapes (`(bins,)` counts and
`(bins + 1,)` edges); bins given as an array (traced or constant) is an operand.
`searchsorted(a, v, sorter=s)` is `searchsorted(a[s], v)`, which is NumPy's
answer. None of them has a gradient: their results are integers, or counts
(histogram's edges depend on the data only through its minimum and maximum,
and its weighted counts are piecewise constant in the data).
"""
from __future__ import annotations

import operator

import numpy as np

from .. import primitives
from ..abstract import normalize_axis
from ..dispatch import implements, unsupported
from ..tracer import Tracer, bind
from ._rules import aval, dtype_by_example
from .shape_ops import known_size, ndim, operand


# -- searchsorted ------------------------------------------------------------------
def _searchsorted_rule(a, v, *, side="left"):
    if a.aval.ndim != 1:
        raise ValueError("object too deep for desired array" if a.aval.ndim > 1
                         else "object of too small depth for desired array")
    return aval(v.aval.shape, np.intp)


searchsorted_p = primitives.define(
    "searchsorted", _searchsorted_rule,
    lambda xp, side="left": lambda a, v: xp.searchsorted(a, v, side=side))


@implements(np.searchsorted)
def _searchsorted(a, v, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    a = operand(a)
    if sorter is not None:
        a = np.take(a, sorter)
    return bind(searchsorted_p, a, operand(v), side=side)


# -- bincount ----------------------------------------------------------------------
def _bincount_rule(x, *weights, minlength=0):
    if x.aval.ndim != 1:
        raise ValueError("object too deep for desired array" if x.aval.ndim > 1
                         else "object of too small depth for desired array")
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    return aval((None,), dtype_by_example(np.bincount, [x, *weights]))


def _bincount_kernel(xp, minlength=0):
    return lambda x, *weights: xp.bincount(x, *weights, minlength=minlength)


bincount_p = primitives.define("bincount", _bincount_rule, _bincount_kernel)


@implements(np.bincount)
def _bincount(x, weights=None, minlength=0):
    operands = [operand(x)] + ([] if weights is None else [operand(weights)])
    return bind(bincount_p, *operands, minlength=operator.index(minlength))


# -- histogram ---------------------------------------------------------------------
def _histogram_example(a, *rest, bins=None, range=None, density=None, has_weights=False):
    edges = rest[0] if bins is None else bins
    weights = rest[-1] if has_weights else None
    return np.histogram(a, edges, range=range, density=density, weights=weights)


def _histogram_rule(a, *rest, bins=None, range=None, density=None, has_weights=False):
    if bins is None:
        edges = rest[0].aval.shape
        if len(edges) != 1:
            raise ValueError("`bins` must be 1d, when an array")
        count, n_edges = (None if edges[0] is None else edges[0] - 1), edges[0]
    else:
        count, n_edges = bins, bins + 1
    dtypes = dtype_by_example(
        lambda a, *r: _histogram_example(a, *r, bins=None if bins is None else 1, range=range,
                                         density=density, has_weights=has_weights),
        [a, *rest])
    return [aval((count,), dtypes[0]), aval((n_edges,), dtypes[1])]


def _histogram_kernel(xp, bins=None, range=None, density=None, has_weights=False):
    def histogram(a, *rest):
        return xp.histogram(a, rest[0] if bins is None else bins, range=range,
                            density=density, weights=rest[-1] if has_weights else None)
    return histogram


histogram_p = primitives.define("histogram", _histogram_rule, _histogram_kernel,
                                multiple_results=True)


@implements(np.histogram)
def _histogram(a, bins=10, range=None, density=None, weights=None):
    if isinstance(bins, str):
        raise unsupported(f"numpy.histogram(..., bins={bins!r})")
    operands, params = [operand(a)], {}
    if isinstance(bins, (Tracer, np.ndarray, list, tuple)):
        operands.append(operand(bins))
    else:
        params["bins"] = operator.index(bins)
        if params["bins"] < 1:
            raise ValueError("`bins` must be positive, when an integer")
    if range is not None:
        if isinstance(range[0], Tracer) or isinstance(range[1], Tracer):
            raise unsupported("numpy.histogram(..., range=<traced>)")
        first, last = float(range[0]), float(range[1])
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        params["range"] = (first, last)
    if density is not None:
        params["density"] = bool(density)
    if weights is not None:
        operands.append(operand(weights))
        params["has_weights"] = True
    return tuple(bind(histogram_p, *operands, **params))


# -- unique ------------------------------------------------------------------------
_UNIQUE_FLAGS = ("return_index", "return_inverse", "return_counts")


def _unique_rule(x, *, axis=None, equal_nan=True, **flags):
    shape = x.aval.shape
    if axis is None:
        size = known_size(shape)
        values = aval((size if size in (0, 1) else None,), x.aval.dtype)
        inverse = shape
    else:
        values = aval(shape[:axis] + (None,) + shape[axis + 1:], x.aval.dtype)
        inverse = (shape[axis],)
    distinct = values.shape[axis or 0]
    sizes = {"return_index": (distinct,), "return_inverse": inverse,
             "return_counts": (distinct,)}
    return [values] + [aval(sizes[f], np.intp) for f in _UNIQUE_FLAGS if flags.get(f)]


def _unique_kernel(xp, axis=None, equal_nan=True, **flags):
    def unique(x):
        result = xp.unique(x, axis=axis, equal_nan=equal_nan, **flags)
        return tuple(result) if isinstance(result, tuple) else (result,)
    return unique


unique_p = primitives.define("unique", _unique_rule, _unique_kernel, multiple_results=True)


@implements(np.unique)
def _unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
            equal_nan=True, sorted=True):
    if not sorted:
        raise unsupported("numpy.unique(..., sorted=False)")
    ar = operand(ar)
    if axis is not None:
        axis = normalize_axis(axis, ndim(ar))
    flags = {name: True for name, on in zip(
        _UNIQUE_FLAGS, (return_index, return_inverse, return_counts)) if on}
    results = bind(unique_p, ar, axis=axis, equal_nan=bool(equal_nan), **flags)
    return results[0] if len(results) == 1 else tuple(results)

