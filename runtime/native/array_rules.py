"""Lowerings of array primitives that are not elementwise: basic indexing, `split`,
`matmul`, and the reductions `sum`, `mean`, `max`, `min` (rows of
`primitives.native_lowerings`).

Indexing makes Numba views (the graph never writes a value in place); an index
known only at run time is checked, and one out of bounds deopts to the NumPy
tier, which raises NumPy's `IndexError`. A float result that is not finite
deopts too, so NumPy's overflow and invalid-value warnings come from NumPy.
Sums accumulate in order, where NumPy sums pairwise: float results may differ in
the last bits (the native tier's documented tolerance).
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import normalize_axis
from ..ops.indexing import Dyn, getitem_p
from ..ops.joining import split_p
from ..ops.linalg import matmul_p
from ..ops.reductions import max_p, mean_p, min_p, sum_p
from .scalars import Unsupported, numba_type


class ArrayLowering:
    """A lowering that writes whole statements: `emit(gen, eqn, indent, fused)`."""

    elementwise = False

    def __init__(self, emit):
        self.emit = emit


def _deopt(gen, indent, condition):
    gen.emit(indent, f"if {condition}:")
    gen.emit(indent + "    ", "raise Deopt()")


def _check_finite(gen, indent, value, aval):
    """Deopt where a float result holds an inf or a NaN (NumPy's warnings decide)."""
    if np.dtype(aval.dtype).kind != "f":
        return
    if aval.ndim == 0:
        _deopt(gen, indent, f"{value} - {value} != 0")
        return
    index = [gen.fresh("i") for _ in range(aval.ndim)]
    inner = indent
    for k, i in enumerate(index):
        gen.emit(inner, f"for {i} in range({value}.shape[{k}]):")
        inner += "    "
    element = f"{value}[{', '.join(index)}]"
    _deopt(gen, inner, f"{element} - {element} != 0")


# -- indexing ------------------------------------------------------------------------
def _getitem(gen, eqn, indent, fused):
    x, *dynamic = eqn.inputs
    index = list(eqn.params["index"])
    if any(e is None for e in index) or sum(e is Ellipsis for e in index) > 1:
        raise Unsupported("an index with None")
    if Ellipsis in index:
        at = index.index(Ellipsis)
        index[at:at + 1] = [slice(None)] * (x.aval.ndim - len(index) + 1)
    parts, dim = [], 0
    for entry in index:
        size = x.aval.shape[dim]
        n = str(size) if size is not None else f"{gen.ref(x)}.shape[{dim}]"
        if isinstance(entry, slice):
            if any(isinstance(c, Dyn) for c in (entry.start, entry.stop, entry.step)):
                raise Unsupported("a slice with traced bounds")
            parts.append(":".join("" if c is None else str(c)
                                  for c in (entry.start, entry.stop, entry.step)))
        elif isinstance(entry, Dyn):
            value = dynamic[entry.k]
            if value.aval.ndim or np.dtype(value.aval.dtype).kind not in "iu":
                raise Unsupported("an index by an array")
            raw = gen.ref(value)
            j = gen.fresh("j")
            gen.emit(indent, f"{j} = np.int64({raw}) + {n} if {raw} < 0 else np.int64({raw})")
            _deopt(gen, indent, f"{j} < 0 or {j} >= {n}")
            parts.append(j)
        elif isinstance(entry, int):
            if size is None:
                _deopt(gen, indent, f"not (-{n} <= {entry} < {n})")
            parts.append(str(entry) if entry >= 0 or size is None
                         else str(entry + size))
            if size is None and entry < 0:
                parts[-1] = f"{n} + ({entry})"
        else:
            raise Unsupported(f"an index entry {entry!r}")
        dim += 1
    out = eqn.outputs[0]
    gen.emit(indent, f"{gen.namer(out)} = {gen.ref(x)}[{', '.join(parts) or '()'}]")


def _split(gen, eqn, indent, fused):
    (x,) = eqn.inputs
    axis = normalize_axis(eqn.params.get("axis", 0), x.aval.ndim)
    sizes = [o.aval.shape[axis] for o in eqn.outputs]
    if any(s is None for s in sizes):
        raise Unsupported("split along an unknown dimension")
    start = 0
    for out, size in zip(eqn.outputs, sizes):
        index = [":"] * axis + [f"{start}:{start + size}"]
        gen.emit(indent, f"{gen.namer(out)} = {gen.ref(x)}[{', '.join(index)}]")
        start += size


# -- matrix products -------------------------------------------------------------------
def _matmul(gen, eqn, indent, fused):
    if eqn.params.get("dtype") is not None:
        raise Unsupported("matmul(..., dtype=...)")
    a, b = eqn.inputs
    out = eqn.outputs[0]
    if not (1 <= a.aval.ndim <= 2 and 1 <= b.aval.ndim <= 2):
        raise Unsupported("a batched matmul")
    dtype = np.dtype(out.aval.dtype)
    if dtype.kind not in "iuf" or {np.dtype(a.aval.dtype), np.dtype(b.aval.dtype)} != {dtype}:
        raise Unsupported(f"matmul of {a.aval.dtype} and {b.aval.dtype}")
    A, B, o = gen.ref(a), gen.ref(b), gen.namer(out)
    rows = f"{A}.shape[0]" if a.aval.ndim == 2 else "1"
    inner = f"{A}.shape[{a.aval.ndim - 1}]"
    cols = f"{B}.shape[1]" if b.aval.ndim == 2 else "1"
    _deopt(gen, indent, f"{B}.shape[0] != {inner}")
    i, k, j = gen.fresh("i"), gen.fresh("k"), gen.fresh("j")
    a_at = f"{A}[{i}, {k}]" if a.aval.ndim == 2 else f"{A}[{k}]"
    b_at = f"{B}[{k}, {j}]" if b.aval.ndim == 2 else f"{B}[{k}]"
    kept = [(d, x) for d, x, keep in ((rows, i, a.aval.ndim == 2), (cols, j, b.aval.ndim == 2))
            if keep]
    cast = numba_type(dtype)
    if kept:   # the result itself accumulates, row by row (k outside j: B read in order)
        gen.emit(indent, f"{o} = np.zeros(({''.join(d + ', ' for d, _ in kept)}), {cast})")
        slot = f"{o}[{', '.join(x for _, x in kept)}]"
    else:
        gen.emit(indent, f"{o} = {cast}(0)")
        slot = o
    gen.emit(indent, f"for {i} in range({rows}):")
    gen.emit(indent + "    ", f"for {k} in range({inner}):")
    gen.emit(indent + "        ", f"for {j} in range({cols}):")
    gen.emit(indent + "            ", f"{slot} += {a_at} * {b_at}")
    _check_finite(gen, indent, o, out.aval)


# -- reductions ------------------------------------------------------------------------
def _reduction(kind):
    def emit(gen, eqn, indent, fused):
        (x,) = eqn.inputs
        params = dict(eqn.params)
        if params.pop("dtype", None) is not None or params.pop("ddof", 0):
            raise Unsupported(f"{kind}(..., dtype=...)")
        axis, keepdims = params.pop("axis", None), params.pop("keepdims", False)
        if params or axis is not None and not isinstance(axis, int) and len(axis) != 1:
            raise Unsupported(f"{kind} over several axes")
        out = eqn.outputs[0]
        source = x.aval
        axes = range(source.ndim) if axis is None else [normalize_axis(
            axis if isinstance(axis, int) else axis[0], source.ndim)]
        acc_dtype = np.dtype(out.aval.dtype)
        if kind == "mean":
            acc_dtype = np.dtype(np.float64) if acc_dtype.kind == "f" and np.dtype(
                source.dtype).kind != "f" else acc_dtype
        if np.dtype(source.dtype).kind not in "biuf" or acc_dtype.kind not in "biuf":
            raise Unsupported(f"{kind} of {source.dtype}")
        X = gen.ref(x)
        dims = [f"{X}.shape[{k}]" for k in range(source.ndim)]
        kept = [k for k in range(source.ndim) if k not in axes]
        count = " * ".join([dims[k] for k in axes]) or "1"
        if kind in ("max", "min", "mean"):
            _deopt(gen, indent, f"{count} == 0")   # NumPy's ValueError, or a NaN and a warning
        o = gen.namer(out)
        acc = f"{o}_a"
        cast = numba_type(acc_dtype)
        if kept:
            gen.emit(indent, f"{acc} = np.zeros(({''.join(dims[k] + ', ' for k in kept)}), {cast})")
        else:
            gen.emit(indent, f"{acc} = {cast}(0)")
        index = [gen.fresh("i") for _ in range(source.ndim)]
        inner = indent
        for i, d in zip(index, dims):
            gen.emit(inner, f"for {i} in range({d}):")
            inner += "    "
        first = " and ".join(f"{index[k]} == 0" for k in axes) or "True"
        slot = f"{acc}[{', '.join(index[k] for k in kept)}]" if kept else acc
        element = f"{cast}({X}[{', '.join(index)}])"
        if kind in ("sum", "mean"):
            gen.emit(inner, f"{slot} += {element}")
        else:
            better = ">" if kind == "max" else "<"
            e = gen.fresh("e")
            gen.emit(inner, f"{e} = {element}")
            gen.emit(inner, f"if {first} or ({slot} == {slot} and "
                            f"({e} != {e} or {e} {better} {slot})):")
            gen.emit(inner + "    ", f"{slot} = {e}")
        result = acc
        if kind == "mean":
            result = f"{result} / {count}"
        final = numba_type(out.aval.dtype)
        if out.aval.ndim == 0 and not keepdims:
            gen.emit(indent, f"{o} = {final}({result})")
        else:
            ones = "(" + "1, " * source.ndim + ")"
            value = f"({result}).astype({final})" if kept else f"np.full({ones}, {final}({result}))"
            gen.emit(indent, f"{o} = {value}")
            if keepdims and kept:
                shape = [dims[k] if k in kept else "1" for k in range(source.ndim)]
                gen.emit(indent, f"{o} = {o}.reshape(({''.join(s + ', ' for s in shape)}))")
        _check_finite(gen, indent, o, out.aval)
    return emit


primitives.native_lowerings[getitem_p] = ArrayLowering(_getitem)
primitives.native_lowerings[split_p] = ArrayLowering(_split)
primitives.native_lowerings[matmul_p] = ArrayLowering(_matmul)
for _p, _kind in ((sum_p, "sum"), (mean_p, "mean"), (max_p, "max"), (min_p, "min")):
    primitives.native_lowerings[_p] = ArrayLowering(_reduction(_kind))
