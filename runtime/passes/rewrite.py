"""What every pass shares: substituting values, rebuilding graphs, and escape analysis.

A pass maps a `Graph` to a new `Graph` (never changing the one it is given,
which a `call` or the cache may share). Values are replaced by a
`Substitution` (Var id -> atom); subgraphs see only their own inputs, so a
substitution made in one graph never reaches into another's: each graph is
rewritten on its own, by `each_subgraph`.

`escaping(graph)` is what makes removing copies safe: a value whose memory the
caller may see (a graph output, or a value such an output is a view of, or one
an effect such as a variable write keeps) must stay a fresh array wherever
eager NumPy makes one, so `x * 1` is never rewritten into the input `x`
itself when the result escapes.
"""
from __future__ import annotations

from ..effects import effects_of
from ..ir import Eqn, Graph, Literal, Var


class Substitution(dict):
    """Var id -> the atom standing for it from now on."""

    def __call__(self, atom):
        return atom if type(atom) is Literal else self.get(atom.id, atom)

    def eqn(self, eqn: Eqn) -> Eqn:
        """`eqn` reading the substituted atoms (itself where none changes)."""
        if not self or not any(type(a) is not Literal and a.id in self for a in eqn.inputs):
            return eqn
        inputs = [self(a) for a in eqn.inputs]
        return Eqn(eqn.primitive, inputs, eqn.params, eqn.outputs, eqn.source)


def rebuilt(graph: Graph, eqns: list, subst: Substitution, consts=None) -> Graph:
    """`graph` with `eqns` (already substituted), its outputs substituted and `consts` added."""
    outputs = [subst(a) for a in graph.outputs]
    all_consts = dict(graph.consts)
    all_consts.update(consts or {})
    return Graph(graph.name, graph.inputs, eqns, outputs, all_consts)


def each_subgraph(eqn: Eqn, rewrite) -> Eqn:
    """`eqn` with every subgraph in its params rewritten by `rewrite(graph)`."""
    if not eqn.params:
        return eqn
    changed = False
    params = {}
    for key, value in eqn.params.items():
        if isinstance(value, Graph):
            new = rewrite(value)
        elif isinstance(value, tuple) and any(isinstance(g, Graph) for g in value):
            new = tuple(rewrite(g) if isinstance(g, Graph) else g for g in value)
            new = value if all(a is b for a, b in zip(new, value)) else new
        else:
            new = value
        changed |= new is not value
        params[key] = new
    return Eqn(eqn.primitive, eqn.inputs, params, eqn.outputs, eqn.source) if changed else eqn


def is_pure(eqn: Eqn) -> bool:
    """No effects (I/O, random draws, variable reads or writes) and no subgraphs."""
    prim = eqn.primitive
    if prim.higher_order or prim.effectful or prim.state is not None:
        return False
    return not eqn.params or next(eqn.subgraphs(), None) is None


def has_effects(eqn: Eqn) -> bool:
    """`effects_of(eqn).any`, answered without looking where no subgraph can hide any."""
    return not is_pure(eqn) and effects_of(eqn).any


def escaping(graph: Graph) -> set[int]:
    """Ids of the values whose memory may outlive the graph's own use of them.

    Outputs escape; so do the operands of an equation with effects (a variable
    write stores its value) and, backwards, the base of a view that escapes and
    every operand of a higher-order equation one of whose results escapes (a
    branch or loop may pass an operand on as it is).
    """
    escapes = {a.id for a in graph.outputs if isinstance(a, Var)}
    for eqn in reversed(graph.eqns):
        prim = eqn.primitive
        out_escapes = any(v.id in escapes for v in eqn.outputs)
        if (out_escapes and (prim.views or prim.higher_order)) or has_effects(eqn):
            escapes.update(a.id for a in eqn.inputs if isinstance(a, Var))
    return escapes


class Escaping:
    """`escaping(graph)`, computed the first time a pass asks (most graphs never need it)."""

    def __init__(self, graph: Graph):
        self._graph, self._ids = graph, None

    def __contains__(self, var_id) -> bool:
        if self._ids is None:
            self._ids = escaping(self._graph)
        return var_id in self._ids

    def add(self, var_id) -> None:
        if self._ids is None:
            self._ids = escaping(self._graph)
        self._ids.add(var_id)


def producers(graph: Graph) -> dict[int, Eqn]:
    """Var id -> the equation of `graph` computing it."""
    return {v.id: eqn for eqn in graph.eqns for v in eqn.outputs}
