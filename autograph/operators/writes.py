"""Writes that cannot be staged: items, attributes and globals inside staged blocks."""
from __future__ import annotations

from runtime.source import location_note, user_source

from ..pyct.errors import ConversionError
from .staging import in_staged_block


def _refuse(what: str):
    raise ConversionError(
        f"{what} inside an `if` or loop on a traced value is not supported"
        f"{location_note(user_source())}: the block is traced once but runs at every "
        f"step, so the write would happen once; compute a new value and assign it to a "
        f"local variable instead")


def setitem(target, index, value, label: str):
    """`target[index] = value`, refused inside staged blocks."""
    if in_staged_block():
        _refuse(f"item assignment `{label}[...] = ...`")
    target[index] = value


def setattr_(target, name: str, value, label: str):
    """`target.name = value`, refused inside staged blocks."""
    if in_staged_block():
        _refuse(f"attribute assignment `{label}.{name} = ...`")
    setattr(target, name, value)


def check_global_write(name: str):
    """Called before a `global`/`nonlocal` variable is assigned."""
    if in_staged_block():
        _refuse(f"assigning the global or nonlocal variable {name!r}")
