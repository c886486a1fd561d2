"""`try`: stays a Python statement, with two additions (autograph/operators/exceptions.py).

    try:                                 try:
        if x > 0:                            with ag__.try_region(lambda: (ValueError,), 'f.py:5'):
            y = g(x)                             def if_true(y): ...
    except ValueError:         ->                y, = ag__.if_stmt(x > 0, if_true, ...)
        y = -1                           except ValueError as exc_:
                                             y, = ag__.caught(exc_, (y_or_undefined,), ('y',))
                                             y = -1

`try_region` names the types the handlers catch, so that an error the graph
would raise when it runs (a staged `raise`, `assert`, or an error of a staged
branch) is refused while tracing rather than escaping the handler. Where the
body holds converted control flow (an `if`, a loop, or the guard a lowered
jump left), each handler, and a `finally` by an added `except BaseException:
... raise`, first reads back the values the body's generated functions held
when the exception left them (`caught`), as Python would have them.
"""
from __future__ import annotations

import gast

from ..pyct import anno, templates
from ..pyct.activity import activity
from ..pyct.dataflow import analyze
from ..pyct.transformer import StatementTransformer
from . import _state


def becomes_control_flow(block) -> bool:
    """Whether converted `block` holds an `if` or a loop (one the converters turn into calls)."""
    return any(isinstance(n, (gast.If, gast.While, gast.For))
               for statement in block for n in gast.walk(statement))


def _handled(handlers):
    types = [h.type if h.type is not None else gast.Name(id="BaseException", ctx=gast.Load(),
                                                          annotation=None, type_comment=None)
             for h in handlers]
    return templates.replace_as_expression(
        "lambda: types", types=gast.Tuple(elts=types, ctx=gast.Load()))


def _may_catch_ours(handler) -> bool:
    """Whether the handler may catch `Exception` (and so the project's own errors)."""
    kinds = handler.type.elts if isinstance(handler.type, gast.Tuple) else [handler.type]
    for kind in kinds:
        name = kind.id if isinstance(kind, gast.Name) else \
            kind.attr if isinstance(kind, gast.Attribute) else None
        if name is None or name in ("Exception", "BaseException"):
            return True
    return False


def _read_after_an_exception(node) -> frozenset:
    """The names read, before being rebound, once an exception leaves the body of `node`."""
    live = anno.getanno(node, anno.Static.LIVE_OUT, frozenset())
    for block in [h.body for h in node.handlers] + [node.finalbody]:
        if block:
            live |= anno.getanno(block[0], anno.Static.LIVE_IN, frozenset())
    return live


class _Tries(StatementTransformer):
    def __init__(self, ctx, outer):
        self.ctx = ctx
        self.outer = outer

    def visit_Try(self, node):
        state = self._state(node)  # before the inner statements change under it
        self.generic_visit(node)
        handlers = list(node.handlers)
        if not state:  # only the project's own errors must pass the handlers that catch them
            for handler in filter(_may_catch_ours, handlers):
                handler.body = templates.replace("ag__.caught(error, (), ())", error=self._name(
                    handler)) + handler.body
        if state:
            reraise = templates.replace("try:\n    pass\nexcept BaseException:\n    raise")
            recovery = node.handlers + (reraise[0].handlers if node.finalbody else [])
            for handler in recovery:
                handler.body = self._caught(node, self._name(handler), state) + handler.body
            node.handlers = recovery
        if handlers:
            filename, line, _ = anno.getanno(handlers[0], anno.Static.ORIGIN,
                                             ("<unknown>", "?", ""))
            node.body = templates.replace(
                "with ag__.try_region(handled, where):\n    body", handled=_handled(handlers),
                where=gast.Constant(value=f"{filename}:{line}", kind=None), body=node.body)
        return node

    def _name(self, handler) -> str:
        """The name the handler binds the exception to (one is made up where it has none)."""
        if handler.name is None:
            handler.name = gast.Name(id=self.ctx.namer.new("exc_"), ctx=gast.Store(),
                                     annotation=None, type_comment=None)
        return handler.name.id

    def _state(self, node):
        """The names the body may rebind that a handler, `finally` or later code reads."""
        if not becomes_control_flow(node.body):
            return []
        modified = activity(node.body).modified - set(self.outer)
        return sorted(modified & _read_after_an_exception(node))

    def _caught(self, node, error, state):
        defined = anno.getanno(node, anno.Static.DEFINED_IN, frozenset())
        values = [gast.Name(id=n, ctx=gast.Load(), annotation=None, type_comment=None)
                  if n in defined else templates.replace_as_expression(
                      "ag__.bound_or_undefined(lambda: name, label)", name=n,
                      label=gast.Constant(value=n, kind=None)) for n in state]
        return templates.replace(
            "state = ag__.caught(error, values, names)", state=list(state), error=error,
            values=gast.Tuple(elts=values, ctx=gast.Load()), names=_state.names_tuple(state))


def transform(node, ctx):
    analyze(node, gast.Try)
    return _Tries(ctx, _state.declared_outer(node)).visit(node)
