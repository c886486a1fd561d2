"""Reverse-mode automatic differentiation of graphs.

`grad_graph(graph, wrt)` returns a graph computing `graph`'s outputs and the
gradient of its first output with respect to the inputs `wrt` selects. It
works on the IR: every differentiable primitive has a vector-Jacobian rule in
`primitives.vjp_rules`, written with NumPy on traced values (so a gradient
graph is a graph like any other, and can be differentiated again); `cond`,
`while_loop` and `call` have rules in `linearize.linearize_rules` that change
their forward pass to keep what their backward pass reads.

| module | what it holds |
| --- | --- |
| `linearize.py` | the transformation: forward pass emitted, backward pass returned |
| `control_flow.py` | `cond`, `while_loop` (trip count and stacks) and `call` |
| `stack.py` | the stack primitives a differentiated loop saves its values on |
| `cotangents.py` | undoing broadcasting, keeping dtypes, zeros; `sum_to_shape` |
| `rules_*.py` | the rules, one module per family of primitives |
| `prune.py` | dead-code elimination of what the requested outputs do not need |
| `transform.py` | `grad_graph` |
"""
from . import (  # noqa: F401  (fill the rule tables)
    control_flow,
    rules_building,
    rules_elementwise,
    rules_indexing,
    rules_linalg,
    rules_methods,
    rules_np_linalg,
    rules_other,
    rules_random,
    rules_reductions,
    rules_shapes,
    rules_sizes,
    rules_statistics,
)
from .linearize import emit_graph, linearize, linearize_rules
from .prune import prune
from .transform import grad_graph

__all__ = ["emit_graph", "grad_graph", "linearize", "linearize_rules", "prune"]
