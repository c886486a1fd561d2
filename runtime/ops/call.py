"""`call`: one graph function used inside another, as a single equation.

A graph function called while another is traced does not inline its Python:
its own traced graph (from its own cache) becomes a `call` equation, so graph
functions compose like operations.
"""
from __future__ import annotations

from .. import primitives
from ..ir import Graph
from ..tracer import current_builder


def _abstract_eval(*operands, graph):
    return [a.aval for a in graph.outputs]


def _kernel(xp, graph):
    from ..backend import backend_for_module
    from ..codegen import compile_graph
    return compile_graph(graph, backend_for_module(xp))


call_p = primitives.define("call", _abstract_eval, _kernel, multiple_results=True)


def call(graph: Graph, *args, variables=()):
    """Appends `graph(*args)` to the graph being traced; returns its output Tracers.

    `variables` are bound to the graph's last inputs, its resources.
    """
    builder = current_builder()
    atoms = [builder.atom(a) for a in args] + [builder.resource(v) for v in variables]
    return builder.add_eqn(call_p, atoms, {"graph": graph})
