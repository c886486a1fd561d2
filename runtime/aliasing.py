"""Which results of a graph may be arrays the graph does not own.

Captured constants and variables' stored values are read-only arrays shared
by every run; a graph that returns one of them (or a NumPy view of one) must
return a copy, or the caller could change it. `storage_outputs` finds those
outputs, following views and the subgraphs of control flow.
"""
from __future__ import annotations

from . import primitives
from .ir import Graph, Var


def storage_outputs(graph: Graph, aliased_inputs=frozenset()) -> set[int]:
    """Indices of `graph.outputs` that may share memory with storage.

    `aliased_inputs` holds the ids of input Vars that may themselves be storage.
    A higher-order primitive's `primitives.alias_rules` entry says which of its
    outputs may be storage (a loop needs a fixpoint over its body).
    """
    shared = set(aliased_inputs) | {v.id for v in graph.consts}
    for eqn in graph.eqns:
        prim = eqn.primitive
        if prim.state is not None:
            shared.update(v.id for v in eqn.outputs)
        elif prim.views and eqn.inputs and _is(eqn.inputs[0], shared):
            shared.update(v.id for v in eqn.outputs)
        elif prim in primitives.alias_rules:
            rule = primitives.alias_rules[prim]
            shared.update(eqn.outputs[i].id for i in rule(eqn, shared, storage_outputs))
    return {i for i, a in enumerate(graph.outputs) if _is(a, shared)}


def _is(atom, shared) -> bool:
    return isinstance(atom, Var) and atom.id in shared
