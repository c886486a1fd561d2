"""What each staged block learnt it must carry, so that its next traces carry it at once.

    y = x * 2.0
    for j in range(n):            # B1
        if x[0] > j:              # B2
            w = y[1:]
            w += 0.5              # a view of y written: B2, then B1, must carry y

A trace of a staged block that writes, through a view, an array of an
enclosing graph that it does not carry raises `runtime.views.CarryNeeded`
(see `in_place`). Every block from the one staged in the graph owning the
array down to the writing one must carry it. Found one block at a time, each
enclosing block's retrace traced the blocks in it from scratch, and they found
the array again: 2**depth traces for one array, (k+1)**depth for k of them.

So the array is noted (`learn`) for every block being traced between that
graph and the write, each known by its call site in the converted code, and
the error goes to the outermost of them (`CarryNeeded.staged_from`); traced
again there, each block in it starts carrying what it learnt (`remembered`),
also in later trips of a Python loop around it. Notes last as long as the
trace of the function (the root graph) and name the very value: one a block's
trace cannot reach (of a block's graph traced again since, or whose memory
no local name of the block's code holds, itself or through a view) is
skipped, and one carried but not written is passed through.
"""
from __future__ import annotations

import threading
import weakref

from autograph_runtime import Tracer, views
from autograph_runtime.tree import flatten

from .in_place import user_frame, user_locals


class _Active(threading.local):
    def __init__(self):
        self.blocks = []   # (call site, the builder it is staged in), outermost first


_active = _Active()
_notes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""root builder -> {call site: {id(array): (label, weak reference to the array)}}: what
each block learnt. The arrays are held weakly: a Tracer leads back to its root builder, so a
strong one would keep the key, and the notes, alive after the trace."""


def call_site():
    """The staged block's call site: the converted code's code object and instruction."""
    frame = user_frame()
    return None if frame is None else (frame.f_code, frame.f_lasti)


def being_traced() -> list:
    """The blocks being traced on this thread, `(call site, the builder it is staged in)`,
    outermost first: `staged_block` appends its own while it traces, and pops it."""
    return _active.blocks


def _root(builder):
    while builder.parent is not None:
        builder = builder.parent
    return builder


def learn(error, label: str) -> None:
    """Notes `error.value` (a `CarryNeeded`'s, caught by the block staged in its graph or
    a graph inside it) for each block being traced from the one staged in the value's
    graph down; has the error raised to the outermost of them (`staged_from`)."""
    owner = error.value.builder
    chain = []
    for site, builder in reversed(_active.blocks):
        if not owner.is_ancestor_of(builder):
            break
        chain.append((site, builder))
    if not chain:
        return
    notes = _notes.setdefault(_root(chain[0][1]), {})
    for site, _ in chain:
        if site is not None:
            notes.setdefault(site, {})[id(error.value)] = (label, weakref.ref(error.value))
    error.staged_from = chain[-1][1]


def remembered(site, builder, state: tuple) -> list:
    """`(label, array)` for each array the block at `site` learnt it must carry, as the
    graph of `builder` (where it is staged now) has it: those its code can still reach
    (the memory of a value a local name of the converted code holds), not those `state`
    holds. An array a Python loop binds anew each trip is not carried in later trips."""
    notes = _notes.get(_root(builder), {}).get(site) if site is not None else None
    if not notes:
        return []
    reached = {id(_outermost(views.root_of(t))) for t in _traced_in(user_locals().values())}
    held = {id(leaf) for leaf in flatten(state)[0]}
    found = []
    for label, ref in notes.values():
        array = ref()   # None: no name holds it any more, so no code of the block reaches it
        if array is None or not array.builder.is_ancestor_of(builder) or \
                id(_outermost(array)) not in reached or not _defined(array):
            continue
        value = views.version_in(builder, array)
        if id(value) not in held:
            held.add(id(value))
            found.append((label, value))
    return found


def _traced_in(values) -> list:
    """The Tracers among `values` and inside their tuples, lists and dicts."""
    found, seen, todo = [], set(), list(values)
    while todo:
        value = todo.pop()
        if isinstance(value, Tracer):
            found.append(value)
        elif type(value) in (tuple, list, dict) and id(value) not in seen:
            seen.add(id(value))
            todo.extend(value.values() if type(value) is dict else value)
    return found


def _outermost(value):
    """The value of the outermost graph that `value` stands for (through the inputs of the
    blocks between that stand for it), else `value`."""
    while True:
        outer = next((o for o, i in value.builder.stand_ins.values() if i is value), None)
        if outer is None:
            return value
        value = outer


def _defined(value) -> bool:
    """Whether `value`'s graph still defines its value (an input, a constant, or an
    equation's output not dropped since)."""
    builder, node = value.builder, value.node
    return (node in builder.consts or any(node is v for v in builder.inputs)
            or any(node is out for eqn in reversed(builder.eqns) for out in eqn.outputs))
