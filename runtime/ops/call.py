"""`call`: one graph function used inside another, as a single equation.

A graph function called while another is traced does not inline its Python:
its own traced graph (from its own cache) becomes a `call` equation, so graph
functions compose like operations. Its operands bind to the callee's inputs
in order; its kernel runs the callee through `run_graph`.
"""
from __future__ import annotations

from .. import primitives
from ..ir import Graph
from ..tracer import current_builder
from .higher_order import define_higher_order


def _abstract_eval(*operands, graph):
    return [a.aval for a in graph.outputs]


def _kernel(xp, run_graph, graph):
    return run_graph(graph)


def _bindings(eqn):
    return [(eqn.params["graph"], eqn.inputs)]


call_p = define_higher_order("call", _abstract_eval, _kernel, bindings=_bindings, prune=None)
primitives.callee_params[call_p] = "graph"   # `--dot` names the callee


def call(graph: Graph, *args, variables=()):
    """Appends `graph(*args)` to the graph being traced; returns its output Tracers.

    `variables` are bound to the graph's last inputs, its resources.
    """
    builder = current_builder()
    atoms = [builder.atom(a) for a in args] + [builder.resource(v) for v in variables]
    return builder.add_eqn(call_p, atoms, {"graph": graph})
