"""`x.flat` of a traced x: `FlatIter`, NumPy's flat iterator over x's elements in C order.

- `x.flat[k]` (an int, a slice, an integer array, a 1-d boolean mask, `...`) is
  `np.ravel(x)[k]`, a copy as NumPy's;
- `x.flat[k] = v` writes x in place, as `x[...] = v` does (every name bound to x
  sees it), by NumPy's flat rules: v flattened and repeated (or cut) to the number
  of elements written (`x.flat[::2] = [1, 2]`), one value for an int index;
- `for v in x.flat` yields x's elements (a converted `for` stages the loop over
  `np.ravel(x)`, as over any traced array), `len(x.flat)` is x's size,
  `x.flat.copy()` is `np.ravel(x)` copied, and `x.flat = v` is `x.flat[...] = v`.

Anything else of NumPy's flatiter (`index`, `coords`, `np.asarray(x.flat)`) is a
clear error naming the line.
"""
from __future__ import annotations

import operator

import numpy as np

from ..errors import TracingError
from ..source import location_note, user_source
from ..tracer import Tracer, read_if_variable
from ..tracer_value import tracer_method, write_in_place
from .building import arange_along
from .indexing import take
from .updates import index_update

_VALID = ("only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays "
          "are valid indices")


class FlatIter:
    """`x.flat` of the traced `x` (its `base`)."""

    __slots__ = ("base",)

    def __init__(self, base):
        self.base = base

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return iter(np.ravel(self.base))

    def copy(self):
        return np.copy(np.ravel(self.base))

    def __getitem__(self, index):
        index = _flat_index(index)
        item = np.ravel(self.base)[index]
        return item if _is_int(index) else np.copy(item)

    def __setitem__(self, index, value):
        write_in_place(self.base, flat_update(self.base, index, value), "flat[...] = ...")

    def __array__(self, dtype=None, copy=None):
        raise _refused("a NumPy array (np.asarray(x.flat))")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(f"'FlatIter' object has no attribute {name!r}")
        raise _refused(f"flatiter.{name}")


def _refused(what: str) -> TracingError:
    return TracingError(f"{what} is not supported on the flat iterator of a traced array"
                        f"{location_note(user_source())}; `x.flat[k]`, `x.flat[k] = v`, "
                        f"iterating and len() are; `np.ravel(x)` is x's elements as an array")


def _is_int(index) -> bool:
    if isinstance(index, (Tracer, np.ndarray)):
        return index.ndim == 0 and np.dtype(index.dtype).kind in "iu"
    return isinstance(index, (int, np.integer)) and not isinstance(index, (bool, np.bool_))


def _flat_index(index):
    """`index` as an index of `np.ravel(x)`, or NumPy's `IndexError` for a flat iterator."""
    if isinstance(index, tuple):
        if len(index) > 1:
            raise IndexError(f"too many indices for flat iterator: flat iterator is "
                             f"1-dimensional, but {len(index)} were indexed")
        index = index[0] if index else Ellipsis
    index = read_if_variable(index)
    if index is Ellipsis:
        return slice(None)
    if index is None or isinstance(index, (bool, np.bool_, float, np.floating)):
        raise IndexError(_VALID)
    if isinstance(index, (int, np.integer)):
        return operator.index(index)
    if isinstance(index, (Tracer, np.ndarray)) and index.ndim == 0 and \
            np.dtype(index.dtype).kind not in "iu":
        raise IndexError(_VALID)
    return index


def flat_update(x, index, value):
    """x with `x.flat[index] = value` done (a new traced array)."""
    if isinstance(index, tuple) and not index:
        raise IndexError("Assigning to a flat iterator with a 0-D index is not supported")
    index = _flat_index(index)
    value = read_if_variable(value)
    if isinstance(value, FlatIter):
        value = np.ravel(value.base)
    flat = np.ravel(x)
    if _is_int(index):
        if np.ndim(value) != 0:
            raise ValueError("Error setting single item of array.")
        updated = index_update(flat, index, value)
    else:
        values = _cycled(value, flat[index])
        if values is None:   # no values: NumPy writes nothing
            return x
        updated = index_update(flat, index, values)
    shape = x.aval.shape
    if shape.count(None) > 1:
        raise TracingError(f"x.flat[...] = v on an array of shape {x.aval} (two or more "
                           f"dimensions unknown while tracing){location_note(user_source())}; "
                           f"write np.ravel(x) and reshape it instead")
    return np.reshape(updated, tuple(-1 if d is None else d for d in shape))


def _cycled(value, selected):
    """`value` flattened and repeated (or cut) to `selected`'s length, as NumPy's flat
    writes it; None where value has no elements."""
    if np.ndim(value) == 0:
        return value
    value = np.ravel(value if isinstance(value, Tracer) else np.asarray(value))
    count = value.shape[0]
    if count is None:
        raise TracingError(f"x.flat[...] = v with v of a length unknown while tracing"
                           f"{location_note(user_source())}: NumPy repeats v to the length "
                           f"written; give v a known length")
    if count == 0:
        return None
    if selected.shape[0] == count:
        return value
    return take(value, arange_along(selected, 0) % count)   # np.take would not dispatch


tracer_method("flat")(property(FlatIter, lambda self, value: FlatIter(self).__setitem__(
    Ellipsis, value)))
