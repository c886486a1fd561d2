"""Variables Python has not bound yet: `Undefined` in, `UnboundLocalError` out."""
from __future__ import annotations

from runtime.undefined import Undefined


def bound_or_undefined(read, name: str):
    """The value `read()` gives, or `Undefined(name)` where the variable is unbound."""
    try:
        return read()
    except NameError:
        return Undefined(name)


def ld(value):
    """`value`, or the `UnboundLocalError` Python raises for an unbound variable in it."""
    if isinstance(value, Undefined):
        raise value.error()
    if type(value) in (tuple, list):
        for item in value:
            ld(item)
    return value
