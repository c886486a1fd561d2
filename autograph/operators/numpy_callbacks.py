"""NumPy functions that call the user's Python function: `np.apply_along_axis`, `np.vectorize`
(and `np.fromiter`, which runs the user's generator).

NumPy calls the function on each 1-d slice (or each element) of the array, so
converted code does the same while tracing: the function, converted (its `if`
on a traced value is staged), is called on each traced slice or element, and
the results are gathered as NumPy gathers them, in a buffer of the *first*
result's dtype (later ones cast into it, as NumPy's assignment does). The
graph holds one call per slice or element: this is for arrays of known,
modest size (a warning-free unrolling, as `for v in x` of a known length).

    >>> import numpy as np
    >>> import autograph as ag
    >>> @ag.convert
    ... def ranges(m):
    ...     return np.apply_along_axis(lambda r: r.max() - r.min(), 1, m)
    >>> ranges(np.array([[1.0, 5.0], [2.0, -1.0]]))
    array([4., 3.])
"""
from __future__ import annotations

import itertools

import numpy as np

from autograph_runtime import Tracer, TracingError, dispatch
from autograph_runtime.source import location_note, user_source

from .array_likes import as_array, holds_traced
from .lists import TracedList

dispatch.staged_elsewhere.update({np.apply_along_axis: "autograph.operators.numpy_callbacks",
                                  np.vectorize: "autograph.operators.numpy_callbacks",
                                  np.fromiter: "autograph.operators.numpy_callbacks",
                                  np.ndenumerate: "autograph.operators.numpy_callbacks"})


def _gathered(results, shape):
    """`results` (one per index of `shape`, in C order) in one array of the first's dtype,
    each result's own shape after `shape`."""
    first = np.asarray(results[0]) if not isinstance(results[0], Tracer) else results[0]
    cast = [r if getattr(r, "dtype", None) == first.dtype else np.asarray(r).astype(first.dtype)
            if not isinstance(r, Tracer) else r.astype(first.dtype) for r in results]
    stacked = np.stack(cast)
    return np.reshape(stacked, (*shape, *np.shape(first)))


def _known(shape, what: str):
    if None in shape:
        raise TracingError(f"{what} of an array of unknown shape {shape}: NumPy calls the "
                           f"function once per item, a count known only when the graph "
                           f"runs{location_note(user_source())}; write a loop instead")


def apply_along_axis(convert, func1d, axis, arr, *args, **kwargs):
    """`np.apply_along_axis(func1d, axis, arr, *args, **kwargs)` on a traced `arr`."""
    axis = axis % arr.ndim
    moved = np.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    _known(outer, "np.apply_along_axis")
    if not outer or 0 in outer:
        raise TracingError(f"np.apply_along_axis of an array with no slice along axis "
                           f"{axis}{location_note(user_source())}")
    results = [convert(func1d, (moved[index], *args), kwargs)
               for index in itertools.product(*map(range, outer))]
    out = _gathered(results, outer)   # (outer..., result...)
    rank = np.ndim(results[0])   # NumPy puts the result's own axes where `axis` was
    return np.moveaxis(out, list(range(len(outer), len(outer) + rank)),
                       list(range(axis, axis + rank))) if rank else out


def vectorize_call(convert, vectorized, args, kwargs):
    """`np.vectorize(pyfunc)(*args)` with traced arguments: `pyfunc` converted, called on
    each element of the broadcast arguments; the result's dtype is `otypes[0]`, else the
    first result's, as NumPy's."""
    if vectorized.signature is not None or kwargs or vectorized.excluded:
        return NotImplemented
    arrays = np.broadcast_arrays(*args)
    shape = arrays[0].shape
    _known(shape, "np.vectorize")
    if 0 in shape:
        return NotImplemented
    results = [convert(vectorized.pyfunc, tuple(a[index] for a in arrays), {})
               for index in itertools.product(*map(range, shape))]
    if any(isinstance(r, tuple) for r in results):
        return NotImplemented   # several outputs: left to NumPy (a clear error)
    if vectorized.otypes:
        results = [np.asarray(r).astype(vectorized.otypes[0]) if not isinstance(r, Tracer)
                   else r.astype(vectorized.otypes[0]) for r in results]
    return _gathered(results, shape) if shape else results[0]


def fromiter(iterable, dtype, count=-1, *, like=None):
    """`np.fromiter(iterable, dtype, count)`: the items (traced numbers among them) in one
    array of `dtype`, as NumPy fills it; NumPy's own call where no item is traced."""
    if isinstance(iterable, TracedList) and count < 0:   # filtered: its length is traced
        return iterable.eager_array("np.fromiter() of", dtype).astype(dtype)
    items = list(itertools.islice(iterable, count) if count >= 0 else iterable)
    if count >= 0 and len(items) < count:
        raise ValueError(f"iterator too short: Expected {count} but iterator had only "
                         f"{len(items)} items.")
    if not holds_traced(items):
        return np.fromiter(items, dtype, count)
    return as_array(items).astype(dtype)


def ndenumerate(a):
    """`np.ndenumerate(a)` of a traced `a` of known shape: each index (a tuple of Python
    ints, in C order) with `a`'s item there, as NumPy's iterator gives them."""
    return ((index, a[index]) for index in np.ndindex(*a.shape))
