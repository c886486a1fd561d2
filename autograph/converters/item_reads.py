"""`table[i]`: a NumPy array read at a traced index.

    TABLE[i]            ->  ag__.getitem(TABLE, i)
    lut[i, 1:n]         ->  ag__.getitem(lut, (i, ag__.slice_(1, n, None)))

NumPy's own `ndarray.__getitem__` asks a traced index for a Python int, which
it cannot give; `getitem` (autograph/operators/conversions.py) reads a NumPy
array as a graph constant where the index is traced, and is `value[key]`
otherwise. Only reads whose index is not made of constants alone are
rewritten (`x[0]`, `x[1:, ::2]`, `x[..., None]` stay as they are); `r_`/`c_`
reads are `index_tricks`'s, which runs first.
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.transformer import ExpressionTransformer
from .writes import _index


def _constant(node) -> bool:
    if node is None or isinstance(node, gast.Constant):
        return True
    if isinstance(node, gast.UnaryOp):
        return _constant(node.operand)
    if isinstance(node, gast.Slice):
        return all(map(_constant, (node.lower, node.upper, node.step)))
    if isinstance(node, gast.Tuple):
        return all(map(_constant, node.elts))
    return False


class _ItemReads(ExpressionTransformer):
    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not isinstance(node.ctx, gast.Load) or _constant(node.slice):
            return node
        return templates.replace_as_expression("ag__.getitem(value, key)", value=node.value,
                                               key=_index(node.slice))


def transform(node, ctx):
    return _ItemReads().visit(node)
