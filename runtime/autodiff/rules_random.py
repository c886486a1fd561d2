"""Vector-Jacobian rule of `random_draw`: none through draws.

A draw is a constant with respect to its parameters (`rng.normal(loc=x)` is not
reparameterized: write `x + rng.normal(size=x.shape)` for that), so every
operand gets no cotangent; `reset_generator` has no operands to give one.
"""
from __future__ import annotations

from .. import primitives
from ..ops.random import random_draw_p, reset_generator_p


def _random_draw(cts, outs, *operands, **params):
    return (None,) * len(operands)


primitives.vjp_rules[random_draw_p] = _random_draw
primitives.vjp_rules[reset_generator_p] = lambda cts, outs, **params: ()  # no operands
