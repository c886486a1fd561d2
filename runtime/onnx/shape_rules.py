"""ONNX lowerings of shapes, joins and indexing: reshape, transpose, squeeze,
expand_dims, broadcast_to, copies, concatenate, stack, `*_like`, `dim` and basic
`getitem`, `index_update` (a write `x[index] = v`), `index_accumulate` (`np.add.at`) and
`split`.

`x[index]` with ints, slices (static or traced bounds), `None`, `...` and 0-d
integer operands is one `Slice`, a `Gather` per integer (ONNX's negative
indices count from the end as NumPy's do, and an index out of range is an
error in both) and an `Unsqueeze` for the `None`s; an index with an integer
array is one `Gather` where it is the only array; boolean masks are refused.
"""
from __future__ import annotations

import numpy as np

from ..autodiff.rules_indexing import scatter_add_p
from ..ops.creation import full_like_p, ones_like_p, zeros_like_p
from ..ops.indexing import Dyn, getitem_p
from ..ops.introspection import dim_p
from ..ops.sizes import arange_p
from ..ops.index_accumulate import index_accumulate_p
from ..ops.updates import index_update_p
from ..ops.joining import concatenate_p, split_p, stack_p
from ..ops.shape_ops import (
    _transpose_axes,
    as_layout_p,
    broadcast_to_p,
    copy_p,
    expand_dims_p,
    reshape_p,
    squeeze_p,
    transpose_p,
)
from .lower import lowering

INT64_MAX, INT64_MIN = np.iinfo(np.int64).max, np.iinfo(np.int64).min


@lowering(reshape_p, opset=14)
def _reshape(cx):
    if cx.params.get("order", "C") != "C":
        raise cx.refuse("a reshape in F order")
    return [cx.node("Reshape", [cx.arg(0), cx.ints(cx.params["shape"])], allowzero=1)]


@lowering(transpose_p)
def _transpose(cx):
    perm = _transpose_axes(cx.params["axes"], len(cx.in_avals[0].shape))
    return [cx.node("Transpose", [cx.arg(0)], perm=list(perm))]


@lowering(squeeze_p)
def _squeeze(cx):
    axes = sorted(set(_axes(cx.params["axis"], len(cx.in_avals[0].shape))))
    return [cx.node("Squeeze", [cx.arg(0), cx.ints(axes)]) if axes else cx.arg(0)]


@lowering(expand_dims_p)
def _expand_dims(cx):
    axes = _axes(cx.params["axis"], len(cx.out_avals[0].shape))
    return [cx.node("Unsqueeze", [cx.arg(0), cx.ints(sorted(axes))])]


def _axes(axis, ndim):
    if axis is None:
        return list(range(ndim))
    axis = axis if isinstance(axis, (tuple, list)) else (axis,)
    return [a % ndim if ndim else a for a in axis]


@lowering(broadcast_to_p)
def _broadcast_to(cx):
    return [cx.node("Expand", [cx.arg(0), cx.ints(cx.params["shape"])])]


@lowering(copy_p, as_layout_p)
def _copy(cx):
    return [cx.node("Identity", [cx.arg(0)])]


@lowering(concatenate_p)
def _concatenate(cx):
    dtype, axis = cx.out_dtype, cx.params.get("axis", 0)
    parts = cx.args(dtype)
    if axis is None:
        parts, axis = [cx.node("Reshape", [p, cx.ints([-1])]) for p in parts], 0
    return [cx.node("Concat", parts, axis=axis % len(cx.out_avals[0].shape))]


@lowering(stack_p)
def _stack(cx):
    ndim = len(cx.out_avals[0].shape)
    axis = cx.params.get("axis", 0) % ndim
    parts = [cx.node("Unsqueeze", [p, cx.ints([axis])]) for p in cx.args(cx.out_dtype)]
    return [cx.node("Concat", parts, axis=axis)]


@lowering(zeros_like_p, ones_like_p)
def _zeros_like(cx):
    fill = 0 if cx.eqn.primitive is zeros_like_p else 1
    return [_filled(cx, cx.const(fill, cx.out_dtype))]


@lowering(full_like_p)
def _full_like(cx):
    return [_filled(cx, cx.arg(1, cx.out_dtype))]


def _filled(cx, value):
    shape = cx.params.get("shape")
    shape = cx.ints(shape) if shape is not None else cx.node("Shape", [cx.arg(0)])
    return cx.node("Expand", [value, shape])


@lowering(arange_p, opset=11)
def _arange(cx):
    """`np.arange` with traced bounds, of integers (ONNX's `Range` adds its step up, which
    for floats drifts from NumPy's `start + i * step`)."""
    dtype = cx.out_dtype
    if dtype.kind not in "iu" or dtype == bool:
        raise cx.refuse(f"np.arange of {dtype} with traced bounds")
    start, stop, step = (cx.arg(i, np.int64) for i in range(3))
    return [cx.cast(cx.node("Range", [start, stop, step]), np.int64, dtype)]


@lowering(dim_p, opset=15)   # Shape(start=, end=)
def _dim(cx):
    axis = cx.params["axis"]
    size = cx.node("Shape", [cx.arg(0)], start=axis, end=axis + 1)
    size = cx.node("Squeeze", [size, cx.ints([0])])
    return [cx.cast(size, np.int64, cx.out_dtype)]


# -- getitem ------------------------------------------------------------------
def _expanded(template, ndim, dyn_avals):
    """The template with `...` replaced and trailing `:`s added."""
    def consumed(entry):
        return 0 if entry is None or entry is Ellipsis else 1
    used = sum(consumed(e) for e in template)
    if Ellipsis in template:
        i = template.index(Ellipsis)
        return template[:i] + (slice(None),) * (ndim - used) + template[i + 1:]
    return tuple(template) + (slice(None),) * (ndim - used)


def _bound(cx, c, default, first):
    """A slice bound as a 1-element int64 tensor name (or a Python int)."""
    if c is None:
        return default
    if isinstance(c, Dyn):
        name = cx.arg(first + c.k, np.int64)
        return cx.node("Reshape", [name, cx.ints([1])])
    return int(c)


@lowering(getitem_p)
def _getitem(cx):
    return [select(cx, cx.arg(0), 1)]


def select(cx, x, first):
    """`x[index]` for the equation's `index` param, its `Dyn(k)` operand `first + k`."""
    ndim = len(cx.in_avals[0].shape)
    dyn = cx.in_avals[first:]
    if any(a.dtype == bool for a in dyn):
        raise cx.refuse("an index with a boolean mask (its length is known only at run time)")
    arrays = [e for e in cx.params["index"] if isinstance(e, Dyn) and dyn[e.k].shape]
    template = _expanded(cx.params["index"], ndim, dyn)
    if arrays and (len(arrays) > 1 or any(isinstance(e, int) or (
            isinstance(e, Dyn) and e not in arrays) for e in template)):
        raise cx.refuse("an index mixing an integer array with other integer indices")
    starts, ends, steps, axes, picks, new_axes = [], [], [], [], [], []
    dim, out_pos = 0, 0
    for entry in template:
        if entry is None:
            new_axes.append(out_pos)
            out_pos += 1
            continue
        if isinstance(entry, slice):
            if entry != slice(None):
                step = entry.step if entry.step is not None else 1
                if isinstance(step, Dyn):
                    raise cx.refuse("a slice with a traced step")
                if step == 0:
                    raise cx.refuse("a slice step of zero")
                starts.append(_bound(cx, entry.start, 0 if step > 0 else INT64_MAX, first))
                ends.append(_bound(cx, entry.stop, INT64_MAX if step > 0 else INT64_MIN,
                                   first))
                steps.append(step)
                axes.append(dim)
            out_pos += 1
        else:
            picks.append((dim, entry, out_pos))
            if isinstance(entry, Dyn) and dyn[entry.k].shape:
                out_pos += len(dyn[entry.k].shape)
        dim += 1
    if axes:
        x = cx.node("Slice", [x, _ints_or_concat(cx, starts), _ints_or_concat(cx, ends),
                              cx.ints(axes), cx.ints(steps)])
    for d, entry, _ in reversed(picks):   # from the last axis, so earlier ones stay put
        index = cx.arg(first + entry.k, np.int64) if isinstance(entry, Dyn) \
            else cx.const(entry, np.int64)
        x = cx.node("Gather", [x, index], axis=d)
    if new_axes:
        x = cx.node("Unsqueeze", [x, cx.ints(new_axes)])
    return x


@lowering(index_update_p)
def _index_update(cx):
    """`x[index] = v`: v written at the element numbers `index` selects from x."""
    if any(a.shape for a in cx.in_avals[2:]):
        raise cx.refuse("a write at an integer-array index (ONNX's scatter leaves a "
                        "repeated index's value undefined)")
    return [_scatter(cx, cx.arg(0, cx.out_dtype), cx.arg(1, cx.out_dtype))]


@lowering(scatter_add_p, opset=16)
def _scatter_add(cx):
    """A gradient of `x[index]`: g added into zeros shaped as x (ScatterElements' `add`
    sums repeated elements, as `np.add.at` does)."""
    zeros = cx.node("Expand", [cx.const(0, cx.out_dtype), cx.node("Shape", [cx.arg(1)])])
    return [_scatter(cx, zeros, cx.arg(0, cx.out_dtype), reduction="add")]


_REDUCTIONS = {"add": ("add", 16), "subtract": ("add", 16), "multiply": ("mul", 16),
               "maximum": ("max", 18), "minimum": ("min", 18)}


@lowering(index_accumulate_p, opset=16)
def _index_accumulate(cx):
    """`np.add.at(a, index, b)`: ScatterElements' reduction, which combines every repeated
    element as NumPy's unbuffered `at` does; where b has a's dtype (NumPy's `at` computes
    in the promoted dtype and casts each result, which a cast of b first would not)."""
    ufunc = cx.params["ufunc"]
    if ufunc not in _REDUCTIONS:
        raise cx.refuse(f"np.{ufunc}.at (ONNX's scatter combines repeated elements only by "
                        f"add, mul, max or min)")
    a, b = cx.in_avals[0], cx.in_avals[1]
    same = np.dtype(b.dtype) == cx.out_dtype or b.weak and cx.out_dtype.kind == "f"
    if not same or cx.out_dtype.kind not in "iuf":
        raise cx.refuse(f"np.{ufunc}.at of {b.dtype} values into an array of {a.dtype} (NumPy "
                        f"computes each element in their common dtype, then casts it)")
    reduction, opset = _REDUCTIONS[ufunc]
    cx.need(opset, f"np.{ufunc}.at")
    value = cx.arg(1, cx.out_dtype)
    if ufunc == "subtract":
        value = cx.node("Neg", [value])
    return [_scatter(cx, cx.arg(0), value, reduction=reduction)]


def _scatter(cx, x, value, reduction="none"):
    """x with `value` (broadcast) written at the element numbers the equation's index
    (its operands from input 2 on) selects from a `Range` shaped as x."""
    shape = cx.node("Shape", [x])
    size = cx.node("ReduceProd", [shape], keepdims=0)
    ids = cx.node("Range", [cx.const(0, np.int64), size, cx.const(1, np.int64)])
    chosen = select(cx, cx.node("Reshape", [ids, shape]), 2)
    flat = cx.ints([-1])
    value = cx.node("Expand", [value, cx.node("Shape", [chosen])])
    written = cx.node("ScatterElements", [cx.node("Reshape", [x, flat]),
                                          cx.node("Reshape", [chosen, flat]),
                                          cx.node("Reshape", [value, flat])], axis=0,
                      **({} if reduction == "none" else {"reduction": reduction}))
    return cx.node("Reshape", [written, shape])


@lowering(split_p)
def _split(cx):
    """`np.split`: a `Slice` per part (its bounds clamp as Python's do)."""
    axis, ios = cx.params.get("axis", 0), cx.params["indices_or_sections"]
    n = cx.in_avals[0].shape[axis]
    if isinstance(ios, int):
        if n is None:
            raise cx.refuse("equal sections of a dimension unknown until run time")
        ios = [n // ios * k for k in range(1, ios)]
    points = [0, *ios, INT64_MAX]
    x = cx.arg(0)
    return [cx.node("Slice", [x, cx.ints([a]), cx.ints([b]), cx.ints([axis])])
            for a, b in zip(points, points[1:])]


def _ints_or_concat(cx, bounds):
    if all(isinstance(b, int) for b in bounds):
        return cx.ints(bounds)
    return cx.node("Concat", [b if isinstance(b, str) else cx.ints([b]) for b in bounds],
                   axis=0)
