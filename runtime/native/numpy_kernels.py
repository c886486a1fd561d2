"""Large elementwise chains on NumPy's own kernels, from inside the native code.

Numba computes `exp`, `tanh`, `log`, `sin` and `cos` one element at a time through
libm; NumPy's loops are vectorized (SIMD), from 3x (`exp`) to 40x (`tanh`)
faster per element. So a fused chain (`emit.fusion`) that calls one of them, on
arrays of at least `VECTORIZED[name]` elements (all dimensions known), or any
chain from `ARITHMETIC_FROM` elements, is not a loop: it is a plain Python
function of NumPy calls, the same calls the NumPy tier makes (one expression, so
each temporary is freed once read), written beside the native function and
called from a `numba.objmode` block (`helpers.call_numpy`); so is a float matrix product from `MATMUL_FROM`
multiply-adds (`array_rules`, NumPy's `matmul`):

    def native_lstm_cell(x, h, c, W, U, b):
        ...
        with objmode(h_new="float32[:, ::1]", ok_14_="boolean"):
            h_new, ok_14_ = call_numpy(numpy_k_13_, (64, 512, ), np.float32, o, c_new)
        if not ok_14_:
            raise Deopt()
        ...

    def numpy_k_13_(a0, a1):
        return np.multiply(np.divide(1, np.add(1, np.exp(np.negative(a0)))), np.tanh(a1))

The results are NumPy's, bit for bit. Under `np.errstate(over=, divide=,
invalid="raise")` (underflow as the caller set it), a floating-point error, or
any other exception, makes the call deopt to the NumPy tier, which gives NumPy's
warning or error, as the fused loops' float checks do. Smaller chains stay
fused loops (no temporaries, no call). A graph whose every operation would be
such a call (the cell above) stays on the NumPy tier (`compile._only_numpy_calls`),
which makes the same calls without the transitions.
"""
from __future__ import annotations

import numpy as np

from ..ir import Literal
from ..ops.elementwise import ELEMENTWISE_UFUNCS, ufunc_primitive
from .scalars import numba_type, operand_type

# From how many elements a chain calling each of these runs on NumPy (an objmode call
# costs about 5 µs; per element Numba's tanh is 16 ns, NumPy's 0.4 ns; exp 2.5 and 0.8 ns).
VECTORIZED = {"tanh": 512, "exp": 2_048, "log": 2_048, "sin": 2_048, "cos": 2_048}
ARITHMETIC_FROM = 16_384   # elements, any chain (the fused loop's float checks do not vectorize)
MATMUL_FROM = 2_000_000    # multiply-adds: NumPy's matmul; below, Numba's BLAS call (np.dot)

_UFUNCS = {ufunc_primitive(u): u for u in ELEMENTWISE_UFUNCS}
_NUMBA_NAMES = {"b": "boolean", "i": "int{}", "u": "uint{}", "f": "float{}"}


def takes(tree) -> bool:
    """Whether the fused chain `tree` (producers first) runs on NumPy's kernels."""
    shape = tree[-1].outputs[0].aval.shape
    size = int(np.prod(shape)) if None not in shape else 0
    if size < min(ARITHMETIC_FROM, *VECTORIZED.values()):
        return False
    ufuncs = [_UFUNCS.get(e.primitive) for e in tree]
    if any(u is None or e.params.get("dtype") is not None or len(e.outputs) != 1
           for u, e in zip(ufuncs, tree)):
        return False
    if np.dtype(tree[-1].outputs[0].aval.dtype).kind not in "biuf":
        return False
    return size >= min([ARITHMETIC_FROM] + [VECTORIZED.get(u.__name__, ARITHMETIC_FROM)
                                             for u in ufuncs])


def numba_array_type(aval) -> str:
    """The Numba type of a C-ordered array like `aval` (`float32[:, ::1]`)."""
    dtype = np.dtype(aval.dtype)
    name = _NUMBA_NAMES[dtype.kind].format(dtype.itemsize * 8)
    return f"{name}[{', '.join([':'] * (aval.ndim - 1) + ['::1'])}]"


def emit(gen, indent: str, tree) -> None:
    """Emits, at `indent`, `tree`'s root computed by NumPy (a deopt where NumPy would
    warn or raise); the Python function of its calls goes to `gen.python_defs`."""
    made = {e.outputs[0].id for e in tree}
    params, args, names = [], [], {}
    for e in tree:
        for atom in e.inputs:
            if isinstance(atom, Literal) or atom.id in made or atom.id in names:
                continue
            names[atom.id] = param = f"a{len(params)}"
            params.append(param)
            args.append(gen.ref(atom))
            if atom.aval.ndim == 0:   # a machine number: boxed as a Python number
                kind = operand_type(atom)
                to = kind.__name__ if isinstance(kind, type) else numba_type(kind)
                names[atom.id] = f"{to}({param})"
    kernel = gen.fresh("numpy_k")
    for e in tree:   # one expression: each temporary is freed as soon as it is read
        refs = [_literal(a, gen) if isinstance(a, Literal) else names[a.id] for a in e.inputs]
        names[e.outputs[0].id] = f"np.{_UFUNCS[e.primitive].__name__}({', '.join(refs)})"
    lines = [f"def {kernel}({', '.join(params)}):",
             f"    return {names[tree[-1].outputs[0].id]}"]
    gen.python_defs.append("\n".join(lines) + "\n")
    emit_call(gen, indent, tree[-1].outputs[0], kernel, args)


def emit_call(gen, indent: str, out, kernel: str, args: list[str]) -> None:
    """Emits `out = kernel(*args)` run by NumPy in a `numba.objmode` block (`out`'s
    shape known), and a deopt where `helpers.call_numpy` says NumPy warned or raised."""
    target, ok = gen.namer(out), gen.fresh("ok")
    shape = "(" + "".join(f"{d}, " for d in out.aval.shape) + ")"
    gen.emit(indent, f'with objmode({target}="{numba_array_type(out.aval)}", {ok}="boolean"):')
    gen.emit(indent + "    ", f"{target}, {ok} = call_numpy({kernel}, {shape}, "
                              f"{numba_type(out.aval.dtype)}, {', '.join(args)})")
    gen.emit(indent, f"if not {ok}:")
    gen.emit(indent + "    ", "raise Deopt()")


def _literal(atom, gen) -> str:
    """A literal as NumPy's promotion must see it: a Python number where it is weak,
    a NumPy scalar of its dtype otherwise."""
    text = gen.ref(atom)
    kind = operand_type(atom)
    return text if isinstance(kind, type) else f"{numba_type(kind)}({text})"
