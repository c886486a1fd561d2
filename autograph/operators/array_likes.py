"""Python lists of traced values where NumPy wants an array.

    L = [s]                 # s traced
    L.append(x[0])
    total = np.sum(L)       # NumPy makes an array of the list first

NumPy's dispatch (`__array_function__`) looks at a list argument, not at the
values in it, so `np.sum(L)` would turn the list into an array with
`np.asarray`, which a traced value cannot do. `converted_call` then calls the
function again with each such list (nested lists too) built into a traced array
as `np.array` builds it: the values stacked, Python numbers as NumPy's array
creation types them (`1` as int64, not weakly).

`np.array`, `np.asarray`, `np.asanyarray`, `np.ascontiguousarray` and
`np.asfortranarray`, which NumPy does not dispatch at all, build such a list the
same way, and take a traced array as it is (`np.array` copies it, so that a
write to one leaves the other; the last two may copy it, `as_layout`).

`np.r_[...]` and `np.c_[...]` are objects whose `__getitem__` makes arrays of
their items with `np.array`: the converter rewrites such a read into
`index_trick(np.r_, key)`, which follows their algorithm over traced items
(`runtime.ops.building.index_concatenate`).
"""
from __future__ import annotations

import operator

import numpy as np

from autograph_runtime import Tracer
from autograph_runtime.dispatch import unsupported
from autograph_runtime.abstract import AbstractValue
from autograph_runtime.ops.building import index_concatenate
from autograph_runtime.ops.more_functions import NOT_DISPATCHED
from autograph_runtime.ops.python_numbers import convert_weak
from autograph_runtime.ops.shape_ops import as_layout
from autograph_runtime.tracer_value import zero_d_array


def holds_traced(value) -> bool:
    """True for a list or tuple with a traced value in it (at any depth)."""
    return type(value) in (list, tuple) and any(
        isinstance(x, Tracer) or holds_traced(x) for x in value)


def as_array(sequence):
    """The list or tuple `sequence` of traced values, numbers and arrays as one traced
    array, as `np.array(sequence)` would build it."""
    items = [as_array(x) if type(x) in (list, tuple) else x for x in sequence]
    return np.stack([_strong(x) if isinstance(x, Tracer) else np.asarray(x) for x in items])


def _strong(x):
    """A traced Python number as the NumPy scalar array creation makes of it."""
    return convert_weak(x, AbstractValue((), x.aval.dtype)) if x.aval.weak else x


_JOINERS = {np.concatenate, np.stack, np.vstack, np.hstack, np.dstack, np.column_stack}
"""NumPy functions taking a sequence of arrays: each of its items is made an array."""


def with_arrays(f, args: tuple, kwargs: dict):
    """`args` and `kwargs` of the NumPy function `f` with each list or tuple holding traced
    values as an array (each item of the sequence a joiner such as `np.concatenate`
    takes: `[np.zeros(3), [t, u]]` is two arrays, not one); None where there is none."""
    if not any(map(holds_traced, (*args, *kwargs.values()))):
        return None
    convert = lambda v: as_array(v) if holds_traced(v) else v  # noqa: E731
    if f in _JOINERS and args and type(args[0]) in (list, tuple):
        arrays = type(args[0])(map(convert, args[0]))
        return (arrays, *map(convert, args[1:])), {k: convert(v) for k, v in kwargs.items()}
    return tuple(map(convert, args)), {k: convert(v) for k, v in kwargs.items()}


_CONSTRUCTORS = {np.array: True, np.asarray: None, np.asanyarray: None,
                 np.ascontiguousarray: "C", np.asfortranarray: "F"}
"""-> the default `copy` of a traced array (True: copied; None: returned as it is where it
fits), or the layout the function gives it (`as_layout`)."""
_ARGUMENTS = {np.array: (("dtype",), {"dtype", "copy", "order", "ndmin"}),
              np.asarray: (("dtype", "order"), {"dtype", "order", "copy"}),
              np.asanyarray: (("dtype", "order"), {"dtype", "order", "copy"})}
"""-> the arguments NumPy's signature takes by position, and all those staged here."""


def construct(f, args: tuple, kwargs: dict):
    """`np.array(value, dtype, copy=..., order=..., ndmin=...)` and its kin on a traced
    array or a list holding traced values; NotImplemented for any other call (other
    arguments: NumPy's own)."""
    handler = next((h for k, h in NOT_DISPATCHED.items() if k is f), None)
    if handler and args and (isinstance(args[0], Tracer) or holds_traced(args[0])):
        return handler(as_array(args[0]) if holds_traced(args[0]) else args[0],
                       *args[1:], **kwargs)   # `np.require`, `np.asarray_chkfinite`
    default = next((c for k, c in _CONSTRUCTORS.items() if k is f), False)
    positional, staged = next((a for k, a in _ARGUMENTS.items() if k is f),
                              (("dtype",), {"dtype"}))
    if default is False or not args or len(args) > len(positional) + 1 or \
            set(kwargs) - staged or set(kwargs) & set(positional[:len(args) - 1]):
        return NotImplemented
    options = {**dict(zip(positional, args[1:])), **kwargs}
    value, dtype = args[0], options.get("dtype")
    copy, order = options.get("copy", default), options.get("order") or "K"
    if holds_traced(value):
        value, copy = as_array(value), None   # a new array already
    elif isinstance(value, Tracer):
        value = _strong(value)
    else:
        return NotImplemented
    if isinstance(default, str):
        return as_layout(value if dtype is None else value.astype(dtype), default)
    if dtype is not None and np.dtype(dtype) != value.dtype:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        value, copy = value.astype(dtype, order=order), None
    if copy:
        value = np.copy(value, order=order)
    elif order in ("C", "F"):
        if copy is False:   # a copy where the array is not laid out so: known when it runs
            raise unsupported(f"numpy.array(..., copy=False, order={order!r})")
        value = as_layout(value, order)
    ndmin = operator.index(options.get("ndmin", 0))
    if ndmin > value.ndim:
        return np.expand_dims(value, tuple(range(ndmin - value.ndim)))   # a view, as NumPy's
    return zero_d_array(value, args[:1])   # `np.asarray(x.argmax())`: a 0-d array, eagerly


_INDEX_TRICKS = (type(np.r_), type(np.c_))


def index_trick(obj, key):
    """`obj[key]` for `np.r_[...]`/`np.c_[...]` in converted code: NumPy's own unless an
    item is traced (or a list holding one), then `index_concatenate`."""
    items = key if isinstance(key, tuple) else (key,)
    if type(obj) in _INDEX_TRICKS and any(isinstance(x, Tracer) or holds_traced(x)
                                          for x in items):
        items = tuple(as_array(x) if holds_traced(x) else x for x in items)
        return index_concatenate(obj, items)
    return obj[key]

