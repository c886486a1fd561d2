"""A graph as the source of one Numba function: loops and branches as statements.

    graph f(x:f32[3], y:f32[3]) {                def f(x, y):
      t0:f32[3] = multiply x 2.0                     t1 = np.empty((3,), np.float32)
      t1:f32[3] = add t0 y            ->             for i0 in range(3):
      return t1                                          v0 = np.float32(x[i0])
    }                                                    v1 = np.float32(v0 * np.float32(2.0))
                                                         ...
                                                         t1[i0] = v3
                                                     return (t1,)

Scalars (0-d values) are machine numbers of their dtype; an elementwise equation
on arrays whose result only one elementwise equation of the same shape uses is
not stored: the two are one loop (`fusion`), so a chain like
`1 / (1 + np.exp(-x))` makes one loop and one array. A reduction (`sum`, `argmin`,
...) computes its deferred operand's elements in its own loop nest the same way
(`loops.Operand`), so `((a - b) ** 2).sum(axis=2)` stores no `a - b`. Each primitive's lowering is
a row of `primitives.native_lowerings`; an equation without one makes the graph
`Unsupported` (it runs on the NumPy tier, and the reason is shown).
"""
from __future__ import annotations

import itertools

import numpy as np

from .. import primitives
from ..ir import Graph, Literal
from ..printing import Namer
from .scalars import Unsupported, numba_type

RESERVED = {"np", "Deopt", "math", "blas_operand", "objmode", "call_numpy"}


class NativeGen:
    """Builds the source of one Numba function from a graph tree."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.namer = Namer(RESERVED)
        self.lines: list[str] = []
        self.alias: dict[int, str] = {}
        self.const_args: list[tuple[str, object]] = []   # (parameter, array) for consts
        self.python_defs: list[str] = []   # plain Python functions it calls (numpy_kernels)
        self._serial = itertools.count()

    # -- names and lines ---------------------------------------------------------
    def fresh(self, stem: str) -> str:
        return f"{stem}_{next(self._serial)}_"

    def emit(self, indent: str, text: str):
        self.lines.append(indent + text)

    def ref(self, atom) -> str:
        """A value's name, or a literal written as a number."""
        if isinstance(atom, Literal):
            value = atom.value
            if isinstance(value, np.generic):
                value = value.item()
            if isinstance(value, bool) or isinstance(value, int) and abs(value) < 2 ** 63:
                return repr(value)
            if isinstance(value, float):
                if value != value:
                    return "np.nan"
                return repr(value) if abs(value) != float("inf") else \
                    ("np.inf" if value > 0 else "-np.inf")
            raise Unsupported(f"a literal {value!r}")
        alias = self.alias.get(atom.id)
        return alias if alias is not None else self.namer(atom)

    # -- blocks --------------------------------------------------------------------
    def block(self, graph: Graph, indent: str):
        """Emits `graph`'s equations (its inputs already aliased or parameters)."""
        for var, value in graph.consts.items():
            name = self.fresh("c")
            array = np.array(value)  # writable: Numba types read-only arrays apart
            self.const_args.append((name, array if array.ndim else array[()]))
            self.alias[var.id] = name
        fused = fusion(graph)
        for eqn in graph.eqns:
            if id(eqn) in fused.deferred:
                continue
            lowering = primitives.native_lowerings.get(eqn.primitive)
            if lowering is None:
                raise Unsupported(f"primitive {eqn.primitive.name!r}")
            lowering.emit(self, eqn, indent, fused)

    def assign_scalar(self, indent: str, target: str, value: str, aval):
        """`target = value`, cast to `aval`'s dtype (a carried value keeps one type)."""
        if aval.ndim:
            self.emit(indent, f"{target} = {value}")
        else:
            self.emit(indent, f"{target} = {numba_type(scalar_dtype(aval))}({value})")

    def function_source(self, name: str) -> str:
        graph = self.graph
        body_start = len(self.lines)
        self.block(graph, "    ")
        outs = [self.ref(a) for a in graph.outputs]
        self.emit("    ", f"return ({''.join(o + ', ' for o in outs)})")
        params = [self.namer(v) for v in graph.inputs] + [n for n, _ in self.const_args]
        header = f"def {name}({', '.join(params)}):"
        return "\n".join([header] + self.lines[body_start:]) + "\n" + "".join(
            "\n\n" + d for d in self.python_defs)


def scalar_dtype(aval) -> np.dtype:
    """The machine type of a 0-d value: its dtype (a weak int is an int64)."""
    return np.dtype(aval.dtype)


class Fusion:
    """Which equations of a block are computed inside a consumer's loop (`deferred`)."""

    def __init__(self):
        self.deferred: set[int] = set()
        self.producer: dict[int, object] = {}   # Var id -> the deferred eqn making it


def fusion(graph: Graph) -> Fusion:
    """Defers an elementwise equation on arrays whose one use is an elementwise equation
    of the same shape, or a lowering that reads its operand through `loops.Operand`
    (`fuses_operand`: the reductions), in the same block (not an output, not read by
    a subgraph)."""
    out = Fusion()
    uses: dict[int, list] = {}
    for eqn in graph.eqns:
        for atom in eqn.inputs:
            if not isinstance(atom, Literal):
                uses.setdefault(atom.id, []).append(eqn)
    outputs = {a.id for a in graph.outputs if not isinstance(a, Literal)}
    for eqn in graph.eqns:
        lowering = primitives.native_lowerings.get(eqn.primitive)
        if not getattr(lowering, "elementwise", False) or len(eqn.outputs) != 1:
            continue
        var = eqn.outputs[0]
        users = uses.get(var.id, [])
        if var.aval.ndim == 0 or var.id in outputs or len(users) != 1:
            continue
        user = users[0]
        consumer = primitives.native_lowerings.get(user.primitive)
        if sum(a is var for a in user.inputs) != 1:
            continue
        if getattr(consumer, "elementwise", False) and user.outputs[0].aval.shape == \
                var.aval.shape or getattr(consumer, "fuses_operand", False):
            out.deferred.add(id(eqn))
            out.producer[var.id] = eqn
    return out
