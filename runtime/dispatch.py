"""How NumPy calls on traced values find their primitives.

`ufunc_handlers[(ufunc, method)]` serves `__array_ufunc__` (method is
`"__call__"`, `"reduce"`, `"accumulate"`); `array_function_handlers[func]` serves
`__array_function__`. Both are filled by `runtime/ops/`. A NumPy function
without a handler raises `TracingError` naming it: a traced value never
silently becomes a constant.
"""
from __future__ import annotations

from .errors import TracingError, add_note_once
from .source import location_note, user_source

ufunc_handlers: dict = {}
array_function_handlers: dict = {}


def implements(*numpy_functions):
    """Registers the decorated function as the traced version of each NumPy function."""
    def register(handler):
        for func in numpy_functions:
            array_function_handlers[func] = handler
        return handler
    return register


def unsupported(what: str) -> TracingError:
    return TracingError(
        f"{what} is not supported on traced values{location_note(user_source())}")


def call_ufunc(ufunc, method, inputs, kwargs):
    handler = ufunc_handlers.get((ufunc, method))
    if handler is None:
        suffix = "" if method == "__call__" else f".{method}"
        raise unsupported(f"numpy.{ufunc.__name__}{suffix}")
    if kwargs.get("out") is not None:
        raise unsupported(f"numpy.{ufunc.__name__}(..., out=...)")
    kwargs.pop("out", None)
    return _noted(f"numpy.{ufunc.__name__}", handler, ufunc, *_values(inputs), **kwargs)


def call_array_function(func, args, kwargs):
    handler = array_function_handlers.get(func)
    if handler is None:
        raise unsupported(public_name(func))
    values = _values(kwargs.values())
    if values is not kwargs.values():
        kwargs = dict(zip(kwargs, values))
    return _noted(public_name(func), handler, *_values(args), **kwargs)


def _values(operands):
    """The operands, with `Variable`s (also in lists and tuples) read."""
    for x in operands:
        if type(x) in (list, tuple) or hasattr(type(x), "__ag_read__"):
            return read_operands(operands)
    return operands


def read_operands(values):
    """`values` with each value whose type has `__ag_read__` (a `Variable`, also inside
    lists and tuples) replaced by what it reads."""
    out = []
    for x in values:
        read = getattr(type(x), "__ag_read__", None)
        if read is not None:
            x = read(x)
        elif type(x) in (list, tuple) and any(
                type(y) in (list, tuple) or hasattr(type(y), "__ag_read__") for y in x):
            x = type(x)(read_operands(x))
        out.append(x)
    return out


def _noted(name, handler, *args, **kwargs):
    """Calls a handler; an error it raises gains a note with the user's line."""
    try:
        return handler(*args, **kwargs)
    except Exception as error:
        add_note_once(error, f"while tracing {name}{location_note(user_source())}")
        raise


def public_name(func) -> str:
    """`numpy.fft.rfft` for a function defined in `numpy.fft._pocketfft`."""
    module = getattr(func, "__module__", None) or "numpy"
    public = ".".join(part for part in module.split(".") if not part.startswith("_"))
    return f"{public}.{func.__name__}"
