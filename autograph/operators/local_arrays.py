"""A NumPy array of a local name written with a traced value: the name is rebound.

    t = np.zeros(3)       # a NumPy array made while tracing
    t -= y                # y traced: NumPy calls np.subtract(t, y, out=t)

A NumPy array cannot hold a traced value, but Python stores what an augmented
assignment returns back into its target, so the traced result (cast to t's
dtype, with NumPy's casting and broadcasting errors) is what `t` is bound to
afterwards. That is NumPy's answer as long as nothing else sees the array:
another local name bound to it, or to memory it shares (`u = t`, `w = t[1:]`),
is a `TracingError` naming both (`aliases.py`). The converter rebinds `t` for
the calls that write it as statements too (`converters/in_place_calls.py`):
`t.fill(v)`, `t.sort()` (`method_in_place`), `np.add(a, v, out=t)` (`out_call`) and
`np.add.at(t, i, v)` (`ufunc_at`).
"""
from __future__ import annotations

import dis
import functools

import numpy as np

import autograph_runtime.dispatch
import autograph_runtime as runtime
from autograph_runtime.tracer_value import Tracer

from autograph_runtime import current_builder

from .aliases import alias_error
from .array_likes import holds_traced
from .calls import converted_call
from .in_place import shares_memory, user_frame, user_locals


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
    _check_alone(out, names[0], f"{names[0]} {operator} ...", frame.f_locals)
    _check_like_numpy(ufunc, out, inputs)
    return _as_out(result, out)


def _check_alone(array, name, how, scope) -> None:
    """`TracingError` where another name of `scope` shares memory with `array`."""
    for other, value in scope.items():
        if other != name and shares_memory(array, value):
            raise alias_error(name, other, how)


def _as_out(result, out):
    """The traced `result` as NumPy writes it into `out` (broadcast, cast)."""
    if result.shape != out.shape:
        result = np.broadcast_to(result, out.shape)
    return result if result.dtype == out.dtype else result.astype(out.dtype)


def method_in_place(target, method: str, args: tuple, kwargs: dict, label: str):
    """`target.method(*args, **kwargs)` as a statement (`t.fill(v)`): what `target`'s name
    is bound to afterwards. A NumPy array written with a traced value becomes traced."""
    if type(target) is np.ndarray and _traced(args, kwargs):
        if not target.flags.writeable:  # NumPy's error: a staged block's probe lifts it
            raise ValueError("assignment destination is read-only")
        _check_alone(target, label, f"{label}.{method}(...)", user_locals())
        builder = current_builder()
        target = Tracer(builder, builder.const(target))
    converted_call(getattr(target, method), args, kwargs)
    return target


def out_call(function, args: tuple, kwargs: dict, label: str):
    """`function(*args, out=t, ...)` as a statement: what `t` is bound to afterwards. A
    ufunc, or a function with `out=` (`np.sum`, `runtime.dispatch.check_out`), writing a
    traced result into a NumPy array gives it, as NumPy writes it."""
    out = kwargs["out"]
    ufunc = isinstance(function, np.ufunc)
    if type(out) is np.ndarray and (ufunc or function in runtime.dispatch.writes_out) \
            and _traced(args, kwargs):
        if not out.flags.writeable:
            raise ValueError("output array is read-only")
        name = getattr(function, "__name__", "call")
        _check_alone(out, label, f"{name}(..., out={label})", user_locals())
        rest = {k: v for k, v in kwargs.items() if k != "out"}
        if ufunc:
            _check_like_numpy(function, out, args)
        result = converted_call(function, args, rest)
        if not ufunc:
            runtime.dispatch.check_out(function, out, result, args, rest)
        return _as_out(result, out)
    converted_call(function, args, kwargs)
    return out


def ufunc_at(method, args: tuple, kwargs: dict, label: str):
    """`ufunc.at(t, indices, b)` as a statement: what `t` is bound to afterwards. A NumPy
    array written with a traced index or value becomes traced; a read-only one is NumPy's
    read-only error (NumPy 2.4's `at` writes it anyway; a staged block's probe lifts it)."""
    target = args[0]
    if not isinstance(getattr(method, "__self__", None), np.ufunc) \
            or getattr(method, "__name__", "") != "at" or type(target) is not np.ndarray:
        converted_call(method, args, kwargs)
        return target
    if not target.flags.writeable:
        raise ValueError("output array is read-only")
    if not _traced(args[1:], kwargs):
        method(*args, **kwargs)
        return target
    name = f"{method.__self__.__name__}.at"
    _check_alone(target, label, f"np.{name}({label}, ...)", user_locals())
    builder = current_builder()
    target = Tracer(builder, builder.const(target))
    method(target, *args[1:], **kwargs)   # the traced target holds the result
    return target


def _traced(args, kwargs) -> bool:
    """Whether a value of the call is traced (also in a list or tuple of them)."""
    return any(isinstance(x, Tracer) or holds_traced(x) for x in (*args, *kwargs.values()))


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
