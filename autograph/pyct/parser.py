"""Reading a function's source as a gast tree.

`parse_function(fn)` returns the `FunctionDef` (or `Lambda`) node of `fn` with
line numbers of the original file, or raises `SourceUnavailable` saying why
(a REPL, `exec`, a builtin, a lambda that shares its line with another).
"""
from __future__ import annotations

import inspect
import linecache
import textwrap

import gast


class SourceUnavailable(Exception):
    """The source of a function cannot be read or isolated."""


def function_source(fn) -> tuple[str, str, int]:
    """(dedented source, filename, first line number) of `fn`."""
    code = getattr(fn, "__code__", None)
    if code is None:
        raise SourceUnavailable(f"{fn!r} has no Python code object")
    filename = code.co_filename
    if not linecache.getlines(filename):
        raise SourceUnavailable(f"its source file {filename!r} cannot be read "
                                f"(defined in a REPL or by exec?)")
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as error:
        raise SourceUnavailable(str(error)) from None
    return textwrap.dedent("".join(lines)), filename, first


def parse_function(fn):
    """The gast node defining `fn`, with `lineno`s of its own file."""
    source, filename, first = function_source(fn)
    try:
        module = gast.parse(source)
    except SyntaxError:
        # A lambda in the middle of an expression: parse its line(s) as an expression.
        module = _parse_fragment(source)
    gast.increment_lineno(module, first - 1)
    name = fn.__code__.co_name
    if name == "<lambda>":
        return _find_lambda(module, fn), filename
    for node in gast.walk(module):
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)) and node.name == name:
            if isinstance(node, gast.AsyncFunctionDef):
                raise SourceUnavailable("async functions are not converted")
            return node, filename
    raise SourceUnavailable(f"no definition of {name!r} found in its source")


def _parse_fragment(source: str):
    stripped = source.strip()
    for candidate in (stripped, f"({stripped})", stripped.rstrip(",)") + ")"):
        try:
            return gast.parse(candidate)
        except SyntaxError:
            continue
    raise SourceUnavailable("the lambda's source does not parse on its own")


def _find_lambda(module, fn):
    code = fn.__code__
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = [node for node in gast.walk(module) if isinstance(node, gast.Lambda)
             and node.lineno == code.co_firstlineno
             and [a.id for a in node.args.args + node.args.kwonlyargs] == params]
    if len(found) != 1:
        raise SourceUnavailable(
            f"{len(found)} lambdas with parameters {params} start on line "
            f"{code.co_firstlineno}, so its source cannot be isolated")
    return found[0]
