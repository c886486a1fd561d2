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
    threaded = ()   # the innermost staged block's state names
    arguments = frozenset()   # ids of the lists the graph functions being traced were given


_state = _State()


@contextlib.contextmanager
def staging(names: tuple = ()):
    """Marks the code run inside the block as traced into a staged body, which threads
    the variables `names` as its state (a `nonlocal` one may be assigned there)."""
    _state.depth += 1
    outer, _state.threaded = _state.threaded, names
    try:
        yield
    finally:
        _state.depth -= 1
        _state.threaded = outer


@contextlib.contextmanager
def initializing():
    """Marks code that initialises an object made right here (a converted `__init__`
    called by `converted_call`): its writes to the new object happen, in the graph's
    terms, at every run as they do while tracing, so they are not refused."""
    depth, _state.depth = _state.depth, 0
    threaded, _state.threaded = _state.threaded, ()
    try:
        yield
    finally:
        _state.depth, _state.threaded = depth, threaded


def in_staged_block() -> bool:
    return _state.depth > 0


def threaded_by_block(name: str) -> bool:
    """Whether the innermost staged block threads the variable `name` as its state."""
    return name in _state.threaded


@contextlib.contextmanager
def holding_arguments(lists):
    """Marks `lists` as arguments of the graph function being traced: the caller holds
    them too, so a block cannot hold one as a stacked array of its own."""
    outer = _state.arguments
    _state.arguments = outer | {id(x) for x in lists}
    try:
        yield
    finally:
        _state.arguments = outer


def is_argument(value) -> bool:
    """Whether `value` is a list a graph function being traced was given."""
    return id(value) in _state.arguments
