"""List appends: `xs.append(v)` -> `xs = ag__.list_append(xs, v)`.

Rebinding makes the list part of the state of an enclosing loop, so a staged
loop can carry it (as one stacked array, see `autograph.operators.lists`).
Only local lists are rebound; appends to a closure's or a global list stay
Python side effects.
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.activity import activity
from ..pyct.transformer import StatementTransformer


class _Appends(StatementTransformer):
    def __init__(self, local_names):
        self.local_names = local_names

    def visit_Expr(self, node):
        call = node.value
        if (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
                and call.func.attr == "append" and isinstance(call.func.value, gast.Name)
                and call.func.value.id in self.local_names
                and len(call.args) == 1 and not call.keywords):
            return templates.replace("target = ag__.list_append(target, value)",
                                     target=call.func.value.id, value=call.args[0])
        return self.generic_visit(node)


def transform(node, ctx):
    scope = activity(node.body + [node.args])
    local_names = scope.modified - scope.declared_nonlocal  # a closure's list is not rebound
    return _Appends(local_names).visit(node)
