"""Calls: `f(x, k=y)` -> `ag__.converted_call(f, (x,), {'k': y})`.

At run time `converted_call` converts user functions (recursively, cached)
and calls NumPy, the standard library and installed packages as they are.
Calls of `ag__` itself are left alone.
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.transformer import ExpressionTransformer


def _is_ag(func) -> bool:
    while isinstance(func, gast.Attribute):
        func = func.value
    return isinstance(func, gast.Name) and func.id == "ag__"


class _Calls(ExpressionTransformer):
    def visit_Call(self, node):
        self.generic_visit(node)
        if _is_ag(node.func):
            return node
        args = gast.Tuple(elts=node.args, ctx=gast.Load())  # `*rest` stays a Starred item
        keywords = gast.Dict(  # `**rest` becomes a None key, as in {**rest}
            keys=[None if k.arg is None else gast.Constant(value=k.arg, kind=None)
                  for k in node.keywords],
            values=[k.value for k in node.keywords])
        return templates.replace_as_expression("ag__.converted_call(func, args, kwargs)",
                                               func=node.func, args=args, kwargs=keywords)


def transform(node, ctx):
    return _Calls().visit(node)
