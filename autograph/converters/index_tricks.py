"""`np.r_[...]` and `np.c_[...]`: NumPy's index-trick objects, read with traced items.

    np.r_[x, 0.0, y]    ->  ag__.index_trick(np.r_, (x, 0.0, y))
    np.c_[a, 1:4]       ->  ag__.index_trick(np.c_, (a, ag__.slice_(1, 4, None)))

They are objects, not functions, so NumPy's dispatch never sees a traced item
(their `__getitem__` calls `np.array` on it). Any subscript of a name or
attribute called `r_` or `c_` is rewritten; `index_trick` reads it as Python
does unless the object is NumPy's and an item is traced.
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.transformer import ExpressionTransformer
from .writes import _index

_NAMES = ("r_", "c_")
# What the function must hold for this converter to change anything (none before it makes them).
ACTS_ON = frozenset(_NAMES)


def _name(node):
    if isinstance(node, gast.Attribute):
        return node.attr
    return node.id if isinstance(node, gast.Name) else None


class _IndexTricks(ExpressionTransformer):
    def visit_Subscript(self, node):
        self.generic_visit(node)
        if _name(node.value) not in _NAMES or not isinstance(node.ctx, gast.Load):
            return node
        return templates.replace_as_expression("ag__.index_trick(obj, key)", obj=node.value,
                                               key=_index(node.slice))


def transform(node, ctx):
    return _IndexTricks().visit(node)
