"""Vector-Jacobian rule of `random_draw`: refused through the parameters of a draw.

Finite differences of `np.random.normal(loc=x)` under one seed give 1 (NumPy draws
`loc + scale * z`), a rule that treats the draw as a constant gives 0: neither
silently, so a gradient that reaches a draw's parameters is a `TracingError`
naming the way out (`x + rng.standard_normal(x.shape)`, whose gradient is exact).
A draw whose parameters do not depend on the differentiated inputs is a
constant, as any value computed from none of them; `reset_generator` has no
operands to give a cotangent to.
"""
from __future__ import annotations

from ..errors import TracingError
from .. import primitives
from ..ops.random import random_draw_p, reset_generator_p


def _random_draw(cts, outs, *operands, method, **params):
    raise TracingError(
        f"a gradient reaches the parameters of a random draw ({method}), which has none "
        f"a graph can give: write the draw so that its parameters scale a standard one "
        f"(`loc + scale * rng.standard_normal(shape)`), or draw outside the differentiated "
        f"function")


primitives.vjp_rules[random_draw_p] = _random_draw
primitives.vjp_rules[reset_generator_p] = lambda cts, outs, **params: ()  # no operands
