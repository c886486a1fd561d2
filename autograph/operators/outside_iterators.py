"""Iterators from outside a function, which a trace must not advance.

`next(it)` or `for v in it:` on an iterator a global or closure cell holds
(`it = iter(range(1000))` at module level) takes an item from it for good: a
trace that advanced it and was then refused (the call runs eagerly instead)
could not put the item back, and the eager run would take the next one. While
a graph function traces for a call that may run eagerly (the eager fallback),
the iterators its globals and closure cells hold (`ModuleWatch.named`) are
noted here, and advancing one refuses the trace before it takes an item, so
the call runs eagerly and takes exactly the items eager code takes. Where a
graph is asked for (the fallback off), the trace takes them, as `tf.function`
runs Python while tracing.
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from autograph_runtime import TracingError
from autograph_runtime.source import location_note, user_source


class IteratorAdvanced(TracingError):
    """A trace for a call that may run eagerly was about to advance an outside iterator."""


class _Watched(threading.local):
    ids: frozenset = frozenset()


_watched = _Watched()


def iterators_in(values) -> frozenset:
    """The ids of the iterators among `values` (generators too)."""
    return frozenset(id(v) for v in values if isinstance(v, Iterator))


@contextlib.contextmanager
def watching(ids: frozenset):
    """In the block, advancing an iterator of `ids` is refused (`refuse_advancing`)."""
    before, _watched.ids = _watched.ids, ids
    try:
        yield
    finally:
        _watched.ids = before


def refuse_advancing(value, how: str) -> None:
    """`IteratorAdvanced` where `value` is a watched outside iterator (before any item goes)."""
    if _watched.ids and id(value) in _watched.ids:
        raise IteratorAdvanced(
            f"{how} advances an iterator from outside the function{location_note(user_source())}: "
            f"the items taken while tracing would be gone, and the graph would not take "
            f"them again when it runs; pass the items in as an argument")
