"""ONNX lowerings of shapes, joins and indexing: reshape, transpose, squeeze,
expand_dims, broadcast_to, copies, concatenate, stack, `*_like`, `dim` and basic
`getitem`.

`x[index]` with ints, slices (static or traced bounds), `None`, `...` and 0-d
integer operands is one `Slice`, a `Gather` per integer (ONNX's negative
indices count from the end as NumPy's do, and an index out of range is an
error in both) and an `Unsqueeze` for the `None`s; an index with an integer
array is one `Gather` where it is the only array; boolean masks are refused.
"""
from __future__ import annotations

import numpy as np

from ..ops.creation import full_like_p, ones_like_p, zeros_like_p
from ..ops.indexing import Dyn, getitem_p
from ..ops.introspection import dim_p
from ..ops.joining import concatenate_p, stack_p
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


@lowering(dim_p)
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


def _bound(cx, c, default):
    """A slice bound as a 1-element int64 tensor name (or a Python int)."""
    if c is None:
        return default
    if isinstance(c, Dyn):
        name = cx.arg(1 + c.k, np.int64)
        return cx.node("Reshape", [name, cx.ints([1])])
    return int(c)


@lowering(getitem_p)
def _getitem(cx):
    x, ndim = cx.arg(0), len(cx.in_avals[0].shape)
    dyn = cx.in_avals[1:]
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
                starts.append(_bound(cx, entry.start, 0 if step > 0 else INT64_MAX))
                ends.append(_bound(cx, entry.stop, INT64_MAX if step > 0 else INT64_MIN))
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
        index = cx.arg(1 + entry.k, np.int64) if isinstance(entry, Dyn) \
            else cx.const(entry, np.int64)
        x = cx.node("Gather", [x, index], axis=d)
    if new_axes:
        x = cx.node("Unsqueeze", [x, cx.ints(new_axes)])
    return [x]


def _ints_or_concat(cx, bounds):
    if all(isinstance(b, int) for b in bounds):
        return cx.ints(bounds)
    return cx.node("Concat", [b if isinstance(b, str) else cx.ints([b]) for b in bounds],
                   axis=0)
