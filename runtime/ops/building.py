"""Building arrays from others: stacks, atleast_nd, block, tile, meshgrid, append, copyto.

Handlers serve `np.atleast_1d/2d/3d` (views, `x[None]`), `np.hstack`,
`np.vstack`, `np.dstack`, `np.column_stack`, `np.append` and `np.block`
(each a `concatenate` of such views, as NumPy writes them), `np.tile` (one
`concatenate` per tiled axis: unknown dimensions are fine), `np.meshgrid`,
`np.empty_like` (zeros: NumPy leaves the values undefined) and `np.copyto`,
which NumPy does in place: the traced destination is rebound to a `where`
(`tracer_value.write_in_place`), after NumPy's own casting check. They are
compositions of existing primitives, so they have gradients, CuPy kernels
and serialization for free:

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as b:
...     x = b.new_input(AbstractValue((None,), np.float32), "x")
...     y = np.hstack([x, 1.0])
...     np.copyto(x, 1.5, where=x > 0)
>>> print(b.build([y, x]))
graph f(x:f32[?]) {
  const t0:f64[1], t1:f32[]
  t2:f64[?] = concatenate[axis=0] x t0
  t3:bool[?] = greater x 0
  t4:f32[?] = where t3 t1 x
  return t2, t4
}

`arange_along(x, axis)` is the helper the rearranging ops share: the indices
of one axis, a constant where its length is known, else computed in the graph.
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from ..abstract import AbstractValue, normalize_axis, python_example
from ..dispatch import implements, unsupported
from ..tracer import Tracer
from ..tracer_value import write_in_place
from .creation import _zeros_like
from .python_numbers import convert_weak
from .shape_ops import ndim
from .updates import check_fits


def array(x):
    """`x` as NumPy's `asanyarray` makes it: a traced value as it is (a traced Python
    number as the NumPy scalar it becomes), anything else a NumPy array."""
    if isinstance(x, Tracer):
        return convert_weak(x, AbstractValue((), x.aval.dtype)) if x.aval.weak else x
    return np.asarray(x)


def shape_of(x) -> tuple:
    """The static shape (None for unknown dims), without noting an unknown-dim read."""
    return x.aval.shape if isinstance(x, Tracer) else np.shape(x)


def arange_along(x, axis: int):
    """`np.arange(x.shape[axis])`: a constant where the length is known, else traced
    (the running count of a zero vector of that length: exact for any length)."""
    axis = normalize_axis(axis, ndim(x))
    n = shape_of(x)[axis]
    if n is not None:
        return np.arange(n)
    others = tuple(i for i in range(ndim(x)) if i != axis)
    zeros = np.sum(np.zeros_like(x, dtype=np.intp), axis=others)
    return np.cumsum(zeros + 1) - 1


# -- atleast_nd ----------------------------------------------------------------
_PROMOTE = {1: {0: (None,)},
            2: {0: (None, None), 1: (None, slice(None))},
            3: {0: (None, None, None), 1: (None, slice(None), None), 2: (..., None)}}


def atleast(x, nd: int):
    """x with at least nd dims, as `np.atleast_{nd}d` (a view for a traced x)."""
    x = array(x)
    index = _PROMOTE[nd].get(ndim(x))
    return x if index is None else x[index]


def _atleast(nd):
    def handler(*arys):
        out = tuple(atleast(a, nd) for a in arys)
        return out[0] if len(out) == 1 else out
    return handler


for _nd, _f in ((1, np.atleast_1d), (2, np.atleast_2d), (3, np.atleast_3d)):
    implements(_f)(_atleast(_nd))


# -- stacks, append ------------------------------------------------------------
def _sequence(tup, name):
    if not isinstance(tup, (list, tuple)):
        raise TypeError(f"arrays to {name} must be passed as a sequence type such as list "
                        "or tuple.")
    return tup


@implements(np.vstack)
def _vstack(tup, *, dtype=None, casting="same_kind"):
    arrays = [atleast(a, 2) for a in _sequence(tup, "stack")]
    return np.concatenate(arrays, axis=0, dtype=dtype, casting=casting)


@implements(np.hstack)
def _hstack(tup, *, dtype=None, casting="same_kind"):
    arrays = [atleast(a, 1) for a in _sequence(tup, "stack")]
    axis = 0 if arrays and ndim(arrays[0]) == 1 else 1
    return np.concatenate(arrays, axis=axis, dtype=dtype, casting=casting)


@implements(np.dstack)
def _dstack(tup):
    return np.concatenate([atleast(a, 3) for a in _sequence(tup, "stack")], axis=2)


@implements(np.column_stack)
def _column_stack(tup):
    def column(a):
        a = array(a)
        return a if ndim(a) >= 2 else a[None, None] if ndim(a) == 0 else a[:, None]
    return np.concatenate([column(a) for a in _sequence(tup, "stack")], axis=1)


@implements(np.append)
def _append(arr, values, axis=None):
    arr, values = array(arr), array(values)
    if axis is None:
        arr = arr if ndim(arr) == 1 else np.ravel(arr)
        values, axis = np.ravel(values), ndim(arr) - 1
    return np.concatenate((arr, values), axis=axis)


# -- block ---------------------------------------------------------------------
def _block_depth(arrays, index=()):
    """(list depth, largest ndim) of np.block's nested lists, with NumPy's errors."""
    if type(arrays) is tuple:
        raise TypeError(f"{_where(index)} is a tuple. Only lists can be used to arrange "
                        "blocks, and np.block does not allow implicit conversion from tuple "
                        "to list.")
    if type(arrays) is not list:
        return 0, ndim(array(arrays))
    if not arrays:
        raise ValueError(f"List at {_where(index)} cannot be empty")
    found = [_block_depth(a, index + (i,)) for i, a in enumerate(arrays)]
    depths = {d for d, _ in found}
    if len(depths) > 1:
        raise ValueError(f"List depths are mismatched. First element was at depth "
                         f"{found[0][0] + len(index) + 1}, but there is an element at depth "
                         f"{min(depths) + len(index) + 1} ({_where(index)})")
    return found[0][0] + 1, max(n for _, n in found)


def _where(index):
    return "arrays" + "".join(f"[{i}]" for i in index)


def _block(arrays, depth, nd):
    if type(arrays) is not list:
        a = array(arrays)
        return a[(None,) * (nd - ndim(a))] if ndim(a) < nd else a
    return np.concatenate([_block(a, depth - 1, nd) for a in arrays], axis=-depth)


@implements(np.block)
def _block_handler(arrays):
    depth, nd = _block_depth(arrays)
    if depth == 0:
        return np.copy(array(arrays))
    return _block(arrays, depth, max(depth, nd))


# -- tile, meshgrid, empty_like ---------------------------------------------
@implements(np.tile)
def _tile(A, reps):  # noqa: N803  (NumPy's name)
    reps = tuple(map(operator.index, reps if isinstance(reps, (tuple, list)) else (reps,)))
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    a = array(A)
    nd = max(len(reps), ndim(a))
    a = a[(None,) * (nd - ndim(a))] if ndim(a) < nd else a
    reps = (1,) * (nd - len(reps)) + reps
    if all(r == 1 for r in reps):
        return np.copy(a)
    for axis, r in enumerate(reps):
        if r == 0:
            a = a[(slice(None),) * axis + (slice(0, 0),)]
        elif r > 1:
            a = np.concatenate([a] * r, axis=axis)
    return a


@implements(np.meshgrid)
def _meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    nd = len(xi)
    out = [np.reshape(array(x), (1,) * i + (-1,) + (1,) * (nd - i - 1)) for i, x in enumerate(xi)]
    if indexing == "xy" and nd > 1:
        out[0] = np.reshape(out[0], (1, -1) + (1,) * (nd - 2))
        out[1] = np.reshape(out[1], (-1, 1) + (1,) * (nd - 2))
    if not sparse:
        out = _broadcast_all(out)
    return tuple(np.copy(x) if copy else x for x in out)


def _broadcast_all(arrays):
    """`np.broadcast_arrays`, copied: `broadcast_to` where the shape is known, else a
    `where` on an all-False mask of the broadcast shape (exact for every value)."""
    shapes = [shape_of(a) for a in arrays]
    if not any(None in s for s in shapes):
        shape = np.broadcast_shapes(*shapes)
        return [np.broadcast_to(a, shape) for a in arrays]
    mask = functools.reduce(np.logical_or, [np.zeros_like(a, dtype=bool) for a in arrays])
    return [np.where(mask, a, a) for a in arrays]


@implements(np.empty_like)
def _empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """Zeros: NumPy leaves the values undefined, so any are right."""
    return _zeros_like(prototype, dtype, order, subok, shape, device=device)


# -- np.r_ and np.c_ --------------------------------------------------------------------
def index_concatenate(concatenator, key):
    """`np.r_[key]` or `np.c_[key]` (an `AxisConcatenator`) whose items may be traced.

    NumPy's own `__getitem__` makes each item an array with `np.array`, which a
    traced value cannot become; this is its algorithm over traced items: each
    array given at least `ndmin` dims (placed by `trans1d`), slices as NumPy's
    `arange`/`linspace`, directives (`'0,2,1'`), scalars cast to the common
    dtype, one `concatenate`. A front end calls it where such a subscript holds
    a traced value (autograph's `index_trick`).
    """
    key = key if isinstance(key, tuple) else (key,)
    axis, ndmin, trans1d = concatenator.axis, concatenator.ndmin, concatenator.trans1d
    if concatenator.matrix or isinstance(key[0], str) and key[0] in ("r", "c"):
        raise unsupported("a matrix from numpy.r_/numpy.c_ ('r' or 'c')")
    objs, types = [], []
    for k, item in enumerate(key):
        if isinstance(item, str):
            if k != 0:
                raise ValueError("special directives must be the first entry.")
            try:
                numbers = [int(x) for x in item.split(",")]
            except ValueError:
                raise ValueError(f"unknown special directive {item!r}") from None
            axis, ndmin, trans1d = (numbers + [ndmin, trans1d][len(numbers) - 1:])[:3]
            continue
        if isinstance(item, slice):
            start, step = item.start or 0, 1 if item.step is None else item.step
            item = np.linspace(start, item.stop, num=int(abs(step))) \
                if isinstance(step, (complex, np.complexfloating)) \
                else np.arange(start, item.stop, step)
        if type(item) in np.ScalarType:
            objs.append(item)
            types.append(item)
            continue
        item = array(item)
        lifted = item[(None,) * (ndmin - ndim(item))] if ndim(item) < ndmin else item
        if trans1d != -1 and ndim(item) < ndmin:
            k2, k1 = ndmin - ndim(item), trans1d
            k1 = k1 + k2 + 1 if k1 < 0 else k1
            order = list(range(ndmin))
            lifted = np.transpose(lifted, order[:k1] + order[k2:] + order[k1:k2])
        objs.append(lifted)
        types.append(lifted.dtype)
    dtype = np.result_type(*types) if types else None
    objs = [np.full((1,) * ndmin, x, dtype) if type(x) in np.ScalarType else
            x if x.dtype == dtype else x.astype(dtype) for x in objs]
    return np.concatenate(objs, axis=axis)


# -- copyto: NumPy writes in place ---------------------------------------------------
def writable(dst, name):
    """dst, which a NumPy function writes in place: a traced array, else refused."""
    if not isinstance(dst, Tracer):
        raise unsupported(f"numpy.{name} into a NumPy array with traced values (a NumPy "
                          "array cannot hold them; make it with np.zeros_like of a traced "
                          "value)")
    return dst


@implements(np.copyto)
def _copyto(dst, src, casting="same_kind", where=True):
    dst = writable(dst, "copyto")
    if isinstance(src, Tracer):
        example = python_example(src.aval) if src.aval.weak else np.zeros((), src.dtype)
    else:
        src = src if isinstance(src, (bool, int, float, complex)) else np.asarray(src)
        example = np.zeros((), src.dtype) if isinstance(src, np.ndarray) else src
    np.copyto(np.zeros((), dst.dtype), example, casting=casting)  # NumPy's TypeError
    value = src.astype(dst.dtype) if hasattr(src, "astype") else np.asarray(src, dst.dtype)
    check_fits(shape_of(value), shape_of(dst))
    check_fits(shape_of(where), shape_of(dst))
    write_in_place(dst, np.where(array(where), value, dst), "copyto")
