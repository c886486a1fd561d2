"""Item and slice writes as a functional update: `index_update`, like `x.at[index].set(v)`.

`index_update(x, index, v)` is a new array: x with `v` written at `index`, as
`x[index] = v` leaves x in NumPy. The index is split as `getitem` splits it
(runtime/ops/indexing.py): ints, slices (traced bounds too), None, Ellipsis,
integer arrays and boolean masks, the traced parts as operands. `v` is cast to
x's dtype as NumPy's setitem casts it (a Python value with NumPy's own error:
`OverflowError` for 300 into uint8, `ValueError` for NaN into an int), and must
broadcast to the selected shape (`ValueError` as NumPy words it). Repeated
integer indices: the last write wins, as in NumPy (CuPy's kernel makes sure).

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as b:
...     x = b.new_input(AbstractValue((3, 2), np.float64), "x")
...     v = b.new_input(AbstractValue((), np.float64), "v")
...     y = index_update(x, (slice(1, None), 0), v)
>>> print(b.build([y]))
graph f(x:f64[3,2], v:f64[]) {
  t0:f64[3,2] = index_update[index=(slice(1, None, None), 0)] x v
  return t0
}

`Tracer.__setitem__` writes through it: the traced value then holds the
update, so every name bound to it sees the change (`write_in_place`).
"""
from __future__ import annotations

import numpy as np

from .. import primitives, views
from ..backend import CUPY_OVERRIDES
from ..abstract import AbstractValue
from ..tracer import Tracer, bind, read_if_variable
from ..tracer_value import tracer_method, write_in_place
from .indexing import Dyn, _fill, _kind, _template, getitem_p, getitem_shape
from .overlaps import value_as_written
from .shape_ops import fmt_shape


def check_fits(value_shape, selected) -> None:
    """NumPy's `ValueError` where a value of `value_shape` cannot be written into `selected`."""
    shape = tuple(value_shape)
    while len(shape) > len(selected) and shape[0] == 1:  # NumPy drops leading 1s
        shape = shape[1:]
    fits = len(shape) <= len(selected) and all(
        v is None or s is None or v in (1, s)
        for v, s in zip(reversed(shape), reversed(selected)))
    if not fits and not selected:   # one element: NumPy's words for `a[i, j] = [1, 2]`
        raise ValueError("setting an array element with a sequence.")
    if not fits:
        raise ValueError(f"could not broadcast input array from shape {fmt_shape(value_shape)} "
                         f"into shape {fmt_shape(selected)}")


def _abstract_eval(x, v, *dyn, index):
    types = [(a.aval.shape, _kind(a.aval)) for a in dyn]
    check_fits(v.aval.shape, getitem_shape(x.aval.shape, index, types))
    return AbstractValue(x.aval.shape, x.aval.dtype)


def _kernel(xp, index):
    def run(x, v, *values):
        out = xp.array(x, copy=True)
        out[_fill(index, values)] = v
        return out
    return run


index_update_p = primitives.define("index_update", _abstract_eval, _kernel)


def _last_write_kernel(xp, index):
    """CuPy leaves a repeated index's value undefined: this writes the last one, as NumPy."""
    if not any(isinstance(e, Dyn) for e in index):  # no index arrays: nothing repeats
        return _kernel(xp, index)

    def run(x, v, *values):
        out = xp.array(x, copy=True)
        ids = xp.arange(out.size).reshape(out.shape)[_fill(index, values)]
        v = xp.asarray(v)
        v = v.reshape(v.shape[max(v.ndim - ids.ndim, 0):])  # NumPy drops leading 1s
        backwards = ids.ravel()[::-1]
        _, last = xp.unique(backwards, return_index=True)
        out.ravel()[backwards[last]] = xp.broadcast_to(v, ids.shape).ravel()[::-1][last]
        return out
    return run


CUPY_OVERRIDES[index_update_p] = _last_write_kernel


def _element_cast_kernel(xp, dtype):
    def run(value):   # a Python number stays one; a 0-d array is read as NumPy's scalar
        scalar = value if isinstance(value, (bool, int, float, complex)) else \
            np.asarray(value.get() if hasattr(value, "get") else value)[()]
        out = np.zeros(1, dtype)
        out[0] = scalar   # NumPy's own element assignment, and its errors
        return xp.asarray(out.reshape(()))
    return run


element_cast_p = primitives.define(
    "element_cast", lambda x, dtype: AbstractValue((), dtype), _element_cast_kernel)
primitives.vjp_rules[element_cast_p] = lambda ct, out, x, dtype: (None,)  # into ints only


def _cast_value(x, value):
    """`value` as setitem writes it into x: NumPy's cast (and its errors) for a Python or
    NumPy value, `astype` for a traced array. A traced Python number or NumPy scalar
    written into an integer array is cast as NumPy assigns it when the graph runs
    (`element_cast`: `OverflowError` for 1000 into int8, `ValueError` for NaN), not
    wrapped as `astype` would."""
    if isinstance(value, Tracer):
        if value.dtype == x.dtype:
            return value
        if value.ndim == 0 and x.dtype.kind in "iu" and \
                (value.aval.weak or value.node.id not in value.builder.maybe_arrays):
            return bind(element_cast_p, value, dtype=np.dtype(x.dtype))
        return value.astype(x.dtype)
    cast = np.empty(np.shape(value), x.dtype)
    cast[...] = value
    return cast


def index_update(x, index, value):
    """x with `value` written at `index` (a new traced array)."""
    index = tuple(map(read_if_variable, index)) if isinstance(index, tuple) \
        else read_if_variable(index)
    template, operands = _template(index)
    value = value_as_written(x, template, operands, read_if_variable(value))
    return bind(index_update_p, x, _cast_value(x, value), *operands, index=template)


def _getitem_view(x, *operands, index):
    """`x[index]` with a basic index is a view: derived by getitem, scattered by index_update.

    A traced 0-d index that may be a 0-d array (an argument) may make a copy instead:
    not followed; a constant 0-d array makes one.

    It is contiguous (of a contiguous x) where ints are followed by at most one
    slice of step 1 and whole dimensions.
    """
    bare = [operands[e.k] for e in index if isinstance(e, Dyn)]  # 0-d int operands
    if any(isinstance(o, np.ndarray) for o in bare):
        return views.COPY  # a 0-d integer array is an advanced index: NumPy copies
    if any(isinstance(o, Tracer) and o.node.id in o.builder.maybe_arrays for o in bare):
        return None  # np.int64(1) (a view) or np.array(1) (a copy): the signature cannot tell
    derive = lambda base: bind(getitem_p, base, *operands, index=index)  # noqa: E731
    scatter = lambda base, value: bind(index_update_p, base, value, *operands,  # noqa: E731
                                       index=index)
    return derive, scatter, _contiguous(index)


def _contiguous(index) -> bool:
    entries = [e for e in index if e is not None]
    while entries and (entries[-1] is Ellipsis or entries[-1] == slice(None)):
        entries.pop()
    if entries and isinstance(entries[-1], slice):
        if entries[-1].step not in (None, 1):
            return False
        entries.pop()
    return all(isinstance(e, (int, Dyn)) for e in entries)


views.view_rules[getitem_p] = _getitem_view


@tracer_method("__setitem__")
def setitem(x, index, value):
    """`x[index] = value` on a traced x: x holds the update (see `write_in_place`)."""
    write_in_place(x, index_update(x, index, value), "setitem")
