"""Knowing, while converted code runs, whether it is inside a staged block.

Statements that only make sense once per run (writes to attributes, items or
globals) are refused inside a staged `if` or loop body, which is traced once
but runs any number of times.
"""
from __future__ import annotations

import contextlib
import threading


class _State(threading.local):
    depth = 0


_state = _State()


@contextlib.contextmanager
def staging():
    """Marks the code run inside the block as traced into a staged body."""
    _state.depth += 1
    try:
        yield
    finally:
        _state.depth -= 1


@contextlib.contextmanager
def initializing():
    """Marks code that initialises an object made right here (a converted `__init__`
    called by `converted_call`): its writes to the new object happen, in the graph's
    terms, at every run as they do while tracing, so they are not refused."""
    depth, _state.depth = _state.depth, 0
    try:
        yield
    finally:
        _state.depth = depth


def in_staged_block() -> bool:
    return _state.depth > 0
