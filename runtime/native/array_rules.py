"""Lowerings of array primitives that are not elementwise: basic indexing, `split`,
`matmul`, and the reductions `sum`, `mean`, `max`, `min`, `all`, `any`, `argmax`,
`argmin` and `short_sum` (rows of `primitives.native_lowerings`).

A reduction reads its operand through `loops.Operand`: an elementwise producer
used only by it is computed in its loop nest (no temporary). Over the innermost
axes it accumulates each result in a machine number, the kept axes outside.

Indexing makes Numba views (`x[:, None]` too: Numba's `None`; the graph never
writes a value in place); an index
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
from ..ops.creation import full_like_p, ones_like_p, zeros_like_p
from ..ops.joining import concatenate_p, split_p, stack_p
from ..ops.linalg import matmul_p
from ..ops.reductions import all_p, any_p, argmax_p, argmin_p, max_p, mean_p, min_p, sum_p
from ..passes.short_sums import short_sum_p
from . import numpy_kernels
from .loops import Operand
from .scalars import ScalarCode, Unsupported, numba_type, operand_type


class ArrayLowering:
    """A lowering that writes whole statements: `emit(gen, eqn, indent, fused)`."""

    elementwise = False

    def __init__(self, emit):
        self.emit = emit


def _deopt(gen, indent, condition):
    gen.emit(indent, f"if {condition}:")
    gen.emit(indent + "    ", "raise Deopt()")


def _deopt_empty(gen, indent, dims):
    """Deopt where the product of `dims` (loop bounds) is 0; nothing where all are known."""
    if all(d.isdigit() for d in dims):
        if 0 in [int(d) for d in dims]:
            gen.emit(indent, "raise Deopt()")
        return
    _deopt(gen, indent, f"{' * '.join(dims)} == 0")


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
    if sum(e is Ellipsis for e in index) > 1:
        raise Unsupported("an index with two Ellipses")
    if Ellipsis in index:
        at = index.index(Ellipsis)
        real = sum(e is not None for e in index) - 1
        index[at:at + 1] = [slice(None)] * (x.aval.ndim - real)
    new_axes = [k for k, e in enumerate(e for e in index if not isinstance(e, (int, Dyn)))
                if e is None]   # positions of None among the result's dimensions
    parts, dim, with_new = [], 0, []   # with_new: `parts` and a None for each new axis
    for entry in index:
        if entry is None:
            with_new.append("None")
            continue
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
        with_new.append(parts[-1])
        dim += 1
    out = eqn.outputs[0]
    if not new_axes:
        gen.emit(indent, f"{gen.namer(out)} = {gen.ref(x)}[{', '.join(parts) or '()'}]")
        return
    if len(new_axes) < out.aval.ndim:   # a view with new axes (Numba's `None`), no copy
        gen.emit(indent, f"{gen.namer(out)} = {gen.ref(x)}[{', '.join(with_new)}]")
        return
    picked = gen.fresh("p")
    gen.emit(indent, f"{picked} = {gen.ref(x)}[{', '.join(parts) or '()'}]")
    dims, k = [], 0
    for j in range(out.aval.ndim):
        if j in new_axes:
            dims.append("1")
        else:
            dims.append(f"{picked}.shape[{k}]")
            k += 1
    if k == 0:
        gen.emit(indent, f"{gen.namer(out)} = np.full(({'1, ' * out.aval.ndim}), {picked})")
    else:
        gen.emit(indent, f"{gen.namer(out)} = np.ascontiguousarray({picked}).reshape("
                         f"({''.join(d + ', ' for d in dims)}))")


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
    if dtype.kind == "f" and _large(a.aval.shape, b.aval.shape, numpy_kernels.MATMUL_FROM) \
            and None not in a.aval.shape + b.aval.shape and out.aval.ndim:
        # NumPy's own matmul (its BLAS, its warnings): the NumPy tier's result, bit for bit
        numpy_kernels.emit_call(gen, indent, out, "np.matmul", [A, B])
        return
    if dtype.kind == "f" and _large(a.aval.shape, b.aval.shape):
        # BLAS (through SciPy, as Numba calls it), on contiguous copies where needed
        _deopt(gen, indent, f"{B}.shape[0] != {A}.shape[{a.aval.ndim - 1}]")
        gen.emit(indent, f"{o} = np.dot(blas_operand({A}), blas_operand({B}))")
        _check_finite(gen, indent, o, out.aval)
        return
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


BLAS_FROM = 8_192   # multiply-adds: below, a loop beats a BLAS call's fixed cost (the 10-unit
#                     batch-64 cell's 25,600: 57 µs in loops, 35 µs through BLAS)


def _large(a_shape, b_shape, least=BLAS_FROM) -> bool:
    """Whether a product of these shapes has `least` multiply-adds (unknown sizes are
    taken as large)."""
    dims = [*a_shape, *b_shape[1:]]
    return None in dims or int(np.prod(dims)) >= least


# -- reductions ------------------------------------------------------------------------
class Reduction(ArrayLowering):
    """A reduction's lowering: its operand is read through `loops.Operand`, so an
    elementwise producer used only by it is computed inside its loop nest."""

    fuses_operand = True


def _reduction(kind):
    def emit(gen, eqn, indent, fused):
        (x,) = eqn.inputs
        if kind in ("argmax", "argmin"):
            return _arg_reduction(gen, eqn, indent, kind, fused)
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
        operand = Operand(gen, indent, x, fused)
        dims = operand.dims
        kept = [k for k in range(source.ndim) if k not in axes]
        count = " * ".join([dims[k] for k in axes]) or "1"
        if kind in ("max", "min", "mean"):
            _deopt_empty(gen, indent, [dims[k] for k in axes])   # a ValueError, or a NaN
        if list(axes) == list(range(len(kept), source.ndim)):
            return _inner_reduction(gen, eqn, indent, kind, operand, kept, count, acc_dtype)
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
        _accumulate(gen, inner, kind, slot, operand.load(inner, index), cast, first)
        result = acc
        if kind == "mean":
            result = f"{result} / ({count})"
        final = numba_type(out.aval.dtype)
        if out.aval.ndim == 0 and not keepdims:
            gen.emit(indent, f"{o} = {final}({result})")
        else:
            ones = "(" + "1, " * source.ndim + ")"
            if not kept:
                value = f"np.full({ones}, {final}({result}))"
            elif kind != "mean" and acc_dtype == np.dtype(out.aval.dtype):
                value = result   # the accumulator is the result
            else:
                value = f"({result}).astype({final})"
            gen.emit(indent, f"{o} = {value}")
            if keepdims and kept:
                shape = [dims[k] if k in kept else "1" for k in range(source.ndim)]
                gen.emit(indent, f"{o} = {o}.reshape(({''.join(s + ', ' for s in shape)}))")
        _check_finite(gen, indent, o, out.aval)
    return emit


def _accumulate(gen, inner, kind, slot, element, cast, first):
    """Emits, at `inner`, the update of `slot` with `element` (`first`: the first one)."""
    if kind in ("sum", "mean"):
        gen.emit(inner, f"{slot} += {cast}({element})")
    elif kind in ("all", "any"):
        gen.emit(inner, f"if {first}:")
        gen.emit(inner + "    ", f"{slot} = {kind == 'all'}")
        op = "and" if kind == "all" else "or"
        gen.emit(inner, f"{slot} = {slot} {op} ({element} != 0)")
    else:
        better = ">" if kind == "max" else "<"
        e = gen.fresh("e")
        gen.emit(inner, f"{e} = {cast}({element})")
        gen.emit(inner, f"if {first} or ({slot} == {slot} and "
                        f"({e} != {e} or {e} {better} {slot})):")
        gen.emit(inner + "    ", f"{slot} = {e}")


def _inner_reduction(gen, eqn, indent, kind, operand, kept, count, acc_dtype):
    """A reduction over the innermost axes: a loop over the kept ones outside, a
    machine-number accumulator per result element inside (the same order of sums)."""
    out = eqn.outputs[0]
    keepdims = eqn.params.get("keepdims", False)
    ndim = len(operand.dims)
    dims = operand.dims
    o = gen.namer(out)
    cast, final = numba_type(acc_dtype), numba_type(out.aval.dtype)
    stored = [k for k in range(ndim) if k in kept or keepdims]
    index, inner = _result_and_kept_loops(gen, indent, o, dims, kept, stored, final)
    acc = gen.fresh("s")
    gen.emit(inner, f"{acc} = {'True' if kind == 'all' else f'{cast}(0)'}")
    body = inner
    for k in range(len(kept), ndim):
        gen.emit(body, f"for {index[k]} in range({dims[k]}):")
        body += "    "
    first = " and ".join(f"{index[k]} == 0" for k in range(len(kept), ndim)) or "True"
    _accumulate(gen, body, kind, acc, operand.load(body, index), cast, first)
    value = gen.fresh("v")
    gen.emit(inner, f"{value} = {final}({acc} / ({count}))" if kind == "mean"
             else f"{value} = {final}({acc})")
    if np.dtype(out.aval.dtype).kind == "f":
        _deopt(gen, inner, f"{value} - {value} != 0")
    if stored:
        gen.emit(inner, f"{o}[{', '.join(index[k] if k in kept else '0' for k in stored)}] = "
                        f"{value}")
    else:
        gen.emit(inner, f"{o} = {value}")


def _result_and_kept_loops(gen, indent, o, dims, kept, stored, dtype) -> tuple:
    """Allocates a reduction's result `o` (its `stored` axes; none: a scalar) and opens a
    loop over each `kept` axis: the loop indices (one per operand axis) and the indent
    inside the loops."""
    if stored:
        shape = [dims[k] if k in kept else "1" for k in stored]
        gen.emit(indent, f"{o} = np.empty(({''.join(d + ', ' for d in shape)}), {dtype})")
    index = [gen.fresh("i") for _ in range(len(dims))]
    inner = indent
    for k in kept:
        gen.emit(inner, f"for {index[k]} in range({dims[k]}):")
        inner += "    "
    return index, inner


def _arg_reduction(gen, eqn, indent, kind, fused):
    """`argmax`/`argmin` over all axes or one: the first extreme, or the first NaN, in
    one loop nest over the operand (the axis innermost; a deferred producer fused)."""
    (x,) = eqn.inputs
    out = eqn.outputs[0]
    axis, keepdims = eqn.params.get("axis"), eqn.params.get("keepdims", False)
    if np.dtype(x.aval.dtype).kind not in "biuf":
        raise Unsupported(f"{kind} of {x.aval.dtype}")
    operand = Operand(gen, indent, x, fused)
    dims, ndim, o = operand.dims, x.aval.ndim, gen.namer(out)
    axes = list(range(ndim)) if axis is None else [normalize_axis(axis, ndim)]
    kept = [k for k in range(ndim) if k not in axes]
    _deopt_empty(gen, indent, [dims[k] for k in axes])   # NumPy's ValueError
    stored = list(range(ndim)) if keepdims else kept   # the result's axes, by the operand's
    index, inner = _result_and_kept_loops(gen, indent, o, dims, kept, stored, "np.int64")
    best, m, q = gen.fresh("b"), gen.fresh("m"), gen.fresh("q")
    gen.emit(inner, f"{best} = 0")
    gen.emit(inner, f"{q} = 0")
    first = [i if k in kept else "0" for k, i in enumerate(index)]
    gen.emit(inner, f"{m} = {operand.load(inner, first)}")
    body = inner
    for k in axes:
        gen.emit(body, f"for {index[k]} in range({dims[k]}):")
        body += "    "
    e = gen.fresh("e")
    gen.emit(body, f"{e} = {operand.load(body, index)}")
    better = ">" if kind == "argmax" else "<"
    gen.emit(body, f"if {m} == {m} and ({e} != {e} or {e} {better} {m}):")
    gen.emit(body + "    ", f"{m} = {e}")
    gen.emit(body + "    ", f"{best} = {q}")
    gen.emit(body, f"{q} += 1")
    if out.aval.ndim == 0:
        gen.emit(inner, f"{o} = np.int64({best})")
    else:
        at = [index[k] if k in kept else "0" for k in stored]
        gen.emit(inner, f"{o}[{', '.join(at)}] = {best}")


def _join(stack):
    def emit(gen, eqn, indent, fused):
        if eqn.params.get("dtype") is not None or eqn.params.get("axis", 0) is None:
            raise Unsupported("concatenate(..., dtype=...) or axis=None")
        out = eqn.outputs[0]
        dtype = numba_type(out.aval.dtype)
        parts = [gen.ref(x) if np.dtype(x.aval.dtype) == np.dtype(out.aval.dtype)
                 else f"{gen.ref(x)}.astype({dtype})" for x in eqn.inputs]
        if any(x.aval.ndim == 0 for x in eqn.inputs):
            raise Unsupported("stacking 0-d values")
        axis = normalize_axis(eqn.params.get("axis", 0), out.aval.ndim)
        function = "np.stack" if stack else "np.concatenate"
        gen.emit(indent, f"{gen.namer(out)} = {function}(({''.join(p + ', ' for p in parts)}), "
                         f"{axis})")
    return emit


def _like(fill):
    def emit(gen, eqn, indent, fused):
        x, *value = eqn.inputs
        out = eqn.outputs[0]
        if eqn.params.get("shape") is not None or value and value[0].aval.ndim:
            raise Unsupported("a *_like with a shape, or an array to fill with")
        dims = [str(d) if d is not None else f"{gen.ref(x)}.shape[{k}]"
                for k, d in enumerate(out.aval.shape)]
        if value:   # NumPy's cast of the fill value (an int that does not fit: a deopt)
            what = ScalarCode(gen, indent).cast(gen.ref(value[0]), out.aval.dtype,
                                                operand_type(value[0]))
        else:
            what = f"{numba_type(out.aval.dtype)}({fill})"
        if not dims:
            gen.emit(indent, f"{gen.namer(out)} = {what}")
            return
        gen.emit(indent, f"{gen.namer(out)} = np.full(({''.join(d + ', ' for d in dims)}), "
                         f"{what})")
    return emit


primitives.native_lowerings[concatenate_p] = ArrayLowering(_join(stack=False))
primitives.native_lowerings[stack_p] = ArrayLowering(_join(stack=True))
primitives.native_lowerings[zeros_like_p] = ArrayLowering(_like("0"))
primitives.native_lowerings[ones_like_p] = ArrayLowering(_like("1"))
primitives.native_lowerings[full_like_p] = ArrayLowering(_like(None))
primitives.native_lowerings[getitem_p] = ArrayLowering(_getitem)
primitives.native_lowerings[split_p] = ArrayLowering(_split)
primitives.native_lowerings[matmul_p] = ArrayLowering(_matmul)
for _p, _kind in ((sum_p, "sum"), (mean_p, "mean"), (max_p, "max"), (min_p, "min"),
                  (all_p, "all"), (any_p, "any"), (argmax_p, "argmax"), (argmin_p, "argmin")):
    primitives.native_lowerings[_p] = Reduction(_reduction(_kind))
primitives.native_lowerings[short_sum_p] = Reduction(_reduction("sum"))   # sums in order
