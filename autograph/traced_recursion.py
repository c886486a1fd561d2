"""Recursion that tracing cannot end: a function calling itself under a traced `if`.

Tracing a staged `if` traces both branches, so a recursive call under a traced
condition (`if n > 0: return f(n - 1) + 1` with `n` an array) is traced again
and again until Python's recursion limit. That `RecursionError` is raised
while tracing (never staged into the graph, `subgraphs.undeferred_errors`),
and the graph function raises `explained(error)` instead: a `TracingError`
naming the function that recursed, its line and the way out.
"""
from __future__ import annotations

import collections

from autograph_runtime import TracingError
from autograph_runtime.ops import subgraphs
from autograph_runtime.source import is_user_file, original_location


def explained(error: RecursionError, qualname: str) -> TracingError:
    """A `TracingError` for `error`, raised while `qualname` was traced, naming the
    user's function that called itself most often and its line."""
    counts = collections.Counter()
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if is_user_file(code.co_filename):
            counts[original_location(code.co_filename, tb.tb_lineno, code.co_name)] += 1
        tb = tb.tb_next
    if not counts:
        where, depth = "", 0
    else:
        most = max(counts.values())   # the `if` and the call repeat alike: name the later
        alike = most - 1 if most > 2 else most   # line (the limit may cut a round short)
        place = max((p for p, n in counts.items() if n >= alike), key=lambda p: p.lineno)
        where, depth = f" (at {place})", most
    return TracingError(
        f"{qualname} recursed past Python's recursion limit while it was traced{where}, "
        f"{depth} calls deep: a recursive call under a traced condition (an `if` on an "
        f"array) is traced on both branches, so the recursion never reaches its base case. "
        f"A graph cannot recurse to a depth known only when it runs: write it as a while "
        f"loop, or decide the recursion on Python values (ints, shapes)")


def _is_recursion(error: Exception) -> bool:
    return isinstance(error, RecursionError)


subgraphs.undeferred_errors.append(_is_recursion)
