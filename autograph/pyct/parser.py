"""Reading a function's source as a gast tree.

`parse_function(fn)` parses the file that defines `fn` (with the C parser,
which is fast) and returns the gast `FunctionDef` (or `Lambda`) of `fn` with
the file's own line numbers, or raises `SourceUnavailable` saying why (a REPL,
`exec`, a builtin, a lambda that shares its line with another).
"""
from __future__ import annotations

import ast
import functools
import linecache

import gast


class SourceUnavailable(Exception):
    """The source of a function cannot be read or isolated."""


def _file_tree(fn):
    code = getattr(fn, "__code__", None)
    if code is None:
        raise SourceUnavailable(f"{fn!r} has no Python code object")
    lines = linecache.getlines(code.co_filename)
    if not lines:
        raise SourceUnavailable(f"its source file {code.co_filename!r} cannot be read "
                                f"(defined in a REPL or by exec?)")
    try:
        return _parse(code.co_filename, "".join(lines)), code
    except SyntaxError as error:
        raise SourceUnavailable(f"its source file does not parse: {error}") from None


@functools.lru_cache(maxsize=32)
def _parse(filename: str, source: str):
    """A file's tree, parsed once per content (read only: gast copies what it converts)."""
    return ast.parse(source, filename)


def _first_line(node) -> int:
    decorators = getattr(node, "decorator_list", None)
    return decorators[0].lineno if decorators else node.lineno


def _params(node) -> list:
    args = node.args
    return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]


def _statements_at(tree, line: int):
    """The statements whose lines hold `line`, outermost first (a path into the tree)."""
    block = tree.body
    while block:
        here = [s for s in block if _first_line(s) <= line <= s.end_lineno]
        if not here:
            return
        statement = here[0]
        yield statement
        block = [s for field in ("body", "orelse", "finalbody", "handlers")
                 for s in getattr(statement, field, None) or ()]


def parse_function(fn):
    """(the gast node defining `fn`, its filename), with the file's line numbers."""
    tree, code = _file_tree(fn)
    line = code.co_firstlineno
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount
                                   + code.co_posonlyargcount])
    path = list(_statements_at(tree, line))
    if code.co_name == "<lambda>":
        found = [n for n in ast.walk(path[-1]) if isinstance(n, ast.Lambda)
                 and n.lineno == line and _params(n) == params] if path else []
        if len(found) != 1:
            raise SourceUnavailable(
                f"{len(found)} lambdas with parameters {params} start on line {line}, "
                f"so its source cannot be isolated")
    else:
        found = [n for n in path if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == code.co_name and _first_line(n) == line]
        if not found:
            raise SourceUnavailable(f"no definition of {code.co_name!r} found at line {line} "
                                    f"of its file")
        if isinstance(found[-1], ast.AsyncFunctionDef):
            raise SourceUnavailable("async functions are not converted")
    return gast.ast_to_gast(found[-1]), code.co_filename
