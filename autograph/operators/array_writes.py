"""The array branch of `ag__.setitem`: item and slice writes of traced arrays.

A traced target, or a NumPy array written with a traced value or index, is
updated functionally (`runtime.ops.updates.index_update`), and the converter's
rebinding (`x = ag__.setitem(x, i, v, 'x')`) carries the new value; in a staged
block, as its state. While straight-line code traces, the traced value itself
is rewritten, so every name bound to it sees the change. Another local name
bound to a view of it (or to the array it views, or to the same NumPy array)
would not: `TracingError` naming both (see `aliases.py`). Inside a staged
block a NumPy array of a local name is read-only while the block first traces
(`in_place.staged_writing`): a write raises NumPy's read-only error, and the
block traces again with the array as a traced value.
"""
from __future__ import annotations

import re

import numpy as np

from autograph_runtime import Tracer, TracingError, current_builder
from autograph_runtime.ops.flat import FlatIter
from autograph_runtime.ops.updates import index_update
from autograph_runtime.tracer_value import write_in_place
from autograph_runtime.source import location_note, user_source

from .aliases import alias_error, note_written, traced_aliases
from .in_place import shares_memory, user_frame, user_locals
from .staging import in_staged_block

_INNER = re.compile(r"(\]|\.\s*\w+)$")


def is_inner(label: str) -> bool:
    """True for the label of a nested target's inner write (`a.b`, `a[i]`), whose result
    an outer write stores."""
    return _INNER.search(label) is not None


def _traced(value) -> bool:
    if isinstance(value, (tuple, list)):
        return any(map(_traced, value))
    if isinstance(value, slice):
        return any(map(_traced, (value.start, value.stop, value.step)))
    return isinstance(value, Tracer)


def write_array(target, index, value, label: str):
    """The array branch of `setitem`: the updated array, or NotImplemented for other targets.
    `x.flat[k] = v` of a traced x writes x in place and returns its `FlatIter`."""
    if isinstance(target, FlatIter):
        _check_views(target.base, label)
        target[index] = value
        return target
    if isinstance(target, Tracer):
        _check_views(target, label)
        updated = index_update(target, index, value)
        if target.builder is not updated.builder:
            if is_inner(label):  # `a.b[i] = v`: the outer write stores the new array
                return updated
            refusal = updated.builder.caller_write_error(
                target, f"item assignment `{label}[...] = ...`")
            if refusal is not None:
                raise refusal
            raise TracingError(
                f"item assignment `{label}[...] = ...` on a value from outside the staged "
                f"block{location_note(user_source())}, which does not rebind it: it would be "
                f"written once, while tracing; assign the new value to a local variable")
        write_in_place(target, updated, "setitem")  # every name bound to it, or to a
        return target                               # view sharing its memory, sees the write
    if type(target) is not np.ndarray:
        return NotImplemented
    traced = _traced(value) or _traced(index)
    if not traced and not in_staged_block():
        return NotImplemented
    if not target.flags.writeable:  # NumPy's error: a staged block's probe lifts the array
        raise ValueError("assignment destination is read-only")
    if in_staged_block() and user_locals().get(label) is not target:
        return NotImplemented  # not a local name the block's probe can lift
    if not traced:  # an array the staged block made itself
        target[index] = value
        return target
    if not _rebound(target, label):  # `G[0] = traced`, G global or a closure's
        raise TracingError(
            f"a traced value is written into the NumPy array {label!r}"
            f"{location_note(user_source())}, which is not a local variable of this "
            f"function: the graph cannot write into it; make a local array "
            f"(`{label} = {label}.copy()`) and return it")
    _check_shared(target, label)
    note_written(_root(label))
    builder = current_builder()
    return index_update(Tracer(builder, builder.const(target)), index, value)


def _rebound(target, label: str) -> bool:
    """True where the converter rebinds what this write returns: a nested target's
    inner write (the outer one stores it), or a local name of the calling function."""
    if is_inner(label):
        return True
    frame = user_frame()
    code = frame.f_code if frame is not None else None
    return code is not None and label not in code.co_freevars and \
        label in code.co_varnames + code.co_cellvars and frame.f_locals.get(label) is target


def _root(label: str) -> str:
    match = re.match(r"[A-Za-z_]\w*", label)
    return match.group(0) if match else label


def _check_shared(target, label):
    """`TracingError` where another local name shares memory with the NumPy `target`."""
    root = _root(label)
    for name, value in user_locals().items():
        if name != root and shares_memory(target, value):  # `alias = out` too
            raise alias_error(label, name)


def _check_views(target, label):
    """`TracingError` where another local name is bound to a view of the traced `target`
    (or to the array it is a view of): a write would change both in NumPy."""
    if target.node.id in target.builder.shares_memory:
        root = _root(label)
        others = [name for name in traced_aliases(target, user_locals(), exclude={root})
                  if user_locals()[name] is not target]
        if others:
            raise alias_error(label, others[0])


