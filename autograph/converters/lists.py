"""List appends: `xs.append(v)` -> `xs = ag__.list_append(xs, v)`.

Rebinding makes the list part of the state of an enclosing loop, so a staged
loop can carry it (as one stacked array, see `autograph.operators.lists`).
"""
from __future__ import annotations

import gast

from ..pyct import templates


class _Appends(gast.NodeTransformer):
    def visit_Expr(self, node):
        call = node.value
        if (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
                and call.func.attr == "append" and isinstance(call.func.value, gast.Name)
                and len(call.args) == 1 and not call.keywords):
            return templates.replace("target = ag__.list_append(target, value)",
                                     target=call.func.value.id, value=call.args[0])
        return self.generic_visit(node)


def transform(node, ctx):
    return _Appends().visit(node)
