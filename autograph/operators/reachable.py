"""The values the converted code running a staged block reaches, up the call stack.

A staged block runs in converted code that may be nested several calls deep:
a loop's body function, a nested function called from a branch (`visit(v)`
under `if adj[u, v]`), the function itself. `reachable()` walks those frames
up to the first user frame that is not converted code (the graph function's
caller) and gives their own locals and what they reach otherwise (closures'
variables, global containers).
"""
from __future__ import annotations

import collections
import sys
import types

from autograph_runtime.source import is_library_file


def reachable() -> tuple[dict, dict]:
    """(the local variables of the converted code running the block and of the converted
    code it runs in, innermost first: values of this trace; the values the same code
    reaches otherwise: the closures' that are not one of those locals, and the global
    lists, dicts, sets and deques it names). The second kind outlive the trace: a block
    can change them only while tracing."""
    own: dict = {}
    other: dict = {}
    frame = sys._getframe(1)
    while frame is not None:
        code, filename = frame.f_code, frame.f_code.co_filename
        if filename.startswith("<autograph "):   # `pyct.loader.load`'s names
            mine = set(code.co_varnames) | set(code.co_cellvars)
            for name, value in frame.f_locals.items():
                (own if name in mine else other).setdefault(name, value)
            for name in _global_names(code):
                value = frame.f_globals.get(name)
                if isinstance(value, (list, dict, set, collections.deque)):
                    other.setdefault(name, value)
        elif not is_library_file(filename):
            break
        frame = frame.f_back
    ids = {id(v) for v in own.values()}
    return own, {name: v for name, v in other.items() if id(v) not in ids}


def _global_names(code) -> set:
    """The names `code` and the functions defined in it read as globals (or attributes)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names
