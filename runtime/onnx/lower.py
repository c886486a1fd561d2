"""Walks a graph's equations and writes each through its row of `primitives.onnx_lowerings`.

A row is a `Lowering`: `fn(cx)` writes the equation through `cx` (a `Context`:
its operands' names and types, its params, the `Scope`) and returns the ONNX
names of its outputs, each of the output's dtype; `opset` is the ONNX opset the
nodes it writes need. The last node computing an output is renamed after the
user's variable (`Var.name`), so the model reads as the source does.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from .. import primitives
from ..errors import ExportError
from ..ir import Literal
from .builder import LazyConst, Scope, VariableSlot


@dataclasses.dataclass(frozen=True)
class Lowering:
    fn: object
    opset: int


def lowering(*prims, opset: int = 13):
    """Decorator: `fn(cx)` lowers each primitive in `prims` (needing `opset`)."""
    def register(fn):
        for prim in prims:
            primitives.onnx_lowerings[prim] = Lowering(fn, opset)
        return fn
    return register


def refuse(eqn, reason: str):
    """The `ExportError` for an equation that cannot be exported, at the user's line."""
    where = f" at {eqn.source}" if eqn.source else ""
    return ExportError(f"cannot export {eqn.primitive.name}{where} to ONNX: {reason}")


class Context:
    """One equation being lowered: its atoms, avals and params, and the scope to write to."""

    def __init__(self, scope: Scope, eqn):
        self.scope, self.eqn = scope, eqn
        self.params = eqn.params
        self.in_avals = [a.aval for a in eqn.inputs]
        self.out_avals = [v.aval for v in eqn.outputs]

    @property
    def out_dtype(self):
        return np.dtype(self.out_avals[0].dtype)

    def arg(self, i: int, dtype=None) -> str:
        """Operand i's ONNX name, as `dtype` where given."""
        return self.scope.atom(self.eqn.inputs[i], dtype)

    def args(self, dtype=None) -> list:
        return [self.arg(i, dtype) for i in range(len(self.eqn.inputs))]

    def literal(self, i: int):
        """Operand i's value where it is a literal, else None."""
        atom = self.eqn.inputs[i]
        return atom.value if isinstance(atom, Literal) else None

    def node(self, op, inputs, n_out=1, **attrs):
        return self.scope.node(op, inputs, n_out, **attrs)

    def const(self, value, dtype=None):
        return self.scope.const(value, dtype)

    def cast(self, name, source, to):
        return self.scope.cast(name, source, to)

    def ints(self, values) -> str:
        """A 1-d int64 initializer (axes, shapes, starts...)."""
        return self.scope.const(np.asarray(list(values), dtype=np.int64))

    def refuse(self, reason: str):
        return refuse(self.eqn, reason)

    def need(self, opset: int, what: str):
        self.scope.model.need(opset, what, self.eqn.source)


def lower_graph(scope: Scope, graph) -> None:
    """Writes the equations of `graph` (its inputs bound already) into `scope`, binding
    their outputs in `scope.env`; its captured constants are initializers."""
    for var, value in graph.consts.items():
        scope.env[var.id] = LazyConst(value, var.name or "const")
    for eqn in graph.eqns:
        rule = primitives.onnx_lowerings.get(eqn.primitive)
        if rule is None:
            raise refuse(eqn, "it has no ONNX lowering (no row in primitives.onnx_lowerings)")
        scope.model.need(rule.opset, f"the lowering of {eqn.primitive.name}", eqn.source)
        start = len(scope.nodes)
        try:
            names = rule.fn(Context(scope, eqn))
        except OverflowError as error:   # a Python int literal beyond int64
            raise refuse(eqn, f"a Python int that 64 bits cannot hold ({error})") from None
        for var, name in zip(eqn.outputs, names):
            if isinstance(name, str) and var.name and name in scope.produced \
                    and name not in names[:eqn.outputs.index(var)] \
                    and scope.renamable(name, start):
                better = scope.model.fresh(var.name)
                scope.rename(name, better, start)
                name = better
            scope.env[var.id] = name


def bind_names(scope: Scope, graph_inputs, names) -> None:
    """Binds a graph's input Vars to ONNX names (or `VariableSlot`s)."""
    for var, name in zip(graph_inputs, names):
        scope.env[var.id] = name


def output_names(scope: Scope, atoms, dtypes) -> list:
    """Names of a subgraph's outputs computed in `scope` itself, each as its dtype
    (an `Identity` where the value comes from outside, as ONNX subgraphs need);
    an atom may be an ONNX name already (of that dtype)."""
    names = []
    for atom, dtype in zip(atoms, dtypes):
        name = atom if isinstance(atom, str) else scope.atom(atom, dtype)
        if name not in scope.produced or name in names:
            name = scope.node("Identity", [name])
        names.append(name)
    return names


__all__ = ["Context", "Lowering", "VariableSlot", "bind_names", "lower_graph", "lowering",
           "output_names", "refuse"]
