"""Rules shared by the higher-order primitives (`cond`, `while_loop`, `call`).

Each primitive registers its rules next to its definition; those that follow
from its subgraph bindings alone (`primitives.subgraph_bindings`) are here:
operand types that must fit the subgraph inputs they are bound to, outputs
that are a subgraph's outputs (storage where the subgraph's are), and pruning
each subgraph param.
"""
from __future__ import annotations

from .. import primitives
from ..ir import Eqn, Graph, Var


def bound_types(eqn: Eqn) -> list:
    """`(input type, operand type)` for each subgraph input and the outer atom bound to it."""
    return [(v.aval, a.aval) for graph, operands in primitives.subgraph_bindings[eqn.primitive](eqn)
            for v, a in zip(graph.inputs, operands)]


def bound_storage(inputs, operands, shared) -> set[int]:
    """The ids of the subgraph `inputs` bound to outer atoms that may be storage."""
    return {v.id for v, a in zip(inputs, operands) if isinstance(a, Var) and a.id in shared}


def outputs_of_subgraphs(eqn: Eqn, shared, storage_outputs) -> set[int]:
    """Alias rule where output i is output i of one of the subgraphs (a branch, a callee)."""
    return set().union(*(storage_outputs(graph, bound_storage(graph.inputs, operands, shared))
                         for graph, operands in primitives.subgraph_bindings[eqn.primitive](eqn)))


def prune_subgraphs(eqn: Eqn, prune, live=None) -> Eqn:
    """`eqn` with each graph-valued param pruned (itself where nothing changes); `live`
    (the ids of the values read after it) is for rules that drop unread outputs."""
    params = {k: prune(v) if isinstance(v, Graph) else v for k, v in eqn.params.items()}
    if all(params[k] is eqn.params[k] for k in params):
        return eqn
    return Eqn(eqn.primitive, eqn.inputs, params, eqn.outputs, eqn.source)


def define_higher_order(name: str, abstract_eval_rule, kernel, *, bindings,
                        check=bound_types, alias=outputs_of_subgraphs, prune=prune_subgraphs,
                        load=None, hidden=()):
    """Defines a primitive holding subgraphs and fills its rows of the rule tables.

    The defaults fit a primitive whose outputs are its subgraphs' outputs (a
    branch, a callee); `prune=None` keeps its subgraphs unpruned.
    """
    prim = primitives.define(name, abstract_eval_rule, kernel, multiple_results=True,
                             higher_order=True)
    primitives.subgraph_bindings[prim] = bindings
    primitives.check_rules[prim] = check
    primitives.alias_rules[prim] = alias
    if prune is not None:
        primitives.prune_rules[prim] = prune
    if load is not None:
        primitives.load_rules[prim] = load
    if hidden:
        primitives.hidden_params[prim] = tuple(hidden)
    return prim
