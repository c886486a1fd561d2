"""The native tier: a graph compiled into one Numba function (`compile_native`).

Loops and branches become Numba `while` and `if`, scalars machine numbers, and
chains of elementwise equations one loop (`emit.fusion`). The NumPy tier stays
the reference: where the native code meets what NumPy would warn or raise about,
it deopts and the call runs on the NumPy tier (`compile.Deopt`). A graph with a
primitive that has no lowering (`primitives.native_lowerings`), or with effects,
raises `Unsupported` naming it. Numba is imported lazily, in `loader` only.
"""
from .compile import Deopt, compile_native, native_source, unsupported_reason
from .loader import NativeUnavailable, available
from .scalars import Unsupported

__all__ = ["Deopt", "NativeUnavailable", "Unsupported", "available", "compile_native",
           "native_source", "unsupported_reason"]
