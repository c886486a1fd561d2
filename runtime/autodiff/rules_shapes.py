"""Vector-Jacobian rules of shape, joining and creation primitives.

Each undoes its primitive on the cotangent: a reshape reshapes back, a
transpose applies the inverse permutation, a concatenation is split (by
slices, so unknown sizes work), a split is concatenated (zeros standing for
pieces without a cotangent), `where` routes the cotangent to the side taken.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..ops import creation, joining, shape_ops
from ..ops.introspection import dynamic_shape
from .cotangents import reshape_like, zeros


def _reshape(g, out, x, *, shape, order="C"):
    if order == "F":
        return (np.reshape(g, tuple(-1 if d is None else d for d in x.shape), order="F"),)
    return (reshape_like(g, x),)


def _transpose(g, out, x, *, axes):
    if axes is None:
        return (np.transpose(g),)
    return (np.transpose(g, tuple(int(i) for i in np.argsort(axes))),)


def _clip(g, out, x, *limits, bounds="both"):
    lo = limits[0] if bounds in ("both", "min") else None
    hi = limits[-1] if bounds in ("both", "max") else None
    if lo is None:
        inside = x <= hi
    else:
        inside = x >= lo if hi is None else (x >= lo) & (x <= hi)
    cts = [np.where(inside, g, 0)]
    if lo is not None:
        cts.append(np.where(x < lo, g, 0))
    if hi is not None:
        cts.append(np.where(x > hi, g, 0))
    return cts


def _pieces(g, xs, axis):
    """`g` cut along `axis` into pieces as long as each of `xs` is along it."""
    start, pieces = 0, []
    for x in xs:
        length = x.shape[axis] if x.shape[axis] is not None else dynamic_shape(x)[axis]
        stop = start + length
        pieces.append(g[(slice(None),) * axis + (slice(start, stop),)])
        start = stop
    return pieces


def _concatenate(g, out, *xs, axis=0, dtype=None):
    if axis is None:
        flat = [np.ravel(x) for x in xs]
        return [reshape_like(p, x) for p, x in zip(_pieces(g, flat, 0), xs)]
    return _pieces(g, xs, axis)


def _stack(g, out, *xs, axis=0, dtype=None):
    return [g[(slice(None),) * axis + (i,)] for i in range(len(xs))]


def _split(cts, outs, x, *, indices_or_sections, axis=0):
    pieces = [ct if ct is not None else zeros(o.aval, like=o) for ct, o in zip(cts, outs)]
    return (np.concatenate(pieces, axis=axis),)


def _where(g, out, condition, x, y):
    return None, np.where(condition, g, 0), np.where(condition, 0, g)


def _astype(g, out, x, *, dtype):
    return (g.astype(x.dtype) if np.dtype(x.dtype).kind == "f" else None,)


def _no_gradient(g, out, *inputs, **params):
    """Zeros whatever the input: the result depends on its shape only."""
    return (None,) * len(inputs)


RULES = {
    shape_ops.reshape_p: _reshape,
    shape_ops.transpose_p: _transpose,
    shape_ops.squeeze_p: lambda g, out, x, *, axis: (np.expand_dims(g, axis),),
    shape_ops.expand_dims_p: lambda g, out, x, *, axis: (np.squeeze(g, axis),),
    shape_ops.broadcast_to_p: lambda g, out, x, *, shape: (g,),
    shape_ops.copy_p: lambda g, out, x, order="K": (g,),
    shape_ops.as_layout_p: lambda g, out, x, order: (g,),
    shape_ops.clip_p: _clip,
    joining.concatenate_p: _concatenate,
    joining.stack_p: _stack,
    joining.split_p: _split,
    joining.where_p: _where,
    creation.zeros_like_p: _no_gradient,
    creation.ones_like_p: _no_gradient,
    creation.full_like_p: lambda g, out, x, fill, **params: (None, g),
    creation.astype_p: _astype,
}
primitives.vjp_rules.update(RULES)
