"""Other local names bound to an array that an item write changes.

NumPy's writes change every name bound to the array or to a view of it. A
traced write changes only the traced value it rewrites (and the names bound to
that very value, while tracing straight-line code): a name bound to a view of
it, or a name outside a staged block bound to an array the block writes as its
state, would keep the old values. Those are refused with a `TracingError`
naming both names, where the graph cannot follow the sharing.

`ag__.setitem` notes the names it writes inside a staged block (`note_written`);
`staged_writing` checks, after the block traced, that no other local name
shares the state arrays written (`check_written_state`).
"""
from __future__ import annotations

import threading

from autograph_runtime import Tracer, TracingError
from autograph_runtime.views import follows
from autograph_runtime.source import location_note, user_source

from .staging import in_staged_block


class _Written(threading.local):
    def __init__(self):
        self.names: list = []


_written = _Written()


def note_written(name: str) -> None:
    """Records that a staged block writes items of the local `name`."""
    if in_staged_block():
        _written.names.append(name)


def mark() -> int:
    return len(_written.names)


def alias_error(label: str, other: str, how: str = "") -> TracingError:
    """`label` written in place (`how`: the statement, `label[...] = ...` by default)
    while `other` shares its memory."""
    how = how or f"{label}[...] = ..."
    return TracingError(
        f"{label!r} is written (`{how}`){location_note(user_source())} and "
        f"{other!r} shares its memory: NumPy would change both, which a graph cannot "
        f"follow; copy one of them (`{other} = {other}.copy()`) first")


def traced_aliases(target: Tracer, scope: dict, exclude=()) -> list:
    """Names of `scope` (not in `exclude`) bound to `target` or to a traced value sharing
    its memory (a view of it, the array it views, another view of that array) in a way
    a write does not follow (`runtime.views.follows`)."""
    builder, shared = target.builder, target.builder.shares_memory
    same = [name for name, value in scope.items() if value is target and name not in exclude]
    if target.node.id not in shared:
        return same
    others = {name: value for name, value in scope.items()
              if name not in exclude and isinstance(value, Tracer) and value is not target
              and value.builder is builder and value.node.id in shared
              and not follows(target, value)}
    if not others:
        return same
    base = _view_bases(builder)
    mine = _memory_of(target.node.id, base)
    return same + [name for name, value in others.items()
                   if _memory_of(value.node.id, base) == mine]


def _view_bases(builder) -> dict:
    """For each view a graph made so far, the value it views."""
    shared = builder.shares_memory
    return {out.id: eqn.inputs[0].id for eqn in builder.eqns if eqn.primitive.views
            for out in eqn.outputs if out.id in shared and getattr(eqn.inputs[0], "id", None)
            in shared}


def _memory_of(var_id, base) -> int:
    while var_id in base:
        var_id = base[var_id]
    return var_id


def check_written_state(state: tuple, names: tuple, scope: dict, since: int) -> None:
    """`TracingError` where a staged block wrote items of a traced state array that another
    local name (outside the block's state, or in it) is bound to, or views."""
    written = set(_written.names[since:])
    del _written.names[since:]
    if in_staged_block():  # an enclosing block checks them too
        _written.names.extend(sorted(written))
    for i, name in enumerate(names):
        if name in written and i < len(state) and isinstance(state[i], Tracer):
            others = traced_aliases(state[i], scope, exclude={name})
            if others:
                raise alias_error(name, others[0])
