"""Gradients of Python's number functions (`python_call`, runtime/ops/python_calls.py).

Their results are Python numbers, weak in the graph, and a weak value carries
no cotangent (`cotangents.differentiable`): a gradient would silently stop at
`float(x)`. So differentiating through a float-valued one (`float`,
`complex`, `math.sin`, ...) of a differentiated value raises `TracingError`,
naming the NumPy spelling that has a gradient; the piecewise-constant ones
(`int`, `bool`, `math.floor`, `math.isnan`, ...) have a zero gradient, which
is what stopping there gives.
"""
from __future__ import annotations

from ..errors import TracingError
from ..ops.python_calls import python_call, python_call_p
from .linearize import linearize_rules

PIECEWISE_CONSTANT = frozenset({"int", "bool", "math.floor", "math.ceil", "math.trunc",
                                "math.isnan", "math.isinf", "math.isfinite"})


def _linearize_python_call(args, active, *, fn):
    if fn not in PIECEWISE_CONSTANT and any(active):
        spelling = "x itself (a NumPy scalar)" if fn in ("float", "complex") else \
            f"np.{fn.split('.')[1]}(x)"
        raise TracingError(
            f"no gradient flows through {fn}(x) of a differentiated value: it makes a "
            f"Python number, which carries none in the graph; write {spelling} instead")
    return [python_call(fn, *args)], None


linearize_rules[python_call_p] = _linearize_python_call
