"""`print(...)`, `assert` and texts: staged in program order when they see traced values.

    print(x, y)           ->  ag__.print_(x, y)
    assert x > 0, "msg"   ->  ag__.assert_(x > 0, lambda: "msg")   (the message is lazy)
    f"m={m:.3f}"          ->  ag__.fstring('m=', (m, None, '.3f'))  (formatted when the graph
                                                                      runs, where m is traced)
    "%5.2f%%" % m         ->  ag__.percent_format('%5.2f%%', m)    (likewise)
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.transformer import ExpressionTransformer
from .logical import _lazy

# What the function must hold for this converter to change anything (none before it makes them).
ACTS_ON = frozenset({"print", "Assert", "JoinedStr", "PercentFormat"})


class _PrintAssert(ExpressionTransformer):
    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, gast.Name) and node.func.id == "print":
            node.func = templates.replace_as_expression("ag__.print_")
        return node

    def visit_JoinedStr(self, node):
        self.generic_visit(node)   # a nested f-string in a format spec first
        parts = []
        for value in node.values:
            if isinstance(value, gast.FormattedValue):
                conversion = None if value.conversion in (None, -1) else chr(value.conversion)
                spec = value.format_spec if value.format_spec is not None else \
                    gast.Constant(value="", kind=None)
                parts.append(gast.Tuple(elts=[value.value, gast.Constant(value=conversion,
                                                                         kind=None), spec],
                                        ctx=gast.Load()))
            else:
                parts.append(value)
        return gast.Call(func=templates.replace_as_expression("ag__.fstring"), args=parts,
                         keywords=[])

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, gast.Mod) and isinstance(node.left, gast.Constant) and \
                isinstance(node.left.value, str):   # a literal template: `"%.2f" % x`
            return gast.Call(func=templates.replace_as_expression("ag__.percent_format"),
                             args=[node.left, node.right], keywords=[])
        return node

    def visit_Assert(self, node):
        self.generic_visit(node)
        message = _lazy(node.msg) if node.msg is not None else gast.Constant(value=None, kind=None)
        return templates.replace("ag__.assert_(test, message)", test=node.test, message=message)


def transform(node, ctx):
    return _PrintAssert().visit(node)
