"""Item, attribute and global writes in converted code.

`x[i] = v` and `obj.a = v` write as Python does and return the container, so
the converter can rebind its root (`d = ag__.setitem(d, 'a', v, 'd')`) and a
staged block threads it as state. Inside a staged `if` or loop, dicts, lists
and plain objects are written only where the block threads them (fresh copies
written back after the block, see `composite`); any other write is refused
(traced once, it would happen once).
"""
from __future__ import annotations

import numpy as np

from runtime import Tracer
from runtime.source import location_note, user_source

from ..pyct.errors import ConversionError
from . import composite
from .staging import in_staged_block


def _refuse(what: str):
    raise ConversionError(
        f"{what} inside an `if` or loop on a traced value is not supported"
        f"{location_note(user_source())}: the block is traced once but runs at every "
        f"step, so the write would happen once; compute a new value and assign it to a "
        f"local variable instead")


def setitem(target, index, value, label: str):
    """`target[index] = value`; returns `target`."""
    if isinstance(target, (np.ndarray, Tracer)):
        if in_staged_block():
            _refuse(f"item assignment `{label}[...] = ...`")
        target[index] = value
        return target
    return composite.set_item(target, index, value, label)


def setattr_(target, name: str, value, label: str):
    """`target.name = value`; returns `target`."""
    return composite.set_attribute(target, name, value, label)


def check_global_write(name: str):
    """Called before a `global`/`nonlocal` variable is assigned."""
    if in_staged_block():
        _refuse(f"assigning the global or nonlocal variable {name!r}")
