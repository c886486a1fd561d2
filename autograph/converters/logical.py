"""`and`, `or`, `not` and comparison chains, lazy as in Python.

    a and b      ->  ag__.and_(lambda: a, lambda: b)
    not a        ->  ag__.not_(a)
    a < b < c    ->  ag__.and_(lambda: a < b, lambda: b < c)   (b a name or constant)
"""
from __future__ import annotations

import gast

from ..pyct import templates


def _lazy(node):
    return gast.Lambda(args=gast.arguments(args=[], posonlyargs=[], vararg=None,
                                           kwonlyargs=[], kw_defaults=[], kwarg=None,
                                           defaults=[]), body=node)


def _chain(op, values):
    result = values[-1]
    for value in reversed(values[:-1]):
        result = templates.replace_as_expression(f"ag__.{op}(left, right)",
                                                 left=_lazy(value), right=_lazy(result))
    return result


def _simple(node) -> bool:
    return isinstance(node, (gast.Name, gast.Constant))


class _Logical(gast.NodeTransformer):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        return _chain("and_" if isinstance(node.op, gast.And) else "or_", node.values)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return templates.replace_as_expression("ag__.not_(value)", value=node.operand)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        operands = [node.left] + node.comparators
        if len(node.ops) == 1 or not all(_simple(o) for o in operands[1:-1]):
            return node  # a middle operand with effects is evaluated once, as Python does
        pairs = [gast.Compare(left=a, ops=[op], comparators=[b])
                 for a, op, b in zip(operands, node.ops, operands[1:])]
        return _chain("and_", pairs)


def transform(node, ctx):
    return _Logical().visit(node)
