"""Vector-Jacobian rules of the reductions and scans.

A reduction's cotangent is broadcast back over the reduced axes; `mean`,
`std` and `var` divide by the count of reduced elements (traced where a
reduced dimension is unknown); `max` and `min` share the cotangent among the
elements equal to the result.
"""
from __future__ import annotations

import math

import numpy as np

from .. import primitives
from ..abstract import normalize_axes
from ..ops import reductions as r
from ..ops.introspection import dynamic_shape
from .cotangents import broadcast_like, reshape_like


def _axes(x, axis):
    return normalize_axes(axis, x.ndim)


def _expand(g, x, axis, keepdims):
    """`g` with the reduced axes back as size-1 dimensions."""
    axes = _axes(x, axis)
    if keepdims or not axes or len(axes) == x.ndim:  # a 0-d `g` broadcasts as it is
        return g
    return np.expand_dims(g, axes)


def _count(x, axis, dtype):
    """The number of elements reduced, a Python int where known, else traced (in `dtype`)."""
    dims = [x.shape[a] for a in _axes(x, axis)]
    if None not in dims:
        return math.prod(dims)
    traced = dynamic_shape(x)
    count = math.prod(d for d in dims if d is not None)
    for a in _axes(x, axis):
        if x.shape[a] is None:
            count = count * traced[a]
    return count.astype(dtype)


def _sum(g, out, x, *, axis=None, keepdims=False, dtype=None):
    return (broadcast_like(_expand(g, x, axis, keepdims), x),)


def _mean(g, out, x, *, axis=None, keepdims=False, dtype=None):
    return (broadcast_like(_expand(g, x, axis, keepdims) / _count(x, axis, g.dtype), x),)


def _prod(g, out, x, *, axis=None, keepdims=False, dtype=None):
    """Exact where no element is 0 (then the product's cotangent is divided by it)."""
    product = _expand(g * out, x, axis, keepdims)
    return (broadcast_like(product, x) / x,)


def _extremum(g, out, x, *, axis=None, keepdims=False):
    hits = x == _expand(out, x, axis, keepdims)
    share = hits / np.sum(hits, axis=_axes(x, axis), keepdims=True)
    return (broadcast_like(_expand(g, x, axis, keepdims), x) * share.astype(g.dtype),)


def _var(g, out, x, *, axis=None, keepdims=False, ddof=0, dtype=None):
    centered = x - np.mean(x, axis=_axes(x, axis), keepdims=True)
    scale = _expand(g, x, axis, keepdims) * 2 / (_count(x, axis, g.dtype) - ddof)
    return (scale * centered,)


def _std(g, out, x, *, axis=None, keepdims=False, ddof=0, dtype=None):
    centered = x - np.mean(x, axis=_axes(x, axis), keepdims=True)
    scale = _expand(g / out, x, axis, keepdims) / (_count(x, axis, g.dtype) - ddof)
    return (scale * centered,)


def _reverse(x, axis):
    return x[(slice(None),) * axis + (slice(None, None, -1),)]


def _reverse_cumsum(g, axis):
    return _reverse(np.cumsum(_reverse(g, axis), axis=axis), axis)


def _cumsum(g, out, x, *, axis=None, dtype=None):
    """A scan with axis None runs over the flattened input."""
    if axis is None:
        return (reshape_like(_reverse_cumsum(g, 0), x),)
    return (_reverse_cumsum(g, axis),)


def _cumprod(g, out, x, *, axis=None, dtype=None):
    """Exact where no element is 0."""
    if axis is None:
        return (reshape_like(_reverse_cumsum(g * out, 0) / np.ravel(x), x),)
    return (_reverse_cumsum(g * out, axis) / x,)


for _prim, _rule in ((r.sum_p, _sum), (r.mean_p, _mean), (r.prod_p, _prod),
                     (r.max_p, _extremum), (r.min_p, _extremum), (r.var_p, _var),
                     (r.std_p, _std), (r.cumsum_p, _cumsum), (r.cumprod_p, _cumprod)):
    primitives.vjp_rules[_prim] = _rule
del _prim, _rule
