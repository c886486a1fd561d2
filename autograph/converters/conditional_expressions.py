"""Conditional expressions: `a if test else b` -> `ag__.if_exp(test, lambda: a, lambda: b)`."""
from __future__ import annotations

from ..pyct import templates
from ..pyct.transformer import ExpressionTransformer
from .logical import _lazy

# What the function must hold for this converter to change anything (none before it makes them).
ACTS_ON = frozenset({"IfExp"})

_BRANCH = "a branch of a conditional expression (`a if c else b`)"


class _IfExps(ExpressionTransformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        return templates.replace_as_expression(
            "ag__.if_exp(test, true_fn, false_fn)", test=node.test,
            true_fn=_lazy(node.body, _BRANCH), false_fn=_lazy(node.orelse, _BRANCH))


def transform(node, ctx):
    return _IfExps().visit(node)
