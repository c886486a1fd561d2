"""How NumPy calls on traced values find their primitives.

`ufunc_handlers[(ufunc, method)]` serves `__array_ufunc__` (method is
`"__call__"`, `"reduce"`, `"accumulate"`); `array_function_handlers[func]` serves
`__array_function__`. Both are filled by `runtime/ops/`. A ufunc's `out=x` on a
traced x writes x in place (`tracer_value.write_in_place`). A NumPy function
without a handler is staged as NumPy's own, run when the graph runs
(`fallback`: `ops/numpy_calls.py`), or refused with a `TracingError` naming
it: a traced value never silently becomes a constant.
"""
from __future__ import annotations

import functools
import inspect

import numpy as np

from .errors import TracingError, add_note_once
from .source import called_by_user, location_note, user_source

ufunc_handlers: dict = {}
array_function_handlers: dict = {}
staged_elsewhere: dict = {}  # a NumPy callable NumPy does not dispatch -> what stages it
#                              (autograph's converted code); read by tools/numpy_table.py
out_writer = None  # (x, result, name, ufunc, other) -> x written; set by tracer_value.py
concrete_out = None  # (ufunc, out, result, inputs) -> what `out op= traced` rebinds out to,
#                      or None; set by autograph (a NumPy array cannot hold a traced value)
is_traced = None   # set by tracer_value.py: isinstance(x, Tracer)
writes_out: set = set()  # NumPy functions (not ufuncs) whose `out=` a traced call writes
masked = None    # (ufunc, inputs, out, kwargs) -> NumPy's masked ufunc call staged
fallback = None  # (fn, name, args, kwargs) -> NumPy's own `fn` staged, to run when the graph
#                  runs (`ops/numpy_calls.py`), or its TracingError


def implements(*numpy_functions, out: bool = False):
    """Registers the decorated function as the traced version of each NumPy function;
    with `out`, a traced `out=` argument is written with the result (`check_out`)."""
    def register(handler):
        for func in numpy_functions:
            array_function_handlers[func] = handler
        if out:
            writes_out.update(numpy_functions)
        return handler
    return register


def unsupported(what: str, way_out: str = "") -> TracingError:
    return TracingError(
        f"{what} is not supported on traced values{location_note(user_source())}{way_out}")


def py_function_way_out(name: str) -> str:
    """The way out of an unsupported function `name`: NumPy's own, run when the graph runs
    (docs/numpy.md lists what is staged)."""
    short = name.replace("numpy.", "np.", 1)
    return (f"; to run NumPy's own when the graph runs, write "
            f"`ag.py_function({short}, x, out=ag.TensorSpec(shape, dtype))` with the result's "
            f"shape and dtype (docs/numpy.md lists what is staged)")


def call_ufunc(ufunc, method, inputs, kwargs):
    if kwargs.get("where", True) is not True and method == "__call__" and ufunc.nout == 1:
        return _masked_call(ufunc, inputs, kwargs)
    handler = ufunc_handlers.get((ufunc, method))
    if handler is None:
        name = _ufunc_name(ufunc) + ("" if method == "__call__" else f".{method}")
        if fallback is None or method == "at" or "out" in kwargs:   # `at` writes in place
            raise unsupported(name, py_function_way_out(name))
        fn = ufunc if method == "__call__" else getattr(ufunc, method)
        return _noted(name, fallback, fn, name, _values(inputs), kwargs)
    out = kwargs.pop("out", None)
    result = _noted(_ufunc_name(ufunc) + ("" if method == "__call__" else f".{method}"),
                    handler, ufunc, *_values(inputs), **kwargs)
    if out is None:
        return result
    return _write_out(ufunc, out, result, inputs)


def _masked_call(ufunc, inputs, kwargs):
    """`ufunc(..., out=o, where=mask)`: NumPy's masked call (`masked`), then `o` written
    with its result; without `out` (where NumPy leaves the masked-off elements
    uninitialized) a `TracingError`."""
    kwargs = dict(kwargs)
    out = kwargs.pop("out", None)
    start = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    name = f"{_ufunc_name(ufunc)}(..., where=...)"
    if start is None or masked is None:
        raise unsupported(name, " without out= (NumPy leaves the elements where `where` is "
                                "False uninitialized): pass out=np.zeros_like(...)")
    result = _noted(name, masked, ufunc, _values(inputs), start, kwargs)
    return _write_out(ufunc, start, result, inputs)


def _ufunc_name(ufunc) -> str:
    """`numpy.exp`; another library's ufunc by its own name (`ufunc 'expit'`)."""
    if getattr(np, ufunc.__name__, None) is ufunc:
        return f"numpy.{ufunc.__name__}"
    return f"ufunc {ufunc.__name__!r}"


def _write_out(ufunc, out, result, inputs):
    """`ufunc(..., out=x)`: x is written in place by `out_writer`, or refused."""
    outs = out if isinstance(out, tuple) else (out,)
    results = result if isinstance(result, tuple) else (result,)
    if any(getattr(getattr(o, "flags", None), "writeable", True) is False for o in outs):
        raise ValueError("output array is read-only")  # as NumPy says (see autograph's in_place)
    if len(outs) == 1 == len(results) and not is_traced(outs[0]) and concrete_out is not None:
        rebound = concrete_out(ufunc, outs[0], results[0], inputs)
        if rebound is not None:
            return rebound
    if len(outs) != len(results) or any(o is not None and not is_traced(o) for o in outs):
        raise unsupported(f"numpy.{ufunc.__name__}(..., out=...) with an out that is "
                          f"not a traced array")
    other = inputs[-1] if len(inputs) > 1 else inputs[0]
    written = tuple(r if o is None else out_writer(o, r, ufunc.__name__, ufunc, other)
                    for o, r in zip(outs, results))
    return written if isinstance(result, tuple) else written[0]


def call_array_function(func, args, kwargs):
    handler = array_function_handlers.get(func)
    name = public_name(func)
    if handler is None:
        if fallback is None or "out" in kwargs:
            raise unsupported(name, py_function_way_out(name))
        return _noted(name, fallback, func, name, _values(args), dict(zip(
            kwargs, _values(kwargs.values()))))
    values = _values(kwargs.values())
    if values is not kwargs.values() or func in writes_out and "out" in kwargs:
        kwargs = dict(zip(kwargs, values))
    args = _values(args)
    if func in writes_out and "out" not in kwargs:
        args, kwargs = _out_by_keyword(func, args, kwargs)
    out = kwargs.pop("out", None) if func in writes_out else None
    result = _noted(name, handler, *args, **kwargs)
    if func in ZERO_D_ARRAYS and called_by_user(2):
        result = zero_d_array(result, args)   # (a call of the project's own: as it is)
    if out is None:
        return result
    if not hasattr(out, "shape"):
        raise TypeError("return arrays must be of ArrayType")  # as NumPy says
    if not is_traced(out):
        raise unsupported(f"{name}(..., out=...) with an out that is not a traced array")
    _noted(name, check_out, func, out, result, args, kwargs)
    return out_writer(out, result, name)


zero_d_array = None   # (result, operands) -> result as a 0-d array; set by tracer_value.py
# NumPy's functions whose 0-d result is a 0-d array, not a NumPy scalar: a view (`reshape`,
# `squeeze`) that `+=` writes through, a copy that `a[j]` indexes with (advanced: a copy)
ZERO_D_ARRAYS = frozenset({np.reshape, np.squeeze, np.where, np.copy, np.tensordot,
                           np.broadcast_to, np.select, np.piecewise, np.moveaxis,
                           np.expand_dims, np.full_like, np.zeros_like, np.ones_like,
                           np.empty_like})


@functools.lru_cache(maxsize=None)
def _parameters(func) -> tuple:
    """The names of `func`'s parameters that may be given by position."""
    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return ()
    return tuple(p.name for p in parameters
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def _out_by_keyword(func, args, kwargs):
    """`args` and `kwargs` with an `out` given by position (`np.sum(a, 0, None, out)`),
    and those after it, moved to the keywords."""
    names = _parameters(func)
    if "out" not in names or len(args) <= names.index("out"):
        return args, kwargs
    k = names.index("out")
    return args[:k], {**kwargs, **dict(zip(names[k:], args[k:]))}


def check_out(func, out, result, args, kwargs) -> None:
    """Raises NumPy's own error where `func(*args, out=out, **kwargs)` fails (probed on
    ones, where every dimension is known), and refuses an `out` of another dtype than
    the result: NumPy casts into it in chunks of its buffer (a float64 sum into a
    float32 `out` is neither the sum cast nor a float32 sum), which a graph does not follow."""
    if not any(None in x.shape for x in _traced_in((*args, *kwargs.values(), out, result))):
        with np.errstate(all="ignore"):
            func(*map(_ones, args), **{k: _ones(v) for k, v in kwargs.items()}, out=_ones(out))
    elif any(a is not None and b is not None and a != b
             for a, b in zip(out.shape, result.shape)) or len(out.shape) != len(result.shape):
        raise ValueError(f"output array of shape {out.shape} does not fit {public_name(func)}'s "
                         f"result of shape {result.shape}")
    if out.dtype != result.dtype:
        raise unsupported(
            f"{public_name(func)}(..., out=...) with an out of dtype {out.dtype} for a result "
            f"of dtype {result.dtype} (NumPy casts into it chunk by chunk)",
            f"; pass `dtype={out.dtype}` where the function takes it, or write "
            f"`out[...] = {public_name(func).replace('numpy.', 'np.', 1)}(...)` to cast the "
            f"whole result")


def _traced_in(values) -> list:
    """The traced values among `values`, also in lists and tuples."""
    found = []
    for x in values:
        found += _traced_in(x) if type(x) in (list, tuple) else [x] if is_traced(x) else []
    return found


def _ones(x):
    """x with each traced value (also in lists and tuples) replaced by ones of its type."""
    if type(x) in (list, tuple):
        return type(x)(map(_ones, x))
    return np.ones(x.shape, x.dtype) if is_traced(x) else x


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
        where = location_note(user_source())
        notes = getattr(error, "__notes__", [])
        said = [k for k, note in enumerate(notes)
                if note.startswith("while tracing ") and note.endswith(where)]
        if said and where:   # the primitive's note at this line: NumPy's name says more
            notes[said[-1]] = f"while tracing {name}{where}"
        else:
            add_note_once(error, f"while tracing {name}{where}")
        raise


def public_name(func) -> str:
    """`numpy.fft.rfft` for a function defined in `numpy.fft._pocketfft`."""
    module = getattr(func, "__module__", None) or "numpy"
    public = ".".join(part for part in module.split(".") if not part.startswith("_"))
    return f"{public}.{func.__name__}"
