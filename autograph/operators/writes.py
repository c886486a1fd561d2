"""Item and attribute writes, and the check before a global is assigned.

The converter rebinds the root of each write (autograph/converters/writes.py):

    a.b[i] = v    ->  a = ag__.setattr_(a, 'b', ag__.setitem(a.b, i, v, 'a.b'), 'a')

On plain values each operator writes in place, as Python does, and returns its
target. The outer write of a nested target then has nothing left to do: the
object the inner write wrote into is already where it was read from (even
where it was a copy, as in `a[[0, 1]][0] = v`, which Python leaves unchanged).
Where the inner write made a new value instead (a traced array updated
functionally), the outer write stores it.

Arrays are written by `array_writes.write_array`: a traced array is updated
functionally, and the rebinding carries the new value. Dicts, lists and plain
objects inside a staged `if` or loop are written where the block threads them
(`composite`: fresh copies, written back after the block).
"""
from __future__ import annotations

import operator
import re
import threading

import numpy as np

from autograph_runtime import Tracer
from autograph_runtime.ops.flat import FlatIter

from autograph_runtime.source import location_note, user_source

from ..pyct.errors import ConversionError
from . import composite
from .array_likes import as_array, holds_traced
from .array_writes import is_inner, write_array
from .conversions import index_key
from .staging import in_staged_block, threaded_by_block


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
    if is_inner(label):  # `a.b`, `a[i]`: an outer write reads the record next
        _last.obj, _last.label = id(target), label
    return target


def setitem(target, index, value, label: str):
    """`target[index] = value`; returns the target written in place, or the new array."""
    if _written_back(value, label):
        return target
    if isinstance(target, (Tracer, np.ndarray)):
        index = index_key(index)   # `A[[k, p]] = ...` with p traced
        if holds_traced(value):    # `v[1:] = [f(p) for p in rows]`: NumPy's array of it
            value = as_array(value)
    written = write_array(target, index, value, label)
    if written is not NotImplemented:
        if written is target and (isinstance(target, FlatIter) or isinstance(
                target, Tracer) and target.viewing is not None):
            return _wrote_in_place(target, label)  # `x.T[0] = v`, `x.flat[0] = v`: x has it
        return written
    if not isinstance(target, np.ndarray):  # dicts, lists, objects: operators.composite
        return _wrote_in_place(composite.set_item(target, index, value, label), label)
    if in_staged_block():
        _refuse(f"item assignment `{label}[...] = ...`")
    target[index] = value
    return _wrote_in_place(target, label)


def setattr_(target, name: str, value, label: str):
    """`target.name = value`; returns the target."""
    if _written_back(value, label):   # and so for the write it is inner to (`x.T.flat[0]`)
        return _wrote_in_place(target, label)
    return _wrote_in_place(composite.set_attribute(target, name, value, label), label)


_AUGMENTED = {  # symbol: (in place, binary, the ufunc whose casting rule `x[i:j] op= v` keeps)
    "+": (operator.iadd, operator.add, np.add),
    "-": (operator.isub, operator.sub, np.subtract),
    "*": (operator.imul, operator.mul, np.multiply),
    "@": (operator.imatmul, operator.matmul, None),
    "/": (operator.itruediv, operator.truediv, np.true_divide),
    "//": (operator.ifloordiv, operator.floordiv, np.floor_divide),
    "%": (operator.imod, operator.mod, np.remainder),
    "**": (operator.ipow, operator.pow, np.power),
    "<<": (operator.ilshift, operator.lshift, np.left_shift),
    ">>": (operator.irshift, operator.rshift, np.right_shift),
    "|": (operator.ior, operator.or_, np.bitwise_or),
    "^": (operator.ixor, operator.xor, np.bitwise_xor),
    "&": (operator.iand, operator.and_, np.bitwise_and),
}


def augmented(current, op: str, value):
    """`current op= value`, the value `x[i] op= v` writes back into `x[i]`.

    In place on plain values, as Python does (`lst[0] += [1]` extends the list
    other names see; a NumPy view is written, with NumPy's casting errors). A new
    value where either side is traced; a traced array keeps NumPy's rule for
    writing the result into it (`UFuncTypeError` for float into an int slice).
    """
    in_place, binary, ufunc = _AUGMENTED[op]
    if not isinstance(current, Tracer) and not isinstance(value, Tracer):
        return in_place(current, value)
    if _whole_traced_array(current):  # `d[k] += v`: the array other names (or the caller) see
        return in_place(current, value)
    if isinstance(current, Tracer) and current.ndim and ufunc is not None:
        probe = np.ones((1,), current.dtype)
        with np.errstate(all="ignore"):
            ufunc(probe, np.ones((), value.dtype) if isinstance(value, (Tracer, np.ndarray))
                  else value, out=probe)   # NumPy's casting rule (the dtypes only)
    return binary(current, value)


def _whole_traced_array(value) -> bool:
    """A traced array that is not a view (an item of a dict or list, not `x[i]` of an array)."""
    return isinstance(value, Tracer) and value.ndim > 0 and \
        value.node.id not in value.builder.shares_memory


slice_ = slice  # `x[1:] = v` -> `x = ag__.setitem(x, ag__.slice_(1, None, None), v, 'x')`


def check_global_write(name: str):
    """Called before a `global`/`nonlocal` variable is assigned: refused inside a staged
    block, unless that block threads it as its state (a `nonlocal` variable of the
    function, or one a closure it calls rebinds: autograph/converters/_state.py)."""
    if in_staged_block() and not threaded_by_block(name):
        _refuse(f"assigning the global or nonlocal variable {name!r}")
