"""Tracers of one graph that are one array on some paths only, in a way no view follows
(`runtime.shared_results`): guarded, each with the other, so that `runtime.views.write`
refuses a write in place to either (or to what shares their memory) with a
`TracingError`, rather than give a silently different answer. Weak: neither keeps
the other alive, and a guard ends with either.
"""
from __future__ import annotations

import weakref

from .errors import TracingError
from .source import location_note, user_source

# id(a Tracer) -> (a weak reference to it, weak references to its partners); an entry
# whose Tracer died (its id reused) is ignored
_guards: dict = {}


def partners(value) -> list:
    """The live Tracers `value` is guarded with."""
    entry = _guards.get(id(value))
    if entry is None or entry[0]() is not value:
        return []
    return [p for p in (ref() for ref in entry[1]) if p is not None]


def guard(a, b) -> None:
    """Makes a write in place to `a` or `b` (Tracers of one graph), or to what shares
    their memory, a `TracingError` (`refuse_guarded`): they are one array on some paths
    only, which the graph does not follow. Neither keeps the other alive."""
    if a is b or any(p is b for p in partners(a)):
        return
    for holder, other in ((a, b), (b, a)):
        entry = _guards.get(id(holder))
        if entry is None or entry[0]() is not holder:
            entry = _guards[id(holder)] = (weakref.ref(holder), [])
            weakref.finalize(holder, _forget, id(holder), entry[0])
        entry[1].append(weakref.ref(other))


def _forget(key, ref) -> None:
    entry = _guards.get(key)
    if entry is not None and entry[0] is ref:
        del _guards[key]


def refuse_guarded(target, members, what: str, name_of, holds_returned) -> None:
    """The `TracingError` for a write in place (`what`) to `target`, whose memory
    `members` share, where one of them is guarded with a live value (`name_of`,
    `holds_returned`: `runtime.views`'s, which imports this module)."""
    if not _guards:
        return
    for member in members:
        for partner in partners(member):
            returned = next((v for v in (member, partner) if holds_returned(v.node.name)),
                            None)
            hint = ("return a copy of the array (`.copy()`)" if returned is not None else
                    "copy one of them after the `if` (`y = y.copy()`), or bind them alike on "
                    "every path")
            raise TracingError(
                f"in-place `{what}` on {name_of(target)}{location_note(user_source())}: "
                f"{name_of(member)} and {name_of(partner)} are, on some paths of "
                f"a staged `if` before it only, one array (a new one, or the array of its own "
                f"of a value that is an older array on other paths): which memory they share "
                f"depends on the path, which the graph cannot follow, and NumPy would change "
                f"both; {hint}")
