"""Shape primitives: reshape, transpose, squeeze, expand_dims, broadcast_to,
copy and clip (concatenate, stack, split, where, nonzero: `joining`).

Handlers serve `np.reshape`, `np.ravel`, `np.transpose`, `np.swapaxes`,
`np.moveaxis`, `np.squeeze`, `np.expand_dims`, `np.broadcast_to`, `np.copy`
and `np.clip`. Params are normalized (axes non-negative, shapes tuples of
ints). Also provides `operand`, `ndim`, `shape_param`, `known_size` and
`fmt_shape`, argument helpers that the other op modules share.
"""
from __future__ import annotations

import functools
import math
import operator

import numpy as np

from .. import primitives, views
from ..abstract import broadcast_shapes, normalize_axes, normalize_axis
from ..dispatch import implements, unsupported
from ..errors import TracingError
from ..tracer import Tracer, bind
from ._rules import aval, dtype_by_example, reject

_MISSING = object()
_SCALARS = (Tracer, np.ndarray, np.generic, bool, int, float, complex)


def operand(x):
    """`x` as `bind` takes it: Tracers, arrays and scalars as they are, else an array."""
    return x if isinstance(x, _SCALARS) else np.asarray(x)


def ndim(x) -> int:
    return getattr(x, "ndim", 0)


def fmt_shape(shape) -> str:
    """A shape as NumPy prints it in errors, `?` for unknown dimensions."""
    dims = ["?" if d is None else str(d) for d in shape]
    return "(" + ",".join(dims) + ("," if len(dims) == 1 else "") + ")"


def shape_param(shape) -> tuple:
    """A static shape argument (an int or a sequence of ints) as a tuple of ints."""
    if isinstance(shape, Tracer):
        raise TracingError(f"a shape must be static, not the traced value {shape!r}")
    if not isinstance(shape, (tuple, list, np.ndarray)):
        shape = (shape,)
    if any(d is None for d in shape):
        raise TracingError(
            f"the shape {fmt_shape(shape)} has an unknown dimension (None, from the shape of a "
            "traced value); a shape must be known while tracing (reshape takes -1 for one "
            "dimension)")
    return tuple(operator.index(d) for d in shape)


def known_size(shape):
    """The number of elements: None when a dimension is unknown (and none is 0)."""
    return 0 if 0 in shape else None if None in shape else math.prod(shape)


def _same(x, **params):
    return x.aval


# -- reshape, transpose, squeeze, expand_dims, broadcast_to, copy -------------
def _reshape_rule(x, *, shape, order="C"):
    if sum(d < 0 for d in shape) > 1:
        raise ValueError("can only specify one unknown dimension")
    in_shape, known = x.aval.shape, math.prod(d for d in shape if d >= 0)
    in_known = math.prod(d for d in in_shape if d is not None)
    size = known_size(in_shape)
    error = ValueError(f"cannot reshape array of size {size if size is not None else '?'} "
                       f"into shape {fmt_shape(shape)}")
    if size is None:
        if min(shape, default=0) >= 0 and in_known and known % in_known:
            raise error
        return aval(tuple(None if d < 0 else d for d in shape), x.aval.dtype)
    if min(shape, default=0) < 0:
        if known == 0 or size % known:
            raise error
        shape = tuple(size // known if d < 0 else d for d in shape)
    elif known != size:
        raise error
    return aval(shape, x.aval.dtype)


def _transpose_rule(x, *, axes):
    return aval(tuple(x.aval.shape[a] for a in _transpose_axes(axes, x.aval.ndim)),
                x.aval.dtype)


def _transpose_axes(axes, nd):
    if axes is None:
        return tuple(reversed(range(nd)))
    axes = tuple(operator.index(a) for a in axes)
    if len(axes) != nd:
        raise ValueError("axes don't match array")
    axes = tuple(normalize_axis(a, nd) for a in axes)
    if len(set(axes)) != nd:
        raise ValueError("repeated axis in transpose")
    return axes


def _squeeze_rule(x, *, axis):
    shape = x.aval.shape
    axes = normalize_axes(axis, len(shape))
    if any(shape[a] not in (1, None) for a in axes):
        raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return aval(tuple(d for i, d in enumerate(shape) if i not in axes), x.aval.dtype)


def _expand_dims_rule(x, *, axis):
    nd = x.aval.ndim + len(axis)
    axes, dims = normalize_axes(axis, nd), iter(x.aval.shape)
    return aval(tuple(1 if i in axes else next(dims) for i in range(nd)), x.aval.dtype)


def _broadcast_to_rule(x, *, shape):
    if any(d < 0 for d in shape):
        raise ValueError("all elements of broadcast shape must be non-negative")
    in_shape = x.aval.shape
    if len(in_shape) > len(shape):
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    if any(d not in (1, None, t) for d, t in zip(in_shape, shape[len(shape) - len(in_shape):])):
        raise ValueError("operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {fmt_shape(in_shape)} and requested shape "
                         f"{fmt_shape(shape)}")
    return aval(shape, x.aval.dtype)


reshape_p = primitives.define(
    "reshape", _reshape_rule,
    lambda xp, shape, order="C": lambda a: xp.reshape(a, shape, order=order), views=True)
transpose_p = primitives.define(
    "transpose", _transpose_rule,
    lambda xp, axes: functools.partial(xp.transpose, axes=axes), views=True)
squeeze_p = primitives.define(
    "squeeze", _squeeze_rule, lambda xp, axis: functools.partial(xp.squeeze, axis=axis), views=True)
expand_dims_p = primitives.define(
    "expand_dims", _expand_dims_rule,
    lambda xp, axis: functools.partial(xp.expand_dims, axis=axis), views=True)
broadcast_to_p = primitives.define(
    "broadcast_to", _broadcast_to_rule,
    lambda xp, shape: functools.partial(xp.broadcast_to, shape=shape), views=True)
as_layout_p = primitives.define(  # x itself where x is laid out so already: a view
    "as_layout", _same,  # that may or may not share memory, so writes to it are refused
    lambda xp, order: xp.ascontiguousarray if order == "C" else xp.asfortranarray, views=True)
copy_p = primitives.define(  # the order lays the copy out as NumPy does (`x.copy()` is "C")
    "copy", _same, lambda xp, order="K": functools.partial(xp.copy, order=order))


# -- how each view is derived from its base and written back into it (runtime.views) --
def _reshape_view(x, *, shape, order="C"):
    base_shape = x.aval.shape
    if order != "C" or base_shape.count(None) > 1:
        return None  # an F-order reshape of a C array copies; an unknown shape cannot go back
    back = tuple(-1 if d is None else d for d in base_shape)
    return (lambda base: bind(reshape_p, base, shape=shape),
            lambda base, value: bind(reshape_p, value, shape=back), True)


def _transpose_view(x, *, axes):
    inverse = tuple(sorted(range(len(axes)), key=axes.__getitem__))
    kept = [a for a in axes if x.aval.shape[a] != 1]  # the order of the dims that step
    return (lambda base: bind(transpose_p, base, axes=axes),
            lambda base, value: bind(transpose_p, value, axes=inverse), kept == sorted(kept))


def _squeeze_view(x, *, axis):
    return (lambda base: bind(squeeze_p, base, axis=axis),
            lambda base, value: bind(expand_dims_p, value, axis=axis), True)


def _expand_dims_view(x, *, axis):
    return (lambda base: bind(expand_dims_p, base, axis=axis),
            lambda base, value: bind(squeeze_p, value, axis=axis), True)


views.view_rules.update({
    reshape_p: views.reshape_rule(_reshape_view), transpose_p: _transpose_view,
    squeeze_p: _squeeze_view, expand_dims_p: _expand_dims_view})


@implements(np.reshape)
def _reshape(a, shape=_MISSING, order="C", *, newshape=_MISSING, copy=None):
    if newshape is not _MISSING:
        if shape is not _MISSING:
            raise TypeError("You cannot specify 'newshape' and 'shape' arguments at the same time.")
        shape = newshape
    if shape is _MISSING:
        raise TypeError("reshape() missing required argument 'shape' (pos 2)")
    if order not in ("C", "F"):
        raise unsupported(f"numpy.reshape(..., order={order!r})")
    if copy is False:
        raise unsupported("numpy.reshape(..., copy=False)")
    shape = tuple(-1 if d < 0 else d for d in shape_param(shape))
    return bind(reshape_p, operand(a), shape=shape, **({"order": "F"} if order == "F" else {}))


@implements(np.ravel)
def _ravel(a, order="C"):
    return _reshape(a, (-1,), order)


@implements(np.transpose)
def _transpose(a, axes=None):
    a = operand(a)
    return bind(transpose_p, a, axes=_transpose_axes(axes, ndim(a)))


@implements(np.swapaxes)
def _swapaxes(a, axis1, axis2):
    a = operand(a)
    axes = list(range(ndim(a)))
    i, j = normalize_axis(axis1, len(axes)), normalize_axis(axis2, len(axes))
    axes[i], axes[j] = j, i
    return bind(transpose_p, a, axes=tuple(axes))


@implements(np.moveaxis)
def _moveaxis(a, source, destination):
    a = operand(a)
    nd = ndim(a)
    src = [normalize_axis(s, nd) for s in np.atleast_1d(source).tolist()]
    dst = [normalize_axis(d, nd) for d in np.atleast_1d(destination).tolist()]
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number "
                         "of elements")
    order = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return bind(transpose_p, a, axes=_transpose_axes(order, nd))


@implements(np.squeeze)
def _squeeze(a, axis=None):
    a = operand(a)
    if axis is None:
        shape = a.shape
        if None in shape:
            raise TracingError(
                f"np.squeeze(x) with x of shape {fmt_shape(shape)}: dimension "
                f"{shape.index(None)} is unknown, so whether it is removed is not known "
                "while tracing; pass axis= naming the dimensions to remove")
        axis = tuple(i for i, d in enumerate(shape) if d == 1)
    elif ndim(a) == 0 and not isinstance(axis, tuple) and axis in (0, -1):
        axis = ()  # as NumPy allows
    return bind(squeeze_p, a, axis=normalize_axes(axis, ndim(a)))


@implements(np.expand_dims)
def _expand_dims(a, axis):
    a = operand(a)
    axis = axis if isinstance(axis, (tuple, list)) else (axis,)
    return bind(expand_dims_p, a, axis=normalize_axes(axis, ndim(a) + len(axis)))


@implements(np.broadcast_to)
def _broadcast_to(array, shape, subok=False):
    return bind(broadcast_to_p, operand(array), shape=shape_param(shape))


@implements(np.copy)
def _copy(a, order="K", subok=False):
    if order not in ("K", "A", "C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return bind(copy_p, operand(a), order=order)


def as_layout(a, order: str):
    """`np.ascontiguousarray(a)` ("C") or `np.asfortranarray(a)` ("F") of a traced a: a
    itself where it is laid out so already, else a copy; at least 1-d. Which one is known
    only when the graph runs, so a write to either is refused (`runtime.views`)."""
    a = operand(a)
    return bind(as_layout_p, a.reshape(1) if a.ndim == 0 else a, order=order)


# -- clip --------------------------------------------------------------------
_CLIPS = {"both": np.clip, "min": lambda a, lo: np.clip(a, lo, None),
          "max": lambda a, hi: np.clip(a, None, hi)}


def _clip_rule(*atoms, bounds="both"):
    shape = broadcast_shapes(*(a.aval.shape for a in atoms))
    return aval(shape, dtype_by_example(_CLIPS[bounds], atoms))


def _clip_kernel(xp, bounds="both"):
    if bounds == "min":
        return lambda a, lo: xp.clip(a, lo, None)
    if bounds == "max":
        return lambda a, hi: xp.clip(a, None, hi)
    return xp.clip


clip_p = primitives.define("clip", _clip_rule, _clip_kernel)


@implements(np.clip, out=True)
def _clip(a, a_min=np._NoValue, a_max=np._NoValue, out=None, *,
          min=np._NoValue, max=np._NoValue, **kwargs):  # noqa: A002  (NumPy's names)
    reject({"out": out, **kwargs}, "numpy.clip")
    for name, old, new in (("min", a_min, min), ("max", a_max, max)):
        if old is not np._NoValue and new is not np._NoValue:
            raise TypeError(f"Passed more than one argument for {name}: a_{name} and {name}")
    lo = a_min if a_min is not np._NoValue else min
    hi = a_max if a_max is not np._NoValue else max
    lo, hi = (None if b is np._NoValue else b for b in (lo, hi))
    if lo is None and hi is None:
        return np.positive(operand(a))  # what NumPy does
    bounds = "both" if lo is not None and hi is not None else "min" if hi is None else "max"
    args = [operand(x) for x in (a, lo, hi) if x is not None]
    return bind(clip_p, *args, **({} if bounds == "both" else {"bounds": bounds}))
