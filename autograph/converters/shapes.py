"""`x.shape` and `x.size` reads: sizes known only when the graph runs, as eager code reads them.

    n = u.shape[0]          ->  n = ag__.shape_of(u)[0]
    m = u.size              ->  m = ag__.size_of(u)

`shape_of` and `size_of` (autograph/operators/shapes.py) are the attribute for
everything but a traced array with an unknown dimension, whose shape they give
with that dimension as a traced Python int. Writes (`x.shape = ...`) stay as
they are.
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.transformer import ExpressionTransformer

# What the function must hold for this converter to change anything (none before it makes them).
ACTS_ON = frozenset({"shape", "size"})


class _ShapeReads(ExpressionTransformer):
    def visit_Attribute(self, node):
        self.generic_visit(node)
        if node.attr not in ("shape", "size") or not isinstance(node.ctx, gast.Load):
            return node
        return templates.replace_as_expression(f"ag__.{node.attr}_of(value)", value=node.value)


def transform(node, ctx):
    return _ShapeReads().visit(node)
