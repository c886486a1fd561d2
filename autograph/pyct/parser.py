"""Reading a function's source as a gast tree.

`parse_function(fn)` parses the lines of the file that define `fn` (with the C
parser; the whole file for a lambda, or where those lines alone do not parse)
and returns the gast `FunctionDef` (or `Lambda`) of `fn` with the file's own
line numbers and columns, or raises `SourceUnavailable` saying why (a REPL,
`exec`, a builtin, a lambda that shares its line with another).
"""
from __future__ import annotations

import ast
import functools
import linecache
import types

from .to_gast import to_gast


class SourceUnavailable(Exception):
    """The source of a function cannot be read or isolated."""


def _lines(fn):
    code = getattr(fn, "__code__", None)
    if code is None:
        raise SourceUnavailable(f"{fn!r} has no Python code object")
    lines = linecache.getlines(code.co_filename)
    if not lines:
        raise SourceUnavailable(f"its source file {code.co_filename!r} cannot be read "
                                f"(defined in a REPL or by exec?)")
    return lines, code


def _file_tree(lines, code):
    try:
        return _parse(code.co_filename, "".join(lines))
    except SyntaxError as error:
        raise SourceUnavailable(f"its source file does not parse: {error}") from None


def _last_line(code) -> int:
    """The last line holding code of `code` or of the functions nested in it."""
    last = max((line for _, _, line in code.co_lines() if line is not None),
               default=code.co_firstlineno)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            last = max(last, _last_line(const))
    return last


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _definition_tree(lines, code):
    """The tree of the lines defining the function of `code` alone, at the file's own
    lines and columns (blank lines before them; an `if 1:` holding an indented one),
    or None where they do not parse by themselves (the file's tree is read then).

    Its lines run from its first line (decorators included) to its `def` line or
    its last line of code, and on over the lines indented deeper than the `def`
    (the rest of a statement spread over lines): a definition cut short does not
    parse.
    """
    first = code.co_firstlineno
    if code.co_name == "<lambda>" or not 0 < first <= len(lines):
        return None
    indent = _indent(lines[first - 1])
    header = first   # the `def` line, after the decorators
    while header < len(lines) and not lines[header - 1].lstrip().startswith(("def ", "async def ")):
        header += 1
    end = max(min(_last_line(code), len(lines)), header)
    while end < len(lines) and (not lines[end].strip() or lines[end].lstrip().startswith("#")
                                or _indent(lines[end]) > indent):
        end += 1
    head = "\n" * (first - 1) if indent == 0 else "\n" * (first - 2) + "if 1:\n"
    if indent and first < 2:
        return None
    try:
        return _parse(code.co_filename, head + "".join(lines[first - 1:end]))
    except SyntaxError:
        return None


@functools.lru_cache(maxsize=32)
def _parse(filename: str, source: str):
    """A file's (or a definition's) tree, parsed once per content (read only: gast
    copies what it converts)."""
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
    lines, code = _lines(fn)
    tree = _definition_tree(lines, code)
    if tree is None or not _defining(tree, code):
        tree = _file_tree(lines, code)
    return to_gast(_defining(tree, code, strict=True)), code.co_filename


def _defining(tree, code, strict=False):
    """The node of `tree` defining the function of `code`; None where there is none
    (`SourceUnavailable` saying why where `strict`)."""
    line = code.co_firstlineno
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount
                                   + code.co_posonlyargcount])
    path = list(_statements_at(tree, line))
    if code.co_name == "<lambda>":
        found = [n for n in ast.walk(path[-1]) if isinstance(n, ast.Lambda)
                 and n.lineno == line and _params(n) == params] if path else []
        if len(found) != 1:
            if not strict:
                return None
            raise SourceUnavailable(
                f"{len(found)} lambdas with parameters {params} start on line {line}, "
                f"so its source cannot be isolated")
    else:
        found = [n for n in path if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == code.co_name and _first_line(n) == line]
        if not found:
            if not strict:
                return None
            raise SourceUnavailable(f"no definition of {code.co_name!r} found at line {line} "
                                    f"of its file")
        if isinstance(found[-1], ast.AsyncFunctionDef):
            raise SourceUnavailable("async functions are not converted")
    return found[-1]
