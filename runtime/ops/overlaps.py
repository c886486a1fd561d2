"""Writes whose value is a view of the array written: NumPy's own element order.

NumPy writes a value into a 1-d target element by element, without a temporary
copy, where the two have strides of one sign (backwards where the target lies
after the value in memory, so `a[1:] = a[:-1]` shifts as a copy would). With
strides of different sizes an element read late may already have been written:

>>> import numpy as np
>>> M = np.arange(9.0).reshape(3, 3)
>>> M[:, 2] = M[1]          # M[2, 2] gets the M[1, 2] written just before
>>> M[:, 2]
array([3., 4., 4.])

A graph's `index_update` reads its value before writing, as a copy would. So
where a traced value shares memory with the 1-d selection it is written to,
`overlap_sources` replays the write with NumPy itself, on element numbers laid
out in memory as the graph's arrays are, and the value written is gathered
from the array by the numbers that NumPy's order left in the target.
"""
from __future__ import annotations

import numpy as np

from .. import primitives, views
from ..abstract import AbstractValue
from ..tracer import Tracer, bind
from .indexing import _fill, _kind, getitem_shape


def _address(a) -> int:
    return a.ctypes.data if isinstance(a, np.ndarray) else a.data.ptr


def _extent(a) -> tuple[int, int]:
    """The bytes [lo, hi) the elements of the array `a` lie in."""
    lo = hi = _address(a)
    for n, stride in zip(a.shape, a.strides):
        if stride < 0:
            lo += (n - 1) * stride
        else:
            hi += (n - 1) * stride
    return lo, hi + a.itemsize


def _host(value):
    return value.get() if hasattr(value, "get") else value


def _kernel(xp, index):
    def run(root, dst, src, *values):
        host_index = _fill(index, [_host(v) for v in values])
        if root.size == 0:
            return xp.asarray(np.zeros(np.empty(dst.shape)[host_index].shape, np.intp))
        lo, hi = _extent(root)
        item = root.itemsize
        cells = np.full((hi - lo) // item, -1, np.intp)  # element numbers, where root lies

        def laid_out(a):
            start, end = _extent(a)
            offset = _address(a) - lo
            if a.size and not (lo <= start and end <= hi) or offset % item or \
                    any(s % item for s in a.strides):
                raise RuntimeError("overlap_sources: a view of the array is not in its memory")
            return np.ndarray(a.shape, np.intp, cells, offset // item * cells.itemsize,
                              tuple(s // item * cells.itemsize for s in a.strides))

        laid_out(root)[...] = np.arange(root.size).reshape(root.shape)
        target = laid_out(dst)
        target[host_index] = laid_out(src)   # NumPy's own order, on the numbers
        sources = np.array(target[host_index], copy=True)
        if sources.size and sources.min() < 0:
            raise RuntimeError("overlap_sources: a view of the array is not in its memory")
        return xp.asarray(sources)
    return run


def _abstract_eval(root, dst, src, *dyn, index):
    types = [(a.aval.shape, _kind(a.aval)) for a in dyn]
    return AbstractValue(getitem_shape(dst.aval.shape, index, types), np.dtype(np.intp))


overlap_sources_p = primitives.define("overlap_sources", _abstract_eval, _kernel)
primitives.vjp_rules[overlap_sources_p] = lambda ct, out, *operands, index: \
    (None,) * len(operands)   # element numbers: the value is gathered by a differentiable take


def value_as_written(x, template, operands, value):
    """The value NumPy effectively writes by `x[index] = value` (index split as
    `template` and `operands`): `value` itself, unless it is a view of x's memory
    written into a 1-d selection, where an element may be read after it was written."""
    if not isinstance(value, Tracer) or value is x or value.ndim == 0 or \
            value.dtype != x.dtype or not views.follows(value, x):
        return value
    root = views.root_of(x)
    if root.ndim == 0 or root.builder is not x.builder or value.builder is not x.builder:
        return value
    types = [(a.aval.shape, _kind(a.aval)) if isinstance(a, Tracer)
             else (np.shape(a), _kind(np.asarray(a))) for a in operands]
    if len(getitem_shape(x.shape, template, types)) != 1:
        return value   # more dimensions: NumPy copies the value first, as the graph reads it
    dst, src = _derived_from(root, x), _derived_from(root, value)
    if dst is None or src is None:
        return value
    sources = bind(overlap_sources_p, root, dst, src, *operands, index=template)
    return root.reshape(-1)[sources]


def _derived_from(root, view):
    """The traced `view` derived anew from `root` by NumPy views only (a view written in
    place holds the value written, which is no view when the graph runs); None where a
    link of the chain is a conditional view (`runtime.path_aliases`)."""
    if view is root:
        return root
    how = view.viewing
    if getattr(how.derive, "own_value", None) is not None:
        return None
    base = _derived_from(root, how.base)
    return None if base is None else how.derive(base)
