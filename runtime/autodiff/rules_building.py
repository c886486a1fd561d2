"""Vector-Jacobian rules of the diagonal primitives, and `diagonal_scatter`.

`diagonal` is linear: its cotangent is `diagonal_scatter(g, x)`, zeros of x's
shape (known or not) with g written on the same diagonal; that one's
cotangent is `diagonal` again, so second derivatives work. `diag` (a vector
onto a matrix's diagonal) sends back the diagonal of its cotangent. `repeat`
only ever repeats indices (runtime/ops/rearranging.py): integers, no gradient.
"""
from __future__ import annotations

from .. import primitives
from ..abstract import AbstractValue
from ..ops.diagonals import diag_p, diagonal_p
from ..ops.rearranging import repeat_p
from ..tracer import bind


def _diagonal_scatter_rule(g, x, *, offset, axis1, axis2):
    return AbstractValue(x.aval.shape, g.aval.dtype)


def _diagonal_scatter_kernel(xp, offset, axis1, axis2):
    def run(g, x):
        out = xp.zeros(x.shape, g.dtype)
        square = xp.moveaxis(out, (axis1, axis2), (-2, -1))  # a view: writes reach out
        n = g.shape[-1]
        rows = xp.arange(n) + max(-offset, 0)
        square[..., rows, rows + offset] = g
        return out
    return run


diagonal_scatter_p = primitives.define(
    "diagonal_scatter", _diagonal_scatter_rule, _diagonal_scatter_kernel)


def _diagonal(g, out, x, *, offset, axis1, axis2):
    return (bind(diagonal_scatter_p, g, x, offset=offset, axis1=axis1, axis2=axis2),)


def _diagonal_scatter(g, out, ct, x, *, offset, axis1, axis2):
    return (bind(diagonal_p, g, offset=offset, axis1=axis1, axis2=axis2), None)


def _diag(g, out, v, *, k):
    return (bind(diagonal_p, g, offset=k, axis1=0, axis2=1),)


primitives.vjp_rules.update({
    diagonal_p: _diagonal,
    diagonal_scatter_p: _diagonal_scatter,
    diag_p: _diag,
    repeat_p: lambda g, out, a, repeats: (None, None),
})
