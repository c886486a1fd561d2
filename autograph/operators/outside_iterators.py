"""Iterators from outside a function, which a trace must not advance.

`next(it)`, `for v in it:` or any call given it (`enumerate(it)`, `list(it)`,
`it.__next__()`) on an iterator a global or closure cell holds
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
    before, _watched.ids = _watched.ids, _watched.ids | ids   # (a nested trace: both)
    try:
        yield
    finally:
        _watched.ids = before


def refuse_consuming(f, args: tuple, kwargs: dict) -> None:
    """`refuse_advancing` for a call that may advance a watched iterator: one passed to it
    (`next(it)`, `enumerate(it)`, `list(it)`, `zip(it, xs)`) or whose method it is
    (`it.__next__()`)."""
    if _watched.ids:
        refuse_advancing(getattr(f, "__self__", None), f"{getattr(f, '__name__', 'a call')}()")
        for value in (*args, *kwargs.values()):
            refuse_advancing(value, f"{getattr(f, '__name__', 'a call')}()")


def refuse_advancing(value, how: str) -> None:
    """`IteratorAdvanced` where `value` is a watched outside iterator (before any item goes)."""
    if _watched.ids and id(value) in _watched.ids:
        raise IteratorAdvanced(
            f"{how} advances an iterator from outside the function{location_note(user_source())}: "
            f"the items taken while tracing would be gone, and the graph would not take "
            f"them again when it runs; pass the items in as an argument")
