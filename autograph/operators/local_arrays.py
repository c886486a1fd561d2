"""`t op= v` on a NumPy array of a local name, with a traced `v`: the name is rebound.

    t = np.zeros(3)       # a NumPy array made while tracing
    t -= y                # y traced: NumPy calls np.subtract(t, y, out=t)

A NumPy array cannot hold a traced value, but Python stores what an augmented
assignment returns back into its target, so the traced result (cast to t's
dtype, with NumPy's casting and broadcasting errors) is what `t` is bound to
afterwards. That is NumPy's answer as long as nothing else sees the array:
another local name bound to it, or to memory it shares (`u = t`, `w = t[1:]`),
is a `TracingError` naming both (`aliases.py`). `np.subtract(t, y, out=t)`
written as a call does not rebind `t`, and stays refused.
"""
from __future__ import annotations

import dis
import functools

import numpy as np

import runtime.dispatch
from runtime.tracer_value import Tracer

from .aliases import alias_error
from .in_place import shares_memory, user_frame


def rebound_out(ufunc, out, result, inputs):
    """The value `out op= traced` rebinds its local name to, or None (not that statement)."""
    frame = user_frame()
    operator = frame and _operator_at(frame.f_code, frame.f_lasti)
    if type(out) is not np.ndarray or not operator or not out.flags.writeable \
            or not isinstance(result, Tracer):
        return None
    names = [name for name, value in frame.f_locals.items() if value is out]
    if not names:
        return None
    for name, value in frame.f_locals.items():
        if name != names[0] and shares_memory(out, value):
            raise alias_error(names[0], name, f"{names[0]} {operator} ...")
    _check_like_numpy(ufunc, out, inputs)
    if result.shape != out.shape:
        result = np.broadcast_to(result, out.shape)
    return result if result.dtype == out.dtype else result.astype(out.dtype)


def _check_like_numpy(ufunc, out, inputs) -> None:
    """NumPy's own error for writing the result into `out` (casting, broadcasting)."""
    probes = [np.ones([d or 1 for d in x.shape], x.dtype) if isinstance(x, Tracer) else x
              for x in inputs]
    with np.errstate(all="ignore"):
        ufunc(*probes, out=np.ones(out.shape, out.dtype))


@functools.lru_cache(maxsize=4096)
def _operator_at(code, offset) -> str | None:
    """The augmented assignment's operator (`-=`) the instruction at `offset` runs, or None."""
    for instruction in dis.get_instructions(code):
        if instruction.offset == offset:
            augmented = instruction.opname == "BINARY_OP" and instruction.argrepr.endswith("=")
            return instruction.argrepr if augmented else None
    return None


runtime.dispatch.concrete_out = rebound_out
