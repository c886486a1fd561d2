"""Marks for `agc`: which calls of converted code are converted, and which run as they are.

Each `ag__.converted_call(f, ...)` line gets a comment: `converted` (user code,
converted in turn; a user class's `__init__`, a user object's `__call__`),
`as is` (NumPy, the standard library, an installed package, a builtin, a
function marked `ag.do_not_convert`), `graph function` (called as one `call`
equation), or `at run time` where `f` is a local value only known when the code runs.
"""
from __future__ import annotations

import ast
import builtins
import inspect

from .operators.calls import is_do_not_convert, is_user_function, user_init


def _resolve(expr, namespace):
    if isinstance(expr, ast.Name):
        if expr.id in namespace:
            return namespace[expr.id]
        if hasattr(builtins, expr.id):
            return getattr(builtins, expr.id)
        raise LookupError(expr.id)
    if isinstance(expr, ast.Attribute):
        return getattr(_resolve(expr.value, namespace), expr.attr)
    raise LookupError(ast.unparse(expr))


def describe_call(target) -> str:
    from .function import GraphFunction
    if isinstance(target, GraphFunction):
        return "graph function"
    function = getattr(target, "__func__", target)
    if is_do_not_convert(target):
        return "as is"
    if inspect.isclass(target):
        return "converted" if user_init(target) is not None else "as is"
    if is_user_function(function) or not callable(function) or \
            is_user_function(getattr(type(target), "__call__", None)):
        return "converted"
    return "as is"


def mark_calls(source: str, fn) -> str:
    """`source` with a `# ag: ...` comment on each line holding a converted_call."""
    namespace = dict(fn.__globals__)
    namespace.update(inspect.getclosurevars(fn).nonlocals)
    marks: dict[int, list[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "ag__.converted_call":
            callee = node.args[0]
            try:
                what = describe_call(_resolve(callee, namespace))
            except (LookupError, AttributeError):
                what = "at run time"
            marks.setdefault(node.lineno, []).append(f"{ast.unparse(callee)}: {what}")
    lines = source.splitlines()
    for lineno, notes in marks.items():
        lines[lineno - 1] += "  # ag: " + "; ".join(notes)
    return "\n".join(lines) + "\n"
