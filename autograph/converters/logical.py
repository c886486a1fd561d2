"""`and`, `or`, `not` and comparison chains, lazy as in Python.

    a and b      ->  ag__.and_(lambda: a, lambda: b)
    if a and b:  ->  if ag__.and_test(lambda: a, lambda: b):   (its truth alone is read)
    not a        ->  ag__.not_(a)
    a < b < c    ->  ag__.and_(lambda: a < b, lambda: b < c)   (b a name or constant)
    a < f() < c  ->  ag__.compare_chain((lambda: a, lambda: f(), lambda: c), ('Lt', 'Lt'))
    a in b       ->  ag__.in_(a, b)          (`not in`: ag__.not_in)
"""
from __future__ import annotations

import gast

from ..pyct import anno, templates
from ..pyct.errors import ConversionError
from ..pyct.transformer import ExpressionTransformer, children


def refuse_assignments(node, where: str) -> None:
    """Raises `ConversionError` for a `:=` in `node` (outside lambdas of its own): moved into
    a function of its own, the expression would bind the name there, not in the caller."""
    stack = [node]
    while stack:
        child = stack.pop()
        if isinstance(child, gast.NamedExpr):
            filename, line, _ = anno.getanno(child, anno.Static.ORIGIN, ("<unknown>", "?", ""))
            raise ConversionError(
                f"an assignment expression (`:=`) in {where} cannot be converted (at "
                f"{filename}:{line}); assign the name in a statement before it")
        if not isinstance(child, gast.Lambda):
            stack.extend(children(child))


def _lazy(node, where="an operand of `and`, `or` or a comparison chain"):
    refuse_assignments(node, where)
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


class _Logical(ExpressionTransformer):
    def __init__(self):
        super().__init__()
        self._tested: set = set()   # ids of expressions whose truth alone is used

    def _test(self, node):
        """Marks `node` (an `if`'s or `while`'s test, ...) as read for its truth only."""
        if node is not None:
            self._tested.add(id(node))

    def visit_If(self, node):
        self._test(node.test)
        return self.generic_visit(node)

    visit_While = visit_IfExp = visit_If

    def visit_Call(self, node):
        """The test of an `assert` or a conditional expression, converted before this."""
        func = node.func
        if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) and \
                func.value.id == "ag__" and func.attr in ("if_exp", "assert_") and node.args:
            self._test(node.args[0])
        return self.generic_visit(node)

    def visit_BoolOp(self, node):
        truth = id(node) in self._tested
        if truth:   # so are its operands': `if b[i] and x[i] > 0:`
            for value in node.values:
                self._test(value)
        self.generic_visit(node)
        op = "and_" if isinstance(node.op, gast.And) else "or_"
        return _chain(op + "test" if truth else op, node.values)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, gast.Not):
            self._test(node.operand)
        self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return templates.replace_as_expression("ag__.not_(value)", value=node.operand)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        operands = [node.left] + node.comparators
        if len(node.ops) == 1:
            if isinstance(node.ops[0], (gast.In, gast.NotIn)):
                call = "in_" if isinstance(node.ops[0], gast.In) else "not_in"
                return templates.replace_as_expression(f"ag__.{call}(item, container)",
                                                       item=node.left,
                                                       container=node.comparators[0])
            return node
        if all(_simple(o) for o in operands[1:-1]):
            pairs = [gast.Compare(left=a, ops=[op], comparators=[b])
                     for a, op, b in zip(operands, node.ops, operands[1:])]
            return _chain("and_", pairs)
        # Other middle operands are evaluated once each, left to right, as Python does.
        ops = gast.Tuple(elts=[gast.Constant(value=type(op).__name__, kind=None)
                               for op in node.ops], ctx=gast.Load())
        thunks = gast.Tuple(elts=[_lazy(o) for o in operands], ctx=gast.Load())
        return templates.replace_as_expression("ag__.compare_chain(thunks, ops)",
                                               thunks=thunks, ops=ops)


def transform(node, ctx):
    return _Logical().visit(node)
