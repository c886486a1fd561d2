"""`grad_graph`: a graph's outputs and the gradient of its first output, as one graph.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as b:
...     x = b.new_input(AbstractValue((3,), np.float32), "x")
...     y = np.sum(np.sin(x) * x)
>>> print(grad_graph(b.build([y]), [True]))
graph grad_f(x:f32[3]) {
  const t0:f32[]
  t1:f32[3] = sin x
  t2:f32[3] = multiply t1 x
  t3:f32[] = sum[axis=None, keepdims=False] t2
  t4:f32[3] = broadcast_to[shape=(3,)] t0
  t5:f32[3] = multiply t4 x
  t6:f32[3] = multiply t4 t1
  t7:f32[3] = cos x
  t8:f32[3] = multiply t5 t7
  t9:f32[3] = add t6 t8
  return t3, t9
}
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph
from ..tracing import trace_to_graph
from .cotangents import as_tracer, differentiable, zeros
from .linearize import linearize
from .prune import prune


def check_differentiable_input(aval, label: str) -> None:
    """Raises TypeError unless a value of type `aval` can be differentiated with respect to."""
    if not differentiable(aval):
        raise TypeError(f"gradient with respect to {label} of type {aval}: only floating-point "
                        f"arrays have gradients (cast integers with .astype(np.float64))")


def check_scalar_output(aval, label: str = "the function's output") -> None:
    """Raises TypeError unless `aval` is a floating-point scalar (a loss)."""
    if aval.shape != () or aval.dtype.kind != "f":
        raise TypeError(f"gradients are defined for functions returning one floating-point "
                        f"scalar; {label} is {aval} (reduce it, e.g. with .sum(), first)")


def grad_graph(graph: Graph, wrt, name: str | None = None) -> Graph:
    """A graph returning `graph`'s outputs, then d(first output)/d(input i) where `wrt[i]`."""
    for var, selected in zip(graph.inputs, wrt):
        if selected:
            check_differentiable_input(var.aval, f"input {var.name or ''}".rstrip())
    check_scalar_output(graph.outputs[0].aval)

    def forward_and_backward(*inputs):
        outs, backward = linearize(graph, list(inputs), wrt)
        seed = as_tracer(np.ones((), graph.outputs[0].aval.dtype))
        cts = backward([seed] + [None] * (len(outs) - 1))
        grads = [ct if ct is not None else zeros(v.aval, like=x)
                 for v, x, w, ct in zip(graph.inputs, inputs, wrt, cts) if w]
        return outs + grads

    traced = trace_to_graph(forward_and_backward, [v.aval for v in graph.inputs],
                            name=name or f"grad_{graph.name}",
                            input_names=[v.name for v in graph.inputs], is_output=None)
    return prune(traced.graph)
