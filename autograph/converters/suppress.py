"""`with contextlib.suppress(E, ...)`: a `try` whose handler passes.

    with contextlib.suppress(IndexError):        try:
        for i in range(5):                 ->         for i in range(5):
            out[i] = x[i]                                 out[i] = x[i]
                                                  except ag__.suppressed(contextlib.suppress,
                                                                         (IndexError,)):
                                                      pass

so that the `tries` converter makes it what it makes a `try`: the values the
body bound before the exception stand, and an error a kernel raises when the
graph runs is suppressed as eagerly (`operators/staged_tries.py`).
`ag__.suppressed` checks that the manager is `contextlib.suppress` and gives
its types. `with suppress(E) as s:` binds `s` first to what the manager's
`__enter__` gives, None (`ag__.entered_suppress`, which checks it too); a `with`
of several managers is the `with`s of each nested, as Python defines it, so
that a `suppress` among them becomes a `try` inside or around the others:

    with np.errstate(divide="ignore"), suppress(IndexError):   ->   with np.errstate(...):
        y = x[i] / 0.0                                                  try: ...
"""
from __future__ import annotations

import gast

from ..pyct import anno, templates
from ..pyct.transformer import StatementTransformer


def becomes_try(item) -> bool:
    """Whether the `with` item is `suppress(...)` (or `... as name`), which becomes a `try`."""
    call = item.context_expr
    func = call.func if isinstance(call, gast.Call) else None
    return (getattr(func, "id", None) == "suppress" or getattr(func, "attr", None) == "suppress") \
        and not call.keywords   # `suppress(*errors, E)`: a tuple `(*errors, E)` as well


def _nested(node) -> None:
    """`with a, b: body` as `with a: with b: body`, in place, where one of them suppresses."""
    if len(node.items) < 2 or not any(map(becomes_try, node.items)):
        return
    body = node.body
    for item in reversed(node.items[1:]):
        (inner,) = templates.replace("with manager:\n    body", manager=item.context_expr,
                                     body=body)
        inner.items[0].optional_vars = item.optional_vars
        _same_origin(inner, node)
        body = [inner]
    node.items, node.body = node.items[:1], body


def _same_origin(part, node) -> None:
    origin = anno.getanno(node, anno.Static.ORIGIN)
    if origin is not None:
        anno.setanno(part, anno.Static.ORIGIN, origin)


class _Suppress(StatementTransformer):
    def visit_With(self, node):
        _nested(node)
        self.generic_visit(node)
        if len(node.items) > 1 or not becomes_try(node.items[0]):
            return node
        item = node.items[0]
        call = item.context_expr
        types = gast.Tuple(elts=list(call.args), ctx=gast.Load())
        (statement,) = templates.replace(
            "try:\n    body\nexcept ag__.suppressed(manager, types):\n    pass",
            body=node.body, manager=call.func, types=types)
        for part in [statement, *statement.handlers]:
            _same_origin(part, node)
        if item.optional_vars is None:
            return statement
        entered = templates.replace("target = ag__.entered_suppress(manager, types)",
                                    target=item.optional_vars, manager=call.func, types=types)
        for part in entered:
            _same_origin(part, node)
        return entered + [statement]


def transform(node, ctx):
    return _Suppress().visit(node)
