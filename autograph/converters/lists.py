"""List appends: `xs.append(v)` -> `xs = ag__.list_append(xs, v)`.

Rebinding makes the list part of the state of an enclosing loop, so a staged
loop can carry it (as one stacked array, see `autograph.operators.lists`).
Only local lists are rebound; appends to a closure's or a global list stay
Python side effects.

List comprehensions and generator expressions with one `for` over a name
become calls, so that one over a list filled in a staged loop is staged too:

    [v * 2 for v in xs if v > 0]  ->  ag__.list_comp(xs, lambda v: v * 2, lambda v: v > 0, False)

(Python's own comprehension where `xs` is not such a list, nor a traced array
an `if` filters). A target `i, v` is unpacked by the lambdas, and a filtered
comprehension's `enumerate`/`zip` are made stageable as a `for`'s are. One
that binds a name outside itself (`:=`), yields or awaits is left as it is.
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.activity import activity
from ..pyct.transformer import ExpressionTransformer, StatementTransformer, walk
from .fors import _iterable


class _Appends(StatementTransformer):
    def __init__(self, local_names):
        self.local_names = local_names

    def visit_FunctionDef(self, node):
        """Each function's appends rebind its own locals only: in a nested function,
        `seen.append(v)` of the enclosing function's list stays a Python call
        (rebinding it would make `seen` the nested function's local)."""
        return _Appends(_locals(node)).generic_visit(node)

    def visit_Expr(self, node):
        call = node.value
        if (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
                and call.func.attr == "append" and isinstance(call.func.value, gast.Name)
                and call.func.value.id in self.local_names
                and len(call.args) == 1 and not call.keywords):
            return templates.replace("target = ag__.list_append(target, value)",
                                     target=call.func.value.id, value=call.args[0])
        return self.generic_visit(node)


_COMPREHENSION_OF = "ag__.list_comp(iterable, element, condition, lazy)"


def _names(target):
    """The comprehension's target names: one name, or a flat tuple of them; else None."""
    if isinstance(target, gast.Name):
        return target.id
    if isinstance(target, gast.Tuple) and all(isinstance(e, gast.Name) for e in target.elts):
        names = [e.id for e in target.elts]   # a name bound twice (`_, _`) keeps its last
        return [f"ag__unused{k}" if name in names[k + 1:] else name
                for k, name in enumerate(names)]
    return None


def _lambda(names, expression):
    """`lambda v: expression`, or for `i, v`, a lambda unpacking its item into them."""
    if isinstance(names, str):
        return templates.replace_as_expression("lambda target: expression", target=names,
                                               expression=expression)
    return templates.replace_as_expression(   # `ag__` names are the converter's own
        f"lambda ag__item: (lambda {', '.join(names)}: expression)(*ag__item)",
        expression=expression)
_KEEP_AS_IS = (gast.NamedExpr, gast.Yield, gast.YieldFrom, gast.Await)


class _Comprehensions(ExpressionTransformer):
    def visit_ListComp(self, node):
        self.generic_visit(node)  # inner comprehensions first
        if len(node.generators) != 1 or any(isinstance(n, _KEEP_AS_IS) for n in walk(node)):
            return node
        loop = node.generators[0]
        names = _names(loop.target)
        if loop.is_async or names is None:
            return node
        condition = gast.Constant(value=None, kind=None)
        if loop.ifs:
            test = loop.ifs[0] if len(loop.ifs) == 1 \
                else gast.BoolOp(op=gast.And(), values=loop.ifs)
            condition = _lambda(names, test)
            _iterable(loop)   # `enumerate(x)`, `zip(x, y)` of traced arrays: staged
        return templates.replace_as_expression(
            _COMPREHENSION_OF, iterable=loop.iter, element=_lambda(names, node.elt),
            condition=condition,
            lazy=gast.Constant(value=isinstance(node, gast.GeneratorExp), kind=None))

    visit_GeneratorExp = visit_ListComp


def _locals(function) -> set:
    scope = activity(function.body + [function.args])
    return scope.modified - scope.declared_nonlocal  # a closure's list is not rebound


def transform(node, ctx):
    node = _Appends(set()).visit(node)
    node.body = [_Comprehensions().visit(statement) for statement in node.body]
    return node
