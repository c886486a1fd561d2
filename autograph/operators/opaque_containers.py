"""Containers a staged block cannot carry, watched while the block is traced.

A staged `if` traces both branches and a staged loop traces its body once or
twice, so a Python container changed in them is changed while tracing, once per
trace, not when (and as often as) the graph runs. The lists, dicts and plain
objects of the trace's own locals that a block changes are carried as its state
(`composite.Block`). Two kinds cannot be:

- sets, deques, bytearrays and subclasses of `dict` and `list` (`defaultdict`,
  `Counter`, `OrderedDict`), which a block has no state for;
- any container that outlives the call, reached through a closure of code
  defined outside the function or a global: carried, it would hold the trace's
  values after the call, and never see the graph's.

A change to one of them raises `TracingError` naming it, after putting it back
as it was, where it would silently differ:

    seen = set()
    for i in range(4):
        if x[i] > 1:        # staged: both branches are traced
            seen.add(i)     # TracingError: set 'seen' is changed inside ...
"""
from __future__ import annotations

import collections

from autograph_runtime import TracingError
from autograph_runtime.errors import ContainerStagingError
from autograph_runtime.source import location_note, user_source

from .containers import containers_in, is_plain_object, items_of, same_items, set_contents


def is_opaque(value) -> bool:
    """A mutable container that a block cannot carry as its state."""
    kind = type(value)
    return kind in (set, collections.deque, bytearray) or (
        isinstance(value, (dict, list, set, collections.deque)) and kind not in (dict, list))


def _contents(container):
    """A copy of what the container holds, to compare by identity and to put back: a
    list, dict or plain object's items by key (`containers.items_of`), an opaque one's
    items (a dict subclass's pairs), a bytearray's bytes."""
    if not is_opaque(container):
        return dict(items_of(container))
    if isinstance(container, bytearray):
        return bytes(container)
    return list(container.items()) if isinstance(container, dict) else list(container)


def _same(container, before) -> bool:
    now = _contents(container)
    if type(before) is dict:
        return same_items(now, before)
    if type(before) is bytes or isinstance(container, set):   # a set's order may change
        return now == before if type(before) is bytes else \
            sorted(map(id, now)) == sorted(map(id, before))
    return len(now) == len(before) and all(
        (a is b) if not isinstance(container, dict) else (a[0] is b[0] and a[1] is b[1])
        for a, b in zip(now, before))


def _put_back(container, before):
    if type(before) is dict:
        set_contents(container, before)
    elif isinstance(container, (dict, set, collections.deque)):
        container.clear()
        (container.extend if isinstance(container, collections.deque) else
         container.update)(before)
    else:   # a list subclass, a bytearray
        container[:] = before


def watch(variables: dict, every: bool = False) -> list:
    """[(container, contents, label, outlives)] of the opaque containers among `variables`
    and in the lists, dicts and plain objects they hold; with `every` (values that outlive
    the call), of those lists, dicts and objects too."""
    found: dict = {}
    for name, value in variables.items():
        candidates = [(value, name)]
        for container, label in containers_in(value, name):
            if every:
                candidates.append((container, label))
            candidates += [(v, f"{label}.{k}" if is_plain_object(container) else
                            f"{label}[{k!r}]") for k, v in items_of(container).items()]
        for candidate, label in candidates:
            if id(candidate) not in found and (is_opaque(candidate) or every and (
                    type(candidate) in (dict, list) or is_plain_object(candidate))):
                found[id(candidate)] = (candidate, _contents(candidate), label, every)
    return list(found.values())


def changed(watched: list) -> list:
    """The entries of `watched` (`watch`) whose container holds something else now."""
    return [w for w in watched if not _same(w[0], w[1])]


def put_back(watched: list) -> list:
    """Puts each watched container that changed back as it was; returns their entries."""
    changes = changed(watched)
    for container, contents, _, _ in changes:
        _put_back(container, contents)
    return changes


def refuse_changed(watched: list, loop: bool) -> None:
    """`TracingError` for the first watched container a trace of the block changed, after
    putting every changed one back."""
    changes = put_back(watched)
    if not changes:
        return
    container, _, label, outlives = changes[0]
    kind = type(container).__name__
    block = "a loop on a traced value, whose body is traced once or twice but runs at " \
        "every trip" if loop else "an `if` on a traced value, both of whose branches are traced"
    way_out = ("it outlives the call (a global, or a closure's), so it could only hold "
               "the trace's values: make it a local of the function and return it"
               if outlives else
               f"a staged block carries lists, dicts and plain objects as its state, not a "
               f"{kind}: use a list or a dict (a plain `dict` for a `defaultdict` or "
               f"`Counter`)")
    raise (TracingError if outlives else ContainerStagingError)(
        f"{kind} {label!r} is changed inside {block}{location_note(user_source())}: the "
        f"change would happen while tracing, not when the graph runs; {way_out}, or decide "
        f"the condition on Python values")
