"""Rearranging: flip, rot90, roll, repeat, kron, pad, insert, delete, take/put_along_axis.

Each is a gather along an axis, `x[..., idx]` (`getitem`, whose gradient is a
`scatter_add`), or a join (`concatenate`), so gradients come free. Where the
axis's length is known the index is a NumPy constant that NumPy itself
computes (`np.pad(np.arange(n), ..., mode)`, `np.delete(np.arange(n), obj)`:
NumPy's own errors for bad arguments); where it is unknown it is computed in
the graph from `arange_along` (a traced repeat count needs the `repeat`
primitive, whose result length is known only at run time; `np.insert` at
several positions needs the length known). `flip` and `rot90` are views
(negative-step slices and a transpose), as in NumPy.

`np.put_along_axis`, which NumPy does in place, rebinds the traced array
through `tracer_value.write_in_place`, as `x[idx] = v` does.
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from .. import primitives
from ..backend import CUPY_OVERRIDES
from ..abstract import normalize_axes, normalize_axis
from ..dispatch import implements, unsupported
from ..errors import TracingError
from ..tracer import Tracer, bind
from ..tracer_value import tracer_method, write_in_place
from ._rules import aval
from .building import arange_along, array, shape_of, writable
from .effects import assert_
from .indexing import getitem
from .introspection import dynamic_shape
from .shape_ops import fmt_shape, ndim
from .updates import index_update


def take(x, idx, axis):
    """`x[..., idx]` along `axis` (a gather; a view for a slice); x may be a constant."""
    index = (slice(None),) * axis + (idx,)
    return getitem(x, index) if isinstance(idx, Tracer) else x[index]


def _known_length(a, axis, name):
    n = shape_of(a)[axis]
    if n is None:
        raise TracingError(
            f"np.{name} along dimension {axis} of an array of shape {fmt_shape(shape_of(a))}, "
            "which is unknown while tracing: give that dimension a known size")
    return n


def _flat(a, axis):
    a = array(a)
    if axis is None:
        return np.ravel(a), 0
    return a, normalize_axis(axis, ndim(a))


# -- flip, rot90 (views) ---------------------------------------------------------
@implements(np.flip)
def _flip(m, axis=None):
    m = array(m)
    axes = range(ndim(m)) if axis is None else normalize_axes(
        axis if isinstance(axis, (tuple, list)) else (axis,), ndim(m))
    index = [slice(None)] * ndim(m)
    for a in axes:
        index[a] = slice(None, None, -1)
    return m[tuple(index)]


@implements(np.rot90)
def _rot90(m, k=1, axes=(0, 1)):
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = array(m)
    nd = ndim(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == nd:
        raise ValueError("Axes must be different.")
    if not all(-nd <= a < nd for a in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={nd}.")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return _flip(_flip(m, axes[0]), axes[1])
    order = list(range(nd))
    order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
    if k == 1:
        return np.transpose(_flip(m, axes[1]), order)
    return _flip(np.transpose(m, order), axes[1])


# -- roll --------------------------------------------------------------------------
@implements(np.roll)
def _roll(a, shift, axis=None):
    a = array(a)
    if axis is None:
        return _roll_flat(a, shift)
    shifts = tuple(shift) if isinstance(shift, (tuple, list)) else (shift,)
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.")
    n = max(len(shifts), len(axes))
    total: dict = {}
    for s, ax in zip(shifts * (n // len(shifts)), axes * (n // len(axes))):
        ax = normalize_axis(ax, ndim(a))
        total[ax] = total[ax] + s if ax in total else s
    for ax, s in total.items():
        if isinstance(s, Tracer) and s.dtype.kind not in "iub":
            raise TypeError(f"np.roll shift of dtype {s.dtype}: it must be an integer")
        length = dynamic_shape(a)[ax]
        if not isinstance(length, int) or length:
            a = take(a, np.mod(arange_along(a, ax) - s, length), ax)
    return a


def _roll_flat(a, shift):
    """`np.roll(a, shift)`: a gather at the multi-index of each rolled flat position (no
    reshape back, so any dims may be unknown)."""
    if ndim(a) == 0:
        return np.copy(a)
    dims = dynamic_shape(a)
    flat, stride = 0, 1
    for d in reversed(range(ndim(a))):
        position = np.reshape(arange_along(a, d), (-1,) + (1,) * (ndim(a) - d - 1))
        flat, stride = flat + position * stride, stride * dims[d]
    if isinstance(stride, int) and stride == 0:
        return np.copy(a)
    rolled = np.mod(flat - shift, stride)
    index = []
    for d in reversed(range(ndim(a))):
        index.insert(0, np.mod(rolled, dims[d]))
        rolled = rolled // dims[d]
    return a[tuple(index)]


# -- repeat ------------------------------------------------------------------------
def _repeat_rule(a, repeats):
    if repeats.aval.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from {repeats.aval.dtype!r} to "
                        "dtype('int64') according to the rule 'safe'")
    if repeats.aval.ndim > 1:
        raise ValueError("repeats must be a scalar or a 1-d array")
    return aval((None,), a.aval.dtype)


repeat_p = primitives.define("repeat", _repeat_rule, lambda xp: xp.repeat)
# CuPy's repeat takes the counts as an int or a list, not as a device array
CUPY_OVERRIDES[repeat_p] = lambda xp: lambda a, repeats: xp.repeat(
    a, repeats.tolist() if repeats.ndim else int(repeats))


@implements(np.repeat)
def _repeat(a, repeats, axis=None):
    a, axis = _flat(a, axis)
    iota = arange_along(a, axis)
    if isinstance(repeats, Tracer):
        idx = bind(repeat_p, iota, repeats)
    elif np.ndim(repeats) == 0 and not isinstance(iota, np.ndarray):
        r = operator.index(repeats)
        if r < 0:
            raise ValueError("negative dimensions are not allowed")
        idx = np.ravel(iota[:, None] + np.zeros((1, r), iota.dtype))
    elif isinstance(iota, np.ndarray):
        idx = np.repeat(iota, repeats)  # NumPy's errors for a bad count
    else:
        idx = bind(repeat_p, iota, np.asarray(repeats))
    return take(a, idx, axis)


@tracer_method("repeat")
def _repeat_method(self, repeats, axis=None):
    return _repeat(self, repeats, axis)


# -- kron ---------------------------------------------------------------------------
@implements(np.kron)
def _kron(a, b):
    """`a[i // p, j // q] * b[i % p, j % q]` for b of shape (p, q): two gathers at
    index vectors built per axis, so that any dimension may be unknown."""
    a, b = array(a), array(b)
    nd = max(ndim(a), ndim(b))
    if min(ndim(a), ndim(b)) == 0:
        return np.multiply(a, b)
    a = a[(None,) * (nd - ndim(a))] if ndim(a) < nd else a
    b = b[(None,) * (nd - ndim(b))] if ndim(b) < nd else b
    outer, inner = [], []
    for d, p in enumerate(dynamic_shape(b)):
        rows = _repeat(arange_along(a, d), p)          # i // p
        count = np.cumsum(np.ones_like(rows)) - 1 if isinstance(rows, Tracer) \
            else np.arange(rows.size)
        at = (1,) * d + (-1,) + (1,) * (nd - d - 1)
        outer.append(np.reshape(rows, at))
        inner.append(np.reshape(np.mod(count, p) if not isinstance(p, int) or p else count, at))
    return np.multiply(a[tuple(outer)], b[tuple(inner)])


# -- pad ---------------------------------------------------------------------------
def _pairs(width, nd, name="pad_width"):
    """NumPy's `((before, after),) * nd` from each form np.pad takes."""
    if isinstance(width, Tracer):
        raise TracingError(f"np.pad's {name} must be static, not a traced value")
    w = np.asarray(width)
    if w.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    w = np.full((nd, 2), w.item()) if w.size == 1 else np.broadcast_to(w, (nd, 2))
    if (w < 0).any():
        raise ValueError("index can't contain negative values")
    return [tuple(map(int, p)) for p in w]


def _value_pairs(values, nd):
    if isinstance(values, Tracer) or np.ndim(values) == 0:
        return [(values, values)] * nd
    v = np.asarray(values)
    return [tuple(p) for p in (np.full((nd, 2), v.item()) if v.size == 1 else
                               np.broadcast_to(v, (nd, 2)))]


def false_like(a, axis, size):
    """All-False of a's shape with dimension `axis` of length `size` (known or not)."""
    reduced = np.any(np.zeros_like(a, dtype=bool), axis=axis, keepdims=True)
    return reduced | np.zeros((1,) * axis + (size,) + (1,) * (ndim(a) - axis - 1), bool)


_INDEX_MAPS = {  # (padded positions q, length n) -> positions in [0, n), for unknown n
    "edge": lambda q, n: np.clip(q, 0, n - 1),
    "wrap": lambda q, n: np.mod(q, n),
    "reflect": lambda q, n: _fold(np.mod(q, np.maximum(2 * n - 2, 1)), 2 * n - 2, n),
    "symmetric": lambda q, n: _fold(np.mod(q, 2 * n), 2 * n - 1, n),
}


def _fold(r, top, n):
    return np.where(r >= n, top - r, r)


@implements(np.pad)
def _pad(array_, pad_width, mode="constant", **kwargs):  # noqa: C901
    a = array(array_)
    nd = ndim(a)
    widths = _pairs(pad_width, nd)
    if not isinstance(mode, str):
        raise unsupported("numpy.pad with a function as mode")
    allowed = {"constant": {"constant_values"}, "empty": set(), "edge": set(),
               "wrap": set(), "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}}
    if mode not in allowed:
        if mode in ("linear_ramp", "maximum", "mean", "median", "minimum"):
            raise unsupported(f"numpy.pad(..., mode={mode!r})")
        raise ValueError(f"mode '{mode}' is not supported")
    extra = set(kwargs) - allowed[mode]
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {extra}")
    if kwargs.get("reflect_type", "even") != "even":
        raise unsupported("numpy.pad(..., reflect_type='odd')")
    if mode in ("constant", "empty"):
        values = _value_pairs(kwargs.get("constant_values", 0), nd)
        for axis, ((before, after), (vb, va)) in enumerate(zip(widths, values)):
            if before or after:
                parts = [np.full_like(false_like(a, axis, w), v, dtype=a.dtype)
                         for w, v in ((before, vb), (after, va))]
                a = np.concatenate([parts[0], a, parts[1]], axis=axis)
        return a
    for axis, (before, after) in enumerate(widths):
        if not (before or after):
            continue
        n = shape_of(a)[axis]
        if n is not None:
            idx = np.pad(np.arange(n), (before, after), mode)  # NumPy's errors (empty axis)
        else:
            length = dynamic_shape(a)[axis]
            assert_(length > 0, ValueError(   # NumPy's error, raised when the graph runs
                f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'"))
            q = np.concatenate([np.arange(-before, 0), arange_along(a, axis),
                                length + np.arange(after)])
            idx = _INDEX_MAPS[mode](q, length)
        a = take(a, idx, axis)
    return a


# -- insert, delete, append --------------------------------------------------------
def _static(obj, name):
    if isinstance(obj, Tracer):
        raise TracingError(f"np.{name} with traced positions: the result's layout would be "
                           "known only when the graph runs; pass them as constants")
    return obj


@implements(np.delete)
def _delete(arr, obj, axis=None):
    a, axis = _flat(arr, axis)
    obj, iota = _static(obj, "delete"), arange_along(a, axis)
    if isinstance(iota, np.ndarray):
        return take(a, np.delete(iota, obj), axis)  # NumPy's errors
    obj = np.asarray(obj) if isinstance(obj, (list, tuple)) else obj
    keep = ~obj if getattr(obj, "dtype", None) == bool else np.ones_like(iota, dtype=bool)
    if getattr(obj, "dtype", None) != bool:
        keep[obj] = False
    return take(a, iota[keep], axis)


@implements(np.insert)
def _insert(arr, obj, values, axis=None):
    a, axis = _flat(arr, axis)
    n = shape_of(a)[axis]
    obj = _static(obj, "insert")
    if isinstance(obj, slice):
        indices = np.arange(*obj.indices(_known_length(a, axis, "insert")))
    else:
        indices = np.array(obj)
        indices = np.flatnonzero(indices) if indices.dtype == bool and indices.ndim == 1 \
            else indices
    if n is None and indices.size != 1:
        _known_length(a, axis, "insert with several positions")
    v = array(values)
    v = v.astype(a.dtype) if isinstance(v, Tracer) else np.array(values, dtype=a.dtype)
    v = v[(None,) * (ndim(a) - ndim(v))] if ndim(v) < ndim(a) else v
    if indices.size == 1 and indices.ndim == 0:
        v = np.moveaxis(v, 0, axis)
    count = shape_of(v)[axis] if indices.size == 1 else len(indices)
    if count is None:
        raise TracingError("np.insert of values whose length along the axis is unknown")
    if n is None:
        order = _insertion_order(a, axis, int(indices.item()), count)
    else:
        order = np.insert(np.arange(n), obj, n + np.arange(count))  # NumPy's errors
    mask = false_like(a, axis, count)
    joined = np.concatenate([a, np.where(mask, v, v)], axis=axis)
    return take(joined, order, axis)


def _insertion_order(a, axis, index, count):
    """Where `count` new entries go at `index` along an axis of unknown length n: old
    positions before it, the new ones (n, n+1, ...), the rest. An index outside [-n, n]
    is NumPy's IndexError when the graph runs (reading position index of 0..n)."""
    iota, n = arange_along(a, axis), dynamic_shape(a)[axis]
    start = np.concatenate([iota, np.reshape(n, (1,))])[index if index >= 0 else index - 1]
    return np.concatenate([iota[:start], n + np.arange(count), iota[start:]])


# -- take_along_axis, put_along_axis (in place) --------------------------------------
def _along_index(arr, indices, axis):
    if ndim(indices) != ndim(arr):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    if np.dtype(indices.dtype).kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    nd = ndim(arr)
    return tuple(indices if d == axis else
                 np.reshape(arange_along(arr, d), (1,) * d + (-1,) + (1,) * (nd - d - 1))
                 for d in range(nd))


def _along(arr, indices, axis):
    arr, indices = array(arr), array(indices)
    if axis is None:
        if ndim(indices) != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return np.ravel(arr), indices, 0
    return arr, indices, normalize_axis(axis, ndim(arr))


@implements(np.take_along_axis)
def _take_along_axis(arr, indices, axis=-1):
    arr, indices, axis = _along(arr, indices, axis)
    return arr[_along_index(arr, indices, axis)]


@implements(np.put_along_axis)
def _put_along_axis(arr, indices, values, axis):
    arr = writable(arr, "put_along_axis")
    if axis is None and None in shape_of(arr):  # a flat index into unknown dims: unravelled
        _, indices, _ = _along(arr, indices, axis)
        index = _unravel(indices, arr)
    else:
        target, indices, axis = _along(arr, indices, axis)
        arr, index = target, _along_index(target, indices, axis)
    write_in_place(arr, index_update(arr, index, array(values)), "put_along_axis")


def _unravel(flat, a):
    """The multi-index of a's flat positions `flat` (negative ones from the end; one out
    of bounds is out of bounds of the first dimension: NumPy's IndexError)."""
    if np.dtype(flat.dtype).kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    dims = dynamic_shape(a)
    size = functools.reduce(operator.mul, dims, 1)
    flat = np.where(flat < 0, flat + size, flat)
    index = []
    for d in reversed(range(1, ndim(a))):
        index.insert(0, np.mod(flat, dims[d]))
        flat = flat // dims[d]
    return (flat, *index)
