"""Effects of equations, the order they impose, and dead-code pruning that keeps them.

Graphs keep equations in program order; data flow alone does not say which
order stateful equations need. It follows from their effects:

- `read_variable` reads a resource; `assign_variable` writes one;
- `print`, `assert` and `py_function` do I/O (or anything: a `py_function`
  may read and write variables itself);
- higher-order primitives (`cond`, `while_loop`, `call`) have the effects of
  their subgraphs, mapped onto the enclosing graph's resources through their
  `primitives.subgraph_bindings` (or what their `primitives.effect_rules` say).

`control_dependencies` turns them into the edges a scheduler must respect
besides data flow: accesses to one variable keep program order (reads after
the write before them, a write after every earlier access), I/O keeps program
order with every variable access and other I/O, and accesses to different
variables are unordered. `prune_dead_code` drops equations whose results are
unused, except those with effects: a write nobody reads still runs.
"""
from __future__ import annotations

import dataclasses

from . import primitives
from .ir import Eqn, Graph, Literal, Var


@dataclasses.dataclass(frozen=True)
class Effects:
    """Resources (Var ids of the graph holding the equation) read and written, and I/O."""

    reads: frozenset = frozenset()
    writes: frozenset = frozenset()
    io: bool = False

    @property
    def touches_state(self) -> bool:
        return bool(self.reads or self.writes)

    @property
    def any(self) -> bool:
        return self.io or self.touches_state

    def __or__(self, other: "Effects") -> "Effects":
        return Effects(self.reads | other.reads, self.writes | other.writes,
                       self.io or other.io)


NONE = Effects()


def subgraph_operands(eqn: Eqn) -> list[tuple[Graph, list | None]]:
    """Each subgraph of `eqn` with the outer atoms bound to its inputs (`subgraph_bindings`).

    A primitive without that rule gives None for the atoms: they are unknown.
    """
    rule = primitives.subgraph_bindings.get(eqn.primitive)
    return rule(eqn) if rule is not None else [(g, None) for g in eqn.subgraphs()]


def effects_of(eqn: Eqn) -> Effects:
    """What `eqn` does besides computing its outputs."""
    prim = eqn.primitive
    if prim.state == "read":
        return Effects(reads=frozenset([eqn.inputs[0].id]))
    if prim.state == "write":
        return Effects(writes=frozenset([eqn.inputs[0].id]))
    if prim.effectful:
        return Effects(io=True)
    if not prim.higher_order and not any(isinstance(v, (Graph, tuple))
                                         for v in eqn.params.values()):
        return NONE
    rule = primitives.effect_rules.get(prim)
    if rule is not None:
        return rule(eqn)
    total = NONE  # by default, the effects of the subgraphs on the operands bound to them
    for graph, operands in subgraph_operands(eqn):
        inner = graph_effects(graph)
        if not inner.any:
            continue
        if operands is None:  # an unknown higher-order primitive: assume the worst
            return Effects(io=True)
        outer = {v.id: a.id for v, a in zip(graph.inputs, operands) if isinstance(a, Var)}
        total |= Effects(frozenset(outer[r] for r in inner.reads),
                         frozenset(outer[r] for r in inner.writes), inner.io)
    return total


def graph_effects(graph: Graph) -> Effects:
    """The effects of all of `graph`'s equations, on its own input resources."""
    total = NONE
    for eqn in graph.eqns:
        total |= effects_of(eqn)
    return total


def control_dependencies(graph: Graph) -> list[set[int]]:
    """For each equation, the earlier equations it must follow besides its data inputs."""
    last_write: dict[int, int] = {}
    reads_since_write: dict[int, list[int]] = {}
    last_io = None
    accesses_since_io: list[int] = []
    deps: list[set[int]] = []
    for i, eqn in enumerate(graph.eqns):
        effects = effects_of(eqn)
        before: set[int] = set()
        for r in effects.reads:
            if r in last_write:
                before.add(last_write[r])
        for r in effects.writes:
            if r in last_write:
                before.add(last_write[r])
            before.update(reads_since_write.get(r, ()))
        if effects.any and last_io is not None:
            before.add(last_io)
        if effects.io:
            before.update(accesses_since_io)
        deps.append(before)
        for r in effects.reads:
            reads_since_write.setdefault(r, []).append(i)
        for r in effects.writes:
            last_write[r] = i
            reads_since_write[r] = []
        if effects.io:
            last_io, accesses_since_io = i, []
        elif effects.touches_state:
            accesses_since_io.append(i)
    return deps


def prune_dead_code(graph: Graph) -> Graph:
    """`graph` without the equations whose results nothing uses and that have no effects.

    Subgraphs are pruned too, where the primitive has a `primitives.prune_rules`
    entry (`cond` and `while_loop`; a `call` keeps its callee, which other callers
    share), and a `cond`'s outputs nothing reads are dropped from it and its branches. Returns `graph` itself where nothing is dropped.
    """
    live = {a.id for a in graph.outputs if isinstance(a, Var)}
    kept: list[Eqn] = []
    changed = False
    for eqn in reversed(graph.eqns):
        effects = effects_of(eqn)
        if not (effects.writes or effects.io) and not any(v.id in live for v in eqn.outputs):
            changed = True
            continue
        pruned = _prune_subgraphs(eqn, live)
        changed |= pruned is not eqn
        kept.append(pruned)
        live.update(a.id for a in pruned.inputs if not isinstance(a, Literal))
    if not changed:
        return graph
    kept.reverse()
    consts = {v: c for v, c in graph.consts.items() if v.id in live}
    return Graph(graph.name, graph.inputs, kept, graph.outputs, consts)


def _prune_subgraphs(eqn: Eqn, live: set) -> Eqn:
    rule = primitives.prune_rules.get(eqn.primitive)
    return rule(eqn, prune_dead_code, live) if rule is not None else eqn
