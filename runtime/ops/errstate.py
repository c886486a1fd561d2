"""`errstate`: the equations traced inside `with np.errstate(...)` run inside it.

`errstate(**modes)` is a context manager: outside a trace it is
`np.errstate(**modes)`; inside one it is that too (for the Python code it
runs) and, on leaving, it gathers the equations traced in its body into one
`errstate` equation that holds them as a subgraph and whose kernel runs it
within `np.errstate(**modes)`. So a graph raises `FloatingPointError` where
the eager code does, not merely warns. Its operands are the values the body
read from outside; its outputs every value the body made.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue
>>> from autograph_runtime.tracing import trace_to_graph
>>> def f(x):
...     with errstate(divide="raise"):
...         y = 1.0 / x
...     return y + 1
>>> print(trace_to_graph(f, (AbstractValue((), np.float64),), name="f").graph)
graph f(t0:f64[]) {
  t1:f64[] = errstate[modes=(('divide', 'raise'),)] t0
    graph(t2:f64[]) {
      t3:f64[] = divide 1.0 t2
      return t3
    }
  t4:f64[] = add t1 1
  return t4
}

Gradients go through the body as through a `call` (without the error modes).
"""
from __future__ import annotations

import contextlib

import numpy as np

from ..ir import Eqn, Graph, Var
from ..tracer import current_builder
from .higher_order import define_higher_order


def _abstract_eval(*operands, graph, modes):
    return [a.aval for a in graph.outputs]


def _kernel(xp, run_graph, graph, modes):
    run, settings = run_graph(graph), dict(modes)

    def within(*operands):
        with np.errstate(**settings):
            return run(*operands)
    return within


def _bindings(eqn):
    return [(eqn.params["graph"], eqn.inputs)]


errstate_p = define_higher_order("errstate", _abstract_eval, _kernel, bindings=_bindings,
                                 prune=None)


@contextlib.contextmanager
def errstate(**modes):
    """`np.errstate(**modes)`, whose traced equations run within it when the graph runs."""
    builder = current_builder()
    with np.errstate(**modes):
        mark = len(builder.eqns) if builder is not None else None
        yield
    if builder is not None and len(builder.eqns) > mark:
        _gather(builder, mark, tuple(sorted(modes.items())))


def _gather(builder, mark: int, modes: tuple) -> None:
    """Replaces `builder.eqns[mark:]` by one `errstate` equation holding them."""
    eqns = builder.eqns[mark:]
    made = {v.id for eqn in eqns for v in eqn.outputs}
    outer, inner = [], {}  # the outer Vars the body reads, and each one's inner Var

    def inside(atom):
        if not isinstance(atom, Var):
            return atom
        if atom.id not in inner:
            inner[atom.id] = Var(atom.aval, atom.name)
            if atom.id not in made:
                outer.append(atom)
        return inner[atom.id]

    body = [Eqn(e.primitive, [inside(a) for a in e.inputs], e.params,
                [inside(v) for v in e.outputs], e.source) for e in eqns]
    outputs = [v for eqn in eqns for v in eqn.outputs]
    graph = Graph("graph", [inner[v.id] for v in outer], body, [inner[v.id] for v in outputs])
    del builder.eqns[mark:]
    builder.eqns.append(Eqn(errstate_p, outer, {"graph": graph, "modes": modes}, outputs,
                            eqns[-1].source))
