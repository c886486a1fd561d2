"""Dead-code elimination: drops equations whose outputs nobody uses.

A backward pass computes cotangents for every input of an equation, and
the forward pass keeps values only the backward pass needed; pruning removes
what the requested outputs do not need. Equations with effects stay (a
print still prints), and so do loops and branches holding them; subgraphs
are pruned inside.
"""
from __future__ import annotations

import dataclasses

from ..ir import Graph, Literal


def has_effects(eqn) -> bool:
    return eqn.primitive.effectful or any(
        has_effects(e) for sub in eqn.subgraphs() for e in sub.eqns)


def prune(graph: Graph) -> Graph:
    """`graph` without the equations its outputs and effects do not need."""
    live = {a.id for a in graph.outputs if not isinstance(a, Literal)}
    kept = []
    for eqn in reversed(graph.eqns):
        if not has_effects(eqn) and not any(v.id in live for v in eqn.outputs):
            continue
        kept.append(_prune_subgraphs(eqn))
        live.update(a.id for a in eqn.inputs if not isinstance(a, Literal))
    consts = {v: x for v, x in graph.consts.items() if v.id in live}
    return Graph(graph.name, graph.inputs, kept[::-1], graph.outputs, consts)


def _prune_subgraphs(eqn):
    if not any(True for _ in eqn.subgraphs()):
        return eqn
    params = {}
    for key, value in eqn.params.items():
        if isinstance(value, Graph):
            value = prune(value)
        elif isinstance(value, tuple) and any(isinstance(g, Graph) for g in value):
            value = tuple(prune(g) if isinstance(g, Graph) else g for g in value)
        params[key] = value
    return dataclasses.replace(eqn, params=params)


def reads(graph: Graph) -> set:
    """The ids of the Vars that `graph`'s equations and outputs read."""
    read = {a.id for a in graph.outputs if not isinstance(a, Literal)}
    for eqn in graph.eqns:
        read.update(a.id for a in eqn.inputs if not isinstance(a, Literal))
    return read
