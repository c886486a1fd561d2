"""List appends: `xs.append(v)` -> `xs = ag__.list_append(xs, v)`.

Rebinding makes the list part of the state of an enclosing loop, so a staged
loop can carry it (as one stacked array, see `autograph.operators.lists`).
Only local lists are rebound; appends to a closure's or a global list stay
Python side effects.

List comprehensions and generator expressions with one `for` over a name
become calls, so that one over a list filled in a staged loop is staged too:

    [v * 2 for v in xs if v > 0]  ->  ag__.list_comp(xs, lambda v: v * 2, lambda v: v > 0, False)

(Python's own comprehension where `xs` is not such a list). One that binds
a name outside itself (`:=`), yields or awaits is left as it is.
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


_COMPREHENSION = "ag__.list_comp(iterable, lambda target: element, condition, lazy)"
_CONDITION = "lambda target: test"
_KEEP_AS_IS = (gast.NamedExpr, gast.Yield, gast.YieldFrom, gast.Await)


class _Comprehensions(gast.NodeTransformer):
    def visit_ListComp(self, node):
        self.generic_visit(node)  # inner comprehensions first
        if len(node.generators) != 1 or any(isinstance(n, _KEEP_AS_IS) for n in gast.walk(node)):
            return node
        loop = node.generators[0]
        if loop.is_async or not isinstance(loop.target, gast.Name):
            return node
        target = loop.target.id
        condition = gast.Constant(value=None, kind=None)
        if loop.ifs:
            test = loop.ifs[0] if len(loop.ifs) == 1 \
                else gast.BoolOp(op=gast.And(), values=loop.ifs)
            condition = templates.replace_as_expression(_CONDITION, target=target, test=test)
        return templates.replace_as_expression(
            _COMPREHENSION, iterable=loop.iter, target=target, element=node.elt,
            condition=condition,
            lazy=gast.Constant(value=isinstance(node, gast.GeneratorExp), kind=None))

    visit_GeneratorExp = visit_ListComp


def transform(node, ctx):
    scope = activity(node.body + [node.args])
    local_names = scope.modified - scope.declared_nonlocal  # a closure's list is not rebound
    node = _Appends(local_names).visit(node)
    node.body = [_Comprehensions().visit(statement) for statement in node.body]
    return node
