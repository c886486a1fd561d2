"""Item and attribute writes, and the check before a global is assigned.

The converter rebinds the root of each write (autograph/converters/writes.py):

    a.b[i] = v    ->  a = ag__.setattr_(a, 'b', ag__.setitem(a.b, i, v, 'a.b'), 'a')

On plain values each operator writes in place, as Python does, and returns its
target. The outer write of a nested target then has nothing left to do: the
object the inner write wrote into is already where it was read from (even
where it was a copy, as in `a[[0, 1]][0] = v`, which Python leaves unchanged).
Where the inner write made a new value instead (a traced array updated
functionally), the outer write stores it.

Arrays (`_write_array`): a traced target, or a NumPy array written with a
traced value or index, is updated functionally (`runtime.ops.updates`), and the
rebinding carries the new value (in a staged block, as its state). A name
bound to the same traced value sees the change; another local name bound to a
view of it (or to the array it views) would not: `TracingError` naming both.
"""
from __future__ import annotations

import re
import threading

import numpy as np

from runtime import Tracer, TracingError, current_builder
from runtime.ops.updates import index_update
from runtime.source import location_note, user_source

from ..pyct.errors import ConversionError
from .in_place import shares_memory, user_frame, user_locals
from .staging import in_staged_block


class _LastInPlace(threading.local):
    """The id of the object the last inner write wrote into in place, and its label
    (an id, not the object: the record must not keep it alive)."""
    obj = None
    label = ""


_last = _LastInPlace()


def _refuse(what: str):
    raise ConversionError(
        f"{what} inside an `if` or loop on a traced value is not supported"
        f"{location_note(user_source())}: the block is traced once but runs at every "
        f"step, so the write would happen once; compute a new value and assign it to a "
        f"local variable instead")


def _written_back(value, label: str) -> bool:
    """True where `value` is what the inner write of `label`'s nested target wrote into.

    The inner label extends this one (`a.b` for `a`, `a[i]` for `a`), as the
    converter makes them; the record is used once.
    """
    obj, inner = _last.obj, _last.label
    _last.obj, _last.label = None, ""
    return obj == id(value) and re.match(
        re.escape(label) + r"\s*[.\[]", inner) is not None


def _wrote_in_place(target, label: str):
    if _INNER.search(label):  # `a.b`, `a[i]`: an outer write reads the record next
        _last.obj, _last.label = id(target), label
    return target


_INNER = re.compile(r"(\]|\.\s*\w+)$")


def setitem(target, index, value, label: str):
    """`target[index] = value`; returns the target written in place, or the new array."""
    if _written_back(value, label):
        return target
    written = _write_array(target, index, value, label)
    if written is not NotImplemented:
        return written
    if in_staged_block():
        _refuse(f"item assignment `{label}[...] = ...`")
    target[index] = value
    return _wrote_in_place(target, label)


def setattr_(target, name: str, value, label: str):
    """`target.name = value`; returns the target."""
    if _written_back(value, label):
        return target
    if in_staged_block():
        _refuse(f"attribute assignment `{label}.{name} = ...`")
    setattr(target, name, value)
    return _wrote_in_place(target, label)


def _traced(value) -> bool:
    if isinstance(value, (tuple, list)):
        return any(map(_traced, value))
    if isinstance(value, slice):
        return any(map(_traced, (value.start, value.stop, value.step)))
    return isinstance(value, Tracer)


def _write_array(target, index, value, label: str):
    """The array branch of `setitem`: the updated array, or NotImplemented for other targets."""
    if isinstance(target, Tracer):
        _check_views(target, label)
        updated = index_update(target, index, value)
        if target.builder is not updated.builder:
            if _INNER.search(label):  # `a.b[i] = v`: the outer write stores the new array
                return updated
            raise TracingError(
                f"item assignment `{label}[...] = ...` on a value from outside the staged "
                f"block{location_note(user_source())}, which does not rebind it: it would be "
                f"written once, while tracing; assign the new value to a local variable")
        target.node = updated.node  # every name bound to target sees the write
        return target
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
    builder = current_builder()
    return index_update(Tracer(builder, builder.const(target)), index, value)


def _rebound(target, label: str) -> bool:
    """True where the converter rebinds what this write returns: a nested target's
    inner write (the outer one stores it), or a local name of the calling function."""
    if _INNER.search(label):
        return True
    frame = user_frame()
    code = frame.f_code if frame is not None else None
    return code is not None and label not in code.co_freevars and \
        label in code.co_varnames + code.co_cellvars and frame.f_locals.get(label) is target


def _root(label: str) -> str:
    match = re.match(r"[A-Za-z_]\w*", label)
    return match.group(0) if match else label


def _alias_error(label, other):
    return TracingError(
        f"{label!r} is written (`{label}[...] = ...`){location_note(user_source())} and "
        f"{other!r} shares its memory: NumPy would change both, which a graph cannot "
        f"follow; copy one of them (`{other} = {other}.copy()`) first")


def _check_shared(target, label):
    """`TracingError` where another local name shares memory with the NumPy `target`."""
    root = _root(label)
    for name, value in user_locals().items():
        if name != root and shares_memory(target, value):  # `alias = out` too
            raise _alias_error(label, name)


def _check_views(target, label):
    """`TracingError` where another local name is bound to a view of the traced `target`
    (or to the array it is a view of): a write would change both in NumPy."""
    builder, shared = target.builder, target.builder.shares_memory
    if target.node.id not in shared:
        return
    root, scope = _root(label), user_locals()
    others = {name: value for name, value in scope.items()
              if name != root and isinstance(value, Tracer) and value is not target
              and value.builder is builder and value.node.id in shared}
    if not others:
        return
    base = _view_bases(builder)
    mine = _memory_of(target.node.id, base)
    for name, value in others.items():
        if _memory_of(value.node.id, base) == mine:
            raise _alias_error(label, name)


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


slice_ = slice  # `x[1:] = v` -> `x = ag__.setitem(x, ag__.slice_(1, None, None), v, 'x')`


def check_global_write(name: str):
    """Called before a `global`/`nonlocal` variable is assigned."""
    if in_staged_block():
        _refuse(f"assigning the global or nonlocal variable {name!r}")
