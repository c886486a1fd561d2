"""`try`: stays a Python statement, with additions (autograph/operators/exceptions.py).

    try:                                 try:
        if x > 0:                            with ag__.try_region(lambda: (ValueError,), 'f.py:5'):
            y = g(x)                             def if_true(y): ...
    except ValueError:         ->                y, = ag__.if_stmt(x > 0, if_true, ...)
        y = -1                           except ValueError as exc_:
                                             y, = ag__.caught(exc_, (y_or_undefined,), ('y',))
                                             y = -1

`try_region` names the types the handlers catch, so that an error the graph
would raise when it runs (a staged `raise`, `assert`, or an error of a staged
branch) is refused while tracing rather than escaping the handler. Where a
handler may catch an error NumPy's kernels raise when the graph runs
(`except ValueError`, `IndexError`, `ArithmeticError`, `LinAlgError`,
`Exception`, a bare `except`, a type named by an expression), the statement
becomes a function of the values it reads, giving those it assigns, called by
`ag__.try_stmt` (`operators/staged_tries.py`), which traces it as it is or
stages it to run as Python when the graph runs:

    try:                                 inv = ag__.Undefined('inv')
        inv = np.linalg.inv(m)           def try_stmt(inv, m):
    except np.linalg.LinAlgError:  ->        try:
        inv = np.full_like(m, np.nan)            with ag__.try_region(...): inv = ...
                                             except np.linalg.LinAlgError:
                                                 inv = ...
                                             return (inv,)
                                         inv, = ag__.try_stmt(try_stmt, (inv, m), ('inv', 'm'),
                                                              ('inv',), lambda: (...), 'f.py:5')

Where the body holds converted control flow (an `if`, a loop, or the guard a
lowered jump left), each handler, and a `finally` by an added `except
BaseException: ... raise`, first reads back the values the body's generated
functions held when the exception left them (`caught`), as Python would have
them.
"""
from __future__ import annotations

import builtins

import gast

from ..pyct import anno, templates
from ..pyct.activity import activity
from ..pyct.dataflow import analyze
from ..pyct.transformer import StatementTransformer, walk
from . import _state
from ._blocks import contains


def becomes_control_flow(block) -> bool:
    """Whether converted `block` holds an `if` or a loop (one the converters turn into calls)."""
    return any(isinstance(n, (gast.If, gast.While, gast.For))
               for statement in block for n in walk(statement))


def _handled(handlers):
    types = [h.type if h.type is not None else gast.Name(id="BaseException", ctx=gast.Load(),
                                                          annotation=None, type_comment=None)
             for h in handlers]
    return templates.replace_as_expression(
        "lambda: types", types=gast.Tuple(elts=types, ctx=gast.Load()))


# Builtin handler types that may catch what a kernel raises when the graph runs.
_KERNEL_CATCHERS = frozenset((
    "BaseException", "Exception", "ArithmeticError", "ZeroDivisionError", "FloatingPointError",
    "OverflowError", "LookupError", "IndexError", "ValueError", "AssertionError"))


def _may_catch_kernel_errors(handlers) -> bool:
    """Whether a handler may catch what a kernel raises: all but those naming only builtin
    exceptions no kernel raises (`KeyError`). A type named otherwise (`LinAlgError`, an
    alias, a tuple in a variable, an expression) is decided by `try_stmt` while tracing,
    from the types themselves."""
    for handler in handlers:
        kinds = handler.type.elts if isinstance(handler.type, gast.Tuple) else [handler.type]
        for kind in kinds:
            builtin = getattr(builtins, kind.id, None) if isinstance(kind, gast.Name) else None
            if not (isinstance(builtin, type) and issubclass(builtin, BaseException)) or \
                    kind.id in _KERNEL_CATCHERS:
                return True
    return False


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
    def __init__(self, ctx, outer, closures):
        self.ctx = ctx
        self.outer = outer
        self.closures = closures

    def visit_Try(self, node):
        state = self._state(node)  # before the inner statements change under it
        staged = self._staged_state(node) if _may_catch_kernel_errors(node.handlers) else None
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
            if staged is not None:
                return self._as_function(node, staged, handlers, f"{filename}:{line}")
        return node

    def _staged_state(self, node):
        """(the names the statement reads, those it assigns that are read after it), or
        None where it cannot become a function (it jumps out, or deletes a name)."""
        if contains(node.body + node.orelse + node.finalbody + [
                s for h in node.handlers for s in h.body],
                (gast.Return, gast.Break, gast.Continue, gast.Delete, gast.Yield,
                 gast.YieldFrom), into_loops=False) or \
                contains([node], (gast.Return, gast.Delete), into_loops=True):
            return None
        outer, captured, rebound, _ = _state.outer_state(node, self.outer, self.closures)
        modified = _state.modified_in(node, [node], outer, rebound)
        maybe = anno.getanno(node, anno.Static.MAYBE_DEFINED_IN, frozenset())
        reads = (set(activity(node).read) & set(maybe)) - set(outer)
        live = anno.getanno(node, anno.Static.LIVE_OUT, frozenset())
        outs = _state._in_order(modified & (set(live) | set(captured)), [node])
        return _state._in_order(reads | modified, [node]), outs, captured, outer

    def _as_function(self, node, staged, handlers, where):
        reads, outs, captured, outer = staged
        name = self.ctx.namer.new("try_stmt")
        parameters, entry = _state.parameters(reads, captured, self.ctx.namer)
        function = templates.replace(
            "def name(parameters):\n    declarations\n    statement\n    return outs",
            name=name, parameters=parameters, statement=[node],
            declarations=_state.outer_declarations(outer, [node]) + entry(),
            outs=gast.Tuple(elts=[gast.Name(id=n, ctx=gast.Load(), annotation=None,
                                            type_comment=None) for n in outs], ctx=gast.Load()))
        call = templates.replace(
            "outs = ag__.try_stmt(name, reads, read_names, out_names, handled, where)",
            name=name, outs=gast.Tuple(elts=[gast.Name(id=n, ctx=gast.Store(), annotation=None,
                                                       type_comment=None) for n in outs],
                                       ctx=gast.Store()),
            reads=gast.Tuple(elts=[gast.Name(id=n, ctx=gast.Load(), annotation=None,
                                             type_comment=None) for n in reads],
                             ctx=gast.Load()),
            read_names=_state.names_tuple(reads), out_names=_state.names_tuple(outs),
            handled=_handled(handlers), where=gast.Constant(value=where, kind=None))
        nonlocals = set(self.outer) - set(outer)   # bound in the enclosing function
        return _state.initializers(node, [n for n in reads if n not in nonlocals]) + \
            function + call

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
    return _Tries(ctx, _state.declared_outer(node), _state.Closures.of(node)).visit(node)
