"""`return` anywhere: lowered to a flag and a value, returned once at the end.

    def f(x):                      def f(x):
        if x > 0:                      do_return = False
            return x                   retval_ = ag__.Placeholder('retval_')
        return -x          ->          if x > 0:
                                           do_return = True
                                           retval_ = x
                                       if not do_return:
                                           do_return = True
                                           retval_ = -x
                                       return retval_

Loops holding a `return` also stop when the flag is set. Inside a `try` body
with handlers, or a `with` body (its manager may suppress the exception), the
value is computed before the flag is set: a value that raises leaves the flag
clear for the code that runs next, as in Python. A function whose only
`return` is its last statement is left as it is. The value starts as a
`Placeholder`, which a staged branch that has not returned yet carries as zeros
of the other branch's type (no path reads it).
"""
from __future__ import annotations

import gast

from ..pyct import anno, templates
from ..pyct.activity import activity
from ..pyct.dataflow import analyze
from ..pyct.transformer import ExpressionTransformer, StatementTransformer, statements, walk
from ._blocks import contains, guarded, lower_block
from .breaks import add_loop_test


def _needs_lowering(function) -> bool:
    body = function.body
    tail = body[-1] if body and isinstance(body[-1], gast.Return) else None
    for node in walk(gast.Module(body=body, type_ignores=[])):
        if isinstance(node, gast.Return) and node is not tail:
            return contains(body, gast.Return, into_loops=True)
    return False


def _returns_caught(function) -> set:
    """The ids of the `return`s whose value may raise into code of the function that goes on."""
    found = set()
    for statement in statements(function.body):
        if isinstance(statement, gast.With) or \
                isinstance(statement, gast.Try) and statement.handlers:
            found |= {id(node) for node in statements(statement.body)
                      if isinstance(node, gast.Return)}
    return found


def _falls_off_the_end(body) -> bool:
    """Whether control can reach the end of `body` (and so return None there).

    The `break` converter has run: a loop that still has an `else` is never
    broken out of, and a `while True:` it left alone never ends but by `return`.
    """
    last = body[-1] if body else None
    if isinstance(last, (gast.Return, gast.Raise)):
        return False
    if isinstance(last, gast.If):
        return _falls_off_the_end(last.body) or _falls_off_the_end(last.orelse)
    if isinstance(last, gast.While) and isinstance(last.test, gast.Constant) \
            and last.test.value is True:
        return False
    if isinstance(last, (gast.While, gast.For)) and last.orelse:
        return _falls_off_the_end(last.orelse)
    return True


def _returns_none(ret) -> bool:
    """`return` or `return None`."""
    return ret.value is None or isinstance(ret.value, gast.Constant) and ret.value.value is None


class _Functions(StatementTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_FunctionDef(self, node):
        self.generic_visit(node)  # nested functions own their returns
        if not _needs_lowering(node):
            return node
        flag, value = self.ctx.namer.new("do_return"), self.ctx.namer.new("retval_")
        if _falls_off_the_end(node.body):  # that path returns None
            node.body.append(gast.Return(value=None))

        caught = _returns_caught(node)
        returns_none = any(isinstance(n, gast.Return) and _returns_none(n)
                           for n in statements(node.body))

        def replace_return(ret):
            result = ret.value if not _returns_none(ret) else \
                templates.replace_as_expression("ag__.returned_none()")
            template = "value = result\nflag = True" if id(ret) in caught else \
                "flag = True\nvalue = result"
            replaced = templates.replace(template, flag=flag, value=value, result=result)
            origin = anno.getanno(ret, anno.Static.ORIGIN)
            for statement in replaced if origin else ():   # errors name the `return`'s line
                anno.setanno(statement, anno.Static.ORIGIN, origin)
            return replaced
        def stop_loop(loop):
            add_loop_test(loop, flag)
            if contains(loop.body, gast.Return, into_loops=True):  # its `else` must not run
                loop.orelse = guarded(loop.orelse, flag)
        body = lower_block(node.body, gast.Return, replace_return, flag, into_loops=True,
                           on_loop=stop_loop)
        node.body = (templates.replace("flag = False\nvalue = ag__.Placeholder(label)", flag=flag,
                                       value=value, label=gast.Constant(value=value, kind=None))
                     + body + templates.replace(
                         "return ag__.returned(value)" if returns_none else "return value",
                         value=value))
        return node


class _UnboundReads(ExpressionTransformer):
    """`return y` where y may be unbound: `return ag__.ld(y)` raises as Python would."""

    def __init__(self, defined):
        self.defined = defined

    def visit_Name(self, node):
        if isinstance(node.ctx, gast.Load) and node.id not in self.defined:
            return templates.replace_as_expression("ag__.ld(name)", name=node.id)
        return node


def _check_unbound_returns(function):
    analyze(function, gast.Return, liveness=False)
    for statement in statements(function.body):
        if isinstance(statement, gast.Return) and statement.value is not None:
            maybe = anno.getanno(statement, anno.Static.MAYBE_DEFINED_IN, frozenset())
            defined = anno.getanno(statement, anno.Static.DEFINED_IN, frozenset())
            # Names never bound before are globals or closures: only "maybe" ones are checked.
            _UnboundReads(defined | (set(activity(statement).read) - maybe)).visit(statement)


def transform(node, ctx):
    _check_unbound_returns(node)
    return _Functions(ctx).visit(node)
