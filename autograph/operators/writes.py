"""Item and attribute writes, and the check before a global is assigned.

The converter rebinds the root of each write (autograph/converters/writes.py):

    a.b[i] = v    ->  a = ag__.setattr_(a, 'b', ag__.setitem(a.b, i, v, 'a.b'), 'a')

On plain values each operator writes in place, as Python does, and returns its
target. The outer write of a nested target then has nothing left to do: the
object the inner write wrote into is already where it was read from (even
where it was a copy, as in `a[[0, 1]][0] = v`, which Python leaves unchanged).
Where the inner write made a new value instead (a traced array updated
functionally), the outer write stores it. Dicts, lists and plain objects
inside a staged `if` or loop are written where the block threads them
(`composite`: fresh copies, written back after the block).
"""
from __future__ import annotations

import re
import threading

import numpy as np

from runtime import Tracer
from runtime.source import location_note, user_source

from ..pyct.errors import ConversionError
from . import composite
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
    if not isinstance(target, (np.ndarray, Tracer)):  # dicts, lists, objects: composite
        return _wrote_in_place(composite.set_item(target, index, value, label), label)
    if in_staged_block():
        _refuse(f"item assignment `{label}[...] = ...`")
    target[index] = value
    return _wrote_in_place(target, label)


def setattr_(target, name: str, value, label: str):
    """`target.name = value`; returns the target."""
    if _written_back(value, label):
        return target
    return _wrote_in_place(composite.set_attribute(target, name, value, label), label)


slice_ = slice  # `x[1:] = v` -> `x = ag__.setitem(x, ag__.slice_(1, None, None), v, 'x')`


def check_global_write(name: str):
    """Called before a `global`/`nonlocal` variable is assigned."""
    if in_staged_block():
        _refuse(f"assigning the global or nonlocal variable {name!r}")
