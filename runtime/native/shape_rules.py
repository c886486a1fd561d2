"""Lowerings of the shape primitives: `reshape`, `transpose`, `squeeze`, `expand_dims`,
`copy` and `as_layout` (rows of `primitives.native_lowerings`).

Numba reshapes only contiguous arrays, so a reshape of another layout copies it
first: the graph never writes a value in place, so a copy where NumPy made a view
changes nothing it computes.
"""
from __future__ import annotations

from .. import primitives
from ..abstract import normalize_axes
from ..ops.shape_ops import (as_layout_p, copy_p, expand_dims_p, reshape_p, squeeze_p,
                             transpose_p)
from .array_rules import ArrayLowering
from .scalars import Unsupported


def _tuple(parts) -> str:
    return "(" + "".join(f"{p}, " for p in parts) + ")"


def _reshaped(gen, eqn, indent, dims):
    """`out = x` with the shape `dims` (expressions); contiguous first."""
    (x,) = eqn.inputs
    gen.emit(indent, f"{gen.namer(eqn.outputs[0])} = "
                     f"np.ascontiguousarray({gen.ref(x)}).reshape({_tuple(dims)})")


def _reshape(gen, eqn, indent, fused):
    if eqn.params.get("order", "C") != "C":
        raise Unsupported("reshape(order='F')")
    shape = eqn.params["shape"]
    if eqn.outputs[0].aval.ndim == 0:
        gen.emit(indent, f"{gen.namer(eqn.outputs[0])} = {gen.ref(eqn.inputs[0])}.ravel()[0]")
        return
    _reshaped(gen, eqn, indent, [str(d) for d in shape])


def _input_dims(gen, x):
    return [str(d) if d is not None else f"{gen.ref(x)}.shape[{k}]"
            for k, d in enumerate(x.aval.shape)]


def _squeeze(gen, eqn, indent, fused):
    (x,) = eqn.inputs
    axes = normalize_axes(eqn.params["axis"], x.aval.ndim)
    if any(x.aval.shape[a] is None for a in axes):
        raise Unsupported("squeeze of an unknown dimension")
    dims = [d for k, d in enumerate(_input_dims(gen, x)) if k not in axes]
    if not dims:
        gen.emit(indent, f"{gen.namer(eqn.outputs[0])} = {gen.ref(x)}.ravel()[0]")
        return
    _reshaped(gen, eqn, indent, dims)


def _expand_dims(gen, eqn, indent, fused):
    (x,) = eqn.inputs
    out = eqn.outputs[0]
    axes = normalize_axes(eqn.params["axis"], out.aval.ndim)
    source = iter(_input_dims(gen, x))
    dims = ["1" if k in axes else next(source) for k in range(out.aval.ndim)]
    if x.aval.ndim == 0:
        gen.emit(indent, f"{gen.namer(out)} = np.full({_tuple(dims)}, {gen.ref(x)})")
        return
    _reshaped(gen, eqn, indent, dims)


def _transpose(gen, eqn, indent, fused):
    (x,) = eqn.inputs
    axes = eqn.params["axes"]
    axes = tuple(reversed(range(x.aval.ndim))) if axes is None else tuple(
        a % x.aval.ndim for a in axes)
    if axes == (1, 0):   # `.T`: Numba types the transpose of a C array as F, which BLAS reads
        gen.emit(indent, f"{gen.namer(eqn.outputs[0])} = {gen.ref(x)}.T")
        return
    gen.emit(indent, f"{gen.namer(eqn.outputs[0])} = np.transpose({gen.ref(x)}, {_tuple(axes)})")


def _copy(gen, eqn, indent, fused):
    (x,) = eqn.inputs
    if x.aval.ndim == 0:
        gen.emit(indent, f"{gen.namer(eqn.outputs[0])} = {gen.ref(x)}")
        return
    gen.emit(indent, f"{gen.namer(eqn.outputs[0])} = np.ascontiguousarray({gen.ref(x)}).copy()"
             if eqn.params.get("order", "K") != "F" else
             f"{gen.namer(eqn.outputs[0])} = np.asfortranarray({gen.ref(x)})")


primitives.native_lowerings[reshape_p] = ArrayLowering(_reshape)
primitives.native_lowerings[squeeze_p] = ArrayLowering(_squeeze)
primitives.native_lowerings[expand_dims_p] = ArrayLowering(_expand_dims)
primitives.native_lowerings[transpose_p] = ArrayLowering(_transpose)
primitives.native_lowerings[copy_p] = ArrayLowering(_copy)
primitives.native_lowerings[as_layout_p] = ArrayLowering(_copy)
