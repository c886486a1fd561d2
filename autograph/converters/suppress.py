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
its types. A `with` of several managers, or one bound with `as`, stays a
`with`.
"""
from __future__ import annotations

import gast

from ..pyct import anno, templates
from ..pyct.transformer import StatementTransformer


def rewritable(node) -> bool:
    """Whether `node` is `with suppress(...):` alone, which becomes a `try`."""
    if len(node.items) != 1 or node.items[0].optional_vars is not None:
        return False
    call = node.items[0].context_expr
    func = call.func if isinstance(call, gast.Call) else None
    return (getattr(func, "id", None) == "suppress" or getattr(func, "attr", None) == "suppress") \
        and not call.keywords   # `suppress(*errors, E)`: a tuple `(*errors, E)` as well


class _Suppress(StatementTransformer):
    def visit_With(self, node):
        self.generic_visit(node)
        if not rewritable(node):
            return node
        call = node.items[0].context_expr
        (statement,) = templates.replace(
            "try:\n    body\nexcept ag__.suppressed(manager, types):\n    pass",
            body=node.body, manager=call.func,
            types=gast.Tuple(elts=list(call.args), ctx=gast.Load()))
        origin = anno.getanno(node, anno.Static.ORIGIN)
        if origin is not None:
            for part in [statement, *statement.handlers]:
                anno.setanno(part, anno.Static.ORIGIN, origin)
        return statement


def transform(node, ctx):
    return _Suppress().visit(node)
