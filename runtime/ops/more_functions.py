"""More of the NumPy real code calls: flips, splits, broadcast_arrays, nan_to_num,
asarray_chkfinite, resize, matrix_transpose, unstack and sliding_window_view.

Each is a composition of existing primitives, as NumPy writes it, so gradients,
CuPy kernels and serialization come free. Views stay views: `np.flipud`,
`np.fliplr` (negative-step slices), `np.matrix_transpose` and the parts of
`np.unstack` (basic indexes) and of `np.hsplit`/`np.vsplit`/`np.dsplit` (the
parts of `np.split`, `joining.follow_parts`) are followed by writes in place;
`np.broadcast_arrays` gives views whose writes are refused (NumPy writes the
overlapping memory of a broadcast); `sliding_window_view` gives NumPy's read-only
view, gathered, which follows writes to its base. `np.nan_to_num(x, copy=False)` writes x
(`write_in_place`). `np.asarray_chkfinite` (its check staged: an `assert` that
raises NumPy's `ValueError` when the graph runs) and `np.require` are not
dispatched by NumPy: converted code calls them through `NOT_DISPATCHED`. The selections (`select`,
`piecewise`, `compress`, `extract`, `trim_zeros`) are in `selections.py`.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as b:
...     x = b.new_input(AbstractValue((None, 3), np.float64), "x")
...     y = np.fliplr(x)
>>> print(b.build([y]))
graph f(x:f64[?,3]) {
  t0:f64[?,3] = getitem[index=(slice(None, None, None), slice(None, None, -1))] x
  return t0
}
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import views
from ..dispatch import implements, unsupported
from ..errors import TracingError
from ..tracer import Tracer
from ..tracer_value import write_in_place
from .building import _broadcast_all, array, shape_of, writable
from .diagonals import _read_only as read_only
from .effects import assert_
from .introspection import dynamic_shape
from .joining import _split
from .shape_ops import as_layout, fmt_shape, ndim
from .sizes import arange


# -- flipud, fliplr (views) ----------------------------------------------------------
@implements(np.flipud)
def _flipud(m):
    m = array(m)
    if ndim(m) < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


@implements(np.fliplr)
def _fliplr(m):
    m = array(m)
    if ndim(m) < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


# -- hsplit, vsplit, dsplit (views, as np.split's parts) -------------------------------
@implements(np.hsplit)
def _hsplit(ary, indices_or_sections):
    ary = array(ary)
    if ndim(ary) == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split(ary, indices_or_sections, 1 if ndim(ary) > 1 else 0)


def _split_along(name: str, axis: int):
    """`np.vsplit` (axis 0) and `np.dsplit` (axis 2): of arrays of more than `axis` dims."""
    def split(ary, indices_or_sections):
        ary = array(ary)
        if ndim(ary) <= max(axis, 1):
            raise ValueError(f"{name} only works on arrays of {max(axis, 1) + 1} or more "
                             f"dimensions")
        return _split(ary, indices_or_sections, axis)
    return split


implements(np.vsplit)(_split_along("vsplit", 0))
implements(np.dsplit)(_split_along("dsplit", 2))


# -- broadcast_arrays (views whose writes are refused) -----------------------------------
@implements(np.broadcast_arrays)
def _broadcast_arrays(*args, subok=False):
    """NumPy's arrays themselves where all shapes are equal (known), else broadcast views
    (`broadcast_to`; a `where` on a mask of the shape where a dim is unknown, linked as a
    view with no rule), whose writes are refused: NumPy writes the broadcast's memory."""
    arrays = [array(a) for a in args]
    shapes = [shape_of(a) for a in arrays]
    if not any(None in s for s in shapes) and len(set(shapes)) <= 1:
        return tuple(arrays)
    out = _broadcast_all(arrays)
    for result, a in zip(out, arrays):
        if isinstance(a, Tracer) and result.viewing is None:
            views.link(result, a, None)
    return tuple(out)


# -- nan_to_num, asarray_chkfinite -----------------------------------------------------
@implements(np.nan_to_num)
def _nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = array(x)
    kind = np.dtype(x.dtype).kind
    if kind == "c":
        result = _finite(np.real(x), nan, posinf, neginf) \
            + 1j * _finite(np.imag(x), nan, posinf, neginf)
        result = result.astype(x.dtype)
    elif kind == "f":
        result = _finite(x, nan, posinf, neginf)
    else:
        result = x
    if copy:
        return np.copy(result) if result is x else result
    x = writable(x, "nan_to_num(copy=False)")
    if result is not x:
        write_in_place(x, result, "nan_to_num")
    return x


def _finite(x, nan, posinf, neginf):
    """A real x with NaN, +inf and -inf replaced (NumPy's defaults: 0 and x's extremes)."""
    info = np.finfo(x.dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    x = np.where(np.isnan(x), np.asarray(nan).astype(x.dtype), x)
    x = np.where(x == np.inf, np.asarray(posinf).astype(x.dtype), x)
    return np.where(x == -np.inf, np.asarray(neginf).astype(x.dtype), x)


def asarray_chkfinite(a, dtype=None, order=None):
    """`np.asarray`, and a staged check: NumPy's `ValueError` when the graph runs on infs
    or NaNs."""
    a = _as_array(a, dtype, order)
    if np.dtype(a.dtype).kind in "fc":
        assert_(np.all(np.isfinite(a)), ValueError("array must not contain infs or NaNs"))
    return a


def _as_array(a, dtype, order):
    """`np.asarray(a, dtype, order)` of a traced a: a itself where it fits."""
    a = array(a)
    if dtype is not None and np.dtype(dtype) != a.dtype:
        a = a.astype(dtype)
    return as_layout(a, order) if order in ("C", "F") and ndim(a) else a


_FLAGS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
          "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O",
          "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """`np.require`: `np.asarray` in the layout asked (`as_layout`), copied where it must
    own its memory ("O": a traced view) or be writable (a read-only view)."""
    if like is not None:
        raise unsupported("numpy.require(..., like=...)")
    if not requirements:
        return _as_array(a, dtype, None)
    wanted = {_FLAGS[r.upper()] for r in requirements}  # NumPy's KeyError for a bad flag
    wanted.discard("E")
    if wanted >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in wanted else "F" if "F" in wanted else "A"
    arr = _as_array(a, dtype, order)
    owned = not isinstance(arr, Tracer) or arr.viewing is None
    if ("O" in wanted and not owned) or ("W" in wanted and _read_only(arr)):
        return np.copy(arr, order="K" if order == "A" else order)
    return arr


def _read_only(x) -> bool:
    while isinstance(x, Tracer) and x.viewing is not None:
        if x.viewing.scatter is read_only:
            return True
        x = x.viewing.base
    return False


NOT_DISPATCHED = {np.asarray_chkfinite: asarray_chkfinite, np.require: require}
"""NumPy functions NumPy does not dispatch (`__array_function__`): converted code calls
these on a traced first argument (`autograph.operators.array_likes.construct`)."""


# -- resize, matrix_transpose, unstack -------------------------------------------------
@implements(np.resize)
def _resize(a, new_shape):
    """a's elements repeated (flat, in order) to fill `new_shape`; zeros where a is empty."""
    if isinstance(new_shape, Tracer):
        raise TracingError("np.resize to a traced shape: pass the new shape as constants")
    shape = (operator.index(new_shape),) if np.ndim(new_shape) == 0 else \
        tuple(operator.index(d) for d in new_shape)
    flat = np.ravel(array(a))
    if any(d < 0 for d in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = math.prod(shape)
    count = shape_of(flat)[0]
    if count == 0 or size == 0:
        return np.zeros_like(flat, shape=shape)
    if count is None:   # a zero after the elements: what an empty a gives
        flat = np.concatenate([flat, np.zeros(1, flat.dtype)])
        count = np.maximum(np.sum(np.ones_like(flat, dtype=np.intp)) - 1, 1)
    return np.reshape(flat[np.arange(size) % count], shape)


@implements(np.matrix_transpose)
def _matrix_transpose(x, /):
    x = array(x)
    if ndim(x) < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return np.swapaxes(x, -1, -2)


def _unstack(x, /, *, axis=0):
    x = array(x)
    if ndim(x) == 0:
        raise ValueError("Input array must be at least 1-d.")
    moved = np.moveaxis(x, axis, 0)
    n = shape_of(moved)[0]
    if n is None:
        raise TracingError(
            f"np.unstack along dimension {axis} of an array of shape {fmt_shape(shape_of(x))}, "
            "which is unknown while tracing: the number of results would be unknown; give "
            "that dimension a known size")
    return tuple(moved[i] for i in range(n))


if hasattr(np, "unstack"):   # NumPy 2.1
    implements(np.unstack)(_unstack)



# -- sliding_window_view (a read-only view, gathered, that follows its base) -----------------
@implements(np.lib.stride_tricks.sliding_window_view)
def _sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """NumPy's windows of x: per windowed axis, `np.take` of each start plus each offset,
    the window's axis moved last. Like NumPy's, the result is a read-only view: it
    follows writes to x, and writing it raises NumPy's ValueError. Its windows overlap in
    memory, so `writeable=True` is refused."""
    name = "numpy.lib.stride_tricks.sliding_window_view"
    if writeable:
        raise unsupported(f"{name}(..., writeable=True)", "; its windows share memory, so "
                          "a write to one reaches the others: copy the windows and write those")
    x = array(x)
    windows = tuple(window_shape) if np.iterable(window_shape) else (window_shape,)
    windows = tuple(operator.index(w) for w in windows)
    if any(w < 0 for w in windows):
        raise ValueError("`window_shape` cannot contain negative values")
    nd = ndim(x)
    if axis is None:
        axes = tuple(range(nd))
        if len(windows) != len(axes):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all "
                             f"dimensions of `x`; got {len(windows)} window_shape elements "
                             f"and `x.ndim` is {nd}.")
    else:
        axes = np.lib.array_utils.normalize_axis_tuple(axis, nd, allow_duplicate=True)
        if len(windows) != len(axes):
            raise ValueError(f"Must provide matching length window_shape and axis; got "
                             f"{len(windows)} window_shape elements and {len(axes)} axes "
                             f"elements.")
    lengths = list(dynamic_shape(x))   # an unknown length is checked when the graph runs
    for ax, w in zip(axes, windows):
        assert_(lengths[ax] >= w, ValueError("window shape cannot be larger than input "
                                             "array shape"))
        lengths[ax] = lengths[ax] - (w - 1)

    def gathered(base):
        lengths = list(dynamic_shape(base))
        for ax, w in zip(axes, windows):
            count = lengths[ax] - w + 1   # a traced int where the length is unknown
            first = arange(count) if isinstance(count, Tracer) else np.arange(count)
            starts = first[:, None] + np.arange(w)
            lengths[ax] = lengths[ax] - (w - 1)
            base = np.moveaxis(np.take(base, starts, axis=ax), ax + 1, -1)
        return base
    result = gathered(x)
    if isinstance(x, Tracer):
        views.link(result, x, (gathered, read_only, False))
    return result
