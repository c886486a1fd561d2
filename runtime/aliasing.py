"""Which results of a graph may be arrays the graph does not own.

Captured constants and variables' stored values are read-only arrays shared
by every run; a graph that returns one of them (or a NumPy view of one) must
return a copy, or the caller could change it. `storage_outputs` finds those
outputs, following views and the subgraphs of control flow.
"""
from __future__ import annotations

from .effects import subgraph_operands
from .ir import Graph, Var


def storage_outputs(graph: Graph, aliased_inputs=frozenset()) -> set[int]:
    """Indices of `graph.outputs` that may share memory with storage.

    `aliased_inputs` holds the ids of input Vars that may themselves be storage.
    """
    shared = set(aliased_inputs) | {v.id for v in graph.consts}
    for eqn in graph.eqns:
        prim = eqn.primitive
        if prim.state is not None:
            shared.update(v.id for v in eqn.outputs)
        elif prim.views and eqn.inputs and _is(eqn.inputs[0], shared):
            shared.update(v.id for v in eqn.outputs)
        elif prim.name in ("cond", "while_loop", "call"):
            shared.update(eqn.outputs[i].id for i in _control_flow_outputs(eqn, shared))
    return {i for i, a in enumerate(graph.outputs) if _is(a, shared)}


def _is(atom, shared) -> bool:
    return isinstance(atom, Var) and atom.id in shared


def _bound(graph: Graph, operands, shared) -> set[int]:
    return {v.id for v, a in zip(graph.inputs, operands) if _is(a, shared)}


def _control_flow_outputs(eqn, shared) -> set[int]:
    if eqn.primitive.name != "while_loop":  # cond's branches, call's graph
        return set().union(*(storage_outputs(graph, _bound(graph, operands, shared))
                             for graph, operands in subgraph_operands(eqn)))
    _, (body, operands) = subgraph_operands(eqn)
    carried = {i for i in range(len(body.outputs)) if _is(operands[i], shared)}
    while True:  # a carried value is storage if it starts as, or becomes, storage
        inputs = _bound(body, operands, shared) | {body.inputs[i].id for i in carried}
        grown = carried | storage_outputs(body, inputs)
        if grown == carried:
            return carried
        carried = grown
