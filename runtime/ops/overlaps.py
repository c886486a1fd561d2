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
from ..errors import TracingError
from ..source import location_note, user_source
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
    written into a 1-d selection, where an element may be read after it was written.

    Where a conditional view (`runtime.path_aliases`) lies between them and their
    memory, which memory they share depends on the path: each array that may hold
    it contributes its own order, where the flags say it is the one."""
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
    to_x, to_value = _chain(x, root), _chain(value, root)
    if to_x is None or to_value is None:
        raise _unfollowed_overlap(x, value)
    shared = 0   # the links both chains go through, counted from the root
    while shared < min(len(to_x), len(to_value)) and to_x[-1 - shared] is to_value[-1 - shared]:
        shared += 1
    below = to_x[:len(to_x) - shared] + to_value[:len(to_value) - shared]
    written = value
    for owner, path in _owners(root, to_x[len(to_x) - shared:]):
        memory = getattr(owner.viewing.derive, "own_value", None) if owner is not root else root
        dst, src = _derived(memory, to_x, owner), _derived(memory, to_value, owner)
        sources = bind(overlap_sources_p, memory, dst, src, *operands, index=template)
        gathered = memory.reshape(-1)[sources]
        flags = path + [_taken(link) for link in below if _is_conditional(link)]
        written = gathered if not flags else np.where(_all(flags), gathered, written)
    return written


def _is_conditional(view) -> bool:
    return getattr(view.viewing.derive, "own_value", None) is not None


def _taken(view):
    """The bool Tracer saying where the conditional view `view` is its base."""
    return view.viewing.derive.taken()


def _all(flags):
    flag = flags[0]
    for other in flags[1:]:
        flag = np.logical_and(flag, other)
    return flag


def _chain(view, root):
    """The Tracers from `view` up to `root`, root excluded, each a view of the next;
    None where a link cannot be followed (which memory it shares is not known)."""
    chain = []
    while view is not root:
        if view.viewing is None or view.viewing.derive is None:
            return None
        chain.append(view)
        view = view.viewing.base
    return chain


def _owners(root, shared: list):
    """`(owner, flags)` for each array whose memory the views through the `shared`
    chain (from the common view down to the root) may lie in: the root, where every
    conditional view on the chain is its base, and each conditional view's own array,
    where it is not and those below it are."""
    conditional = [v for v in shared if _is_conditional(v)]
    for k, owner in enumerate(conditional + [root]):
        taken = [_taken(v) for v in conditional[:k]]
        if owner is not root:
            taken.append(np.logical_not(_taken(owner)))
        yield owner, taken


def _derived(memory, chain: list, owner):
    """The last Tracer of `chain` (the view itself) derived anew from `memory` (the root,
    or the own array of the conditional view `owner`) by its NumPy views: a written
    view holds the value written, which is no view when the graph runs; a conditional
    view below `owner` is taken to be its base, as the flags have it."""
    at = next((k for k, view in enumerate(chain) if view is owner), len(chain))
    links = chain[:at]
    value = memory
    for view in reversed(links):
        if not _is_conditional(view):
            value = view.viewing.derive(value)
    return value


def _unfollowed_overlap(x, value) -> TracingError:
    return TracingError(
        f"{views.name_of(value)}, written into {views.name_of(x)}"
        f"{location_note(user_source())}, shares its memory in a way that depends on the "
        f"path through a staged `if` or loop before it, which the graph cannot follow; "
        f"NumPy reads such a value while writing it, element by element; write a copy "
        f"of it (`.copy()`)")
