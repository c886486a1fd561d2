"""The converted source of a function, around one of the user's lines, for failure reports.

Each converted line shows the line of the user's file it comes from; lines
from the line in question are marked `->`:

>>> def double_positive(x):
...     if x.sum() > 0:
...         x = x * 2
...     return x
>>> print("\\n".join(source_window(double_positive, line=3)[1:6]))
       1 | def double_positive(x):
         |
         |     def if_true(x):
  ->   3 |         x = x * 2
         |         return (x,)
"""
from __future__ import annotations

import inspect
import os


from ..conversion import transformed
from ..pyct import loader

CONTEXT = 3   # lines shown around the marked ones
WHOLE = 24    # a converted function this short is shown whole


def short_path(filename: str) -> str:
    """`filename` relative to the working directory where it lies below it."""
    try:
        relative = os.path.relpath(filename)
    except ValueError:  # another drive
        return filename
    return filename if relative.startswith("..") else relative


def _converted(fn) -> list[tuple[int | None, str]]:
    """(user's line or None, text) for each line of `fn`'s converted source."""
    node = transformed(fn)
    text, mapping = loader.source_with_map(node)
    return [(mapping.get(i, (None, None))[1], line)
            for i, line in enumerate(text.splitlines(), 1)]


def _original(fn) -> list[tuple[int | None, str]]:
    lines, first = inspect.getsourcelines(fn)
    return [(first + i, line.rstrip("\n")) for i, line in enumerate(lines)]


def _shown(numbered, line: int | None) -> list[tuple[int | None, str]] | None:
    """The part of `numbered` to show: around `line`, or the start; None marks a gap."""
    marked = [i for i, (origin, _) in enumerate(numbered) if line is not None and origin == line]
    if marked:
        start, stop = max(0, marked[0] - CONTEXT), min(len(numbered), marked[-1] + CONTEXT + 1)
    elif len(numbered) <= WHOLE:
        start, stop = 0, len(numbered)
    else:
        start, stop = 0, WHOLE
    part = numbered[start:stop]
    return ([(None, "...")] if start > 0 else []) + part + \
        ([(None, "...")] if stop < len(numbered) else [])


def source_window(fn, line: int | None = None, converted: bool = True) -> list[str]:
    """A header and the lines of `fn`'s converted (or, with `converted` False, original)
    source around the user's `line` (the start of the function where `line` is None)."""
    fn = getattr(fn, "python_function", fn)
    fn = getattr(fn, "__func__", fn)
    try:
        numbered = _converted(fn) if converted else _original(fn)
    except Exception:  # no readable source (a builtin, a REPL): the report goes without
        return []
    code = fn.__code__
    where = f"{short_path(code.co_filename)}:{code.co_firstlineno}"
    kind = "converted code" if converted else "code"
    where += "; ag.to_code prints it all" if converted else ""
    around = f", around line {line}" if line is not None else ""
    name = fn.__qualname__.split("<locals>.")[-1]
    header = f"{kind} of {name} ({where}){around}:"
    body = []
    for origin, text in _shown(numbered, line):
        mark = "->" if line is not None and origin == line else "  "
        number = f"{origin:>4}" if origin is not None else "    "
        body.append(f"{mark} {number} | {text}".rstrip())
    return [header] + body
