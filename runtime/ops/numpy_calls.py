"""NumPy's own function, run when the graph runs, for what has no staged form.

A NumPy function the runtime does not stage (`np.linalg.cond`, `np.polyval`,
`np.add.outer`, ...) is not refused: it becomes a `numpy_call` equation,
whose kernel calls NumPy's function on the arrays the graph holds when it
runs, so its answer, dtype, errors and warnings are NumPy's own. What the
graph must know while tracing, the result's structure, dtypes and shapes, is
learnt by calling the function on probes: arrays of the traced arguments'
types filled with values of three kinds (random, others at other sizes for
unknown dimensions, and all ones; one random probe only where the arguments
hold more than `ONE_PROBE_ELEMENTS`, where a probe costs what a call does).
A dimension the probes disagree on is
unknown in the graph (`np.unique`'s length), and when the graph runs each
result is checked against what was learnt: a shape or dtype that depends on
the values in a way the probes did not show raises a `ValueError` naming the
function, never a silently different answer.

Refused, as before, with the way out (`ag.py_function`): a function every
probe fails on, one whose probes disagree on the result's structure, rank or
dtype, one that writes its arguments (`np.copyto`) or returns a view of one
(writes through it could not be followed), one given a Python function
(`np.apply_along_axis(f, ...)`: the probes would run it), and results that
are not arrays or numbers (`np.array2string` of one traced value is a text
formatted when the graph runs, `TEXT_RESULTS`). The equation is pure (NumPy's functions
have no effects), has no gradient, no native or ONNX lowering, and is saved
by the function's public name.

>>> import numpy as np
>>> import autograph_runtime as runtime
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as builder:
...     m = builder.new_input(AbstractValue((3, 3), np.float64), "m")
...     c = np.linalg.cond(m) * 2
>>> graph = builder.build([c])
>>> print(graph)
graph f(m:f64[3,3]) {
  t0:f64[] = numpy_call[function='numpy.linalg.cond', args=(Dyn(k=0),), kwargs=()] m
  t1:f64[] = multiply t0 2
  return t1
}
>>> float(runtime.compile_graph(graph, runtime.get_backend("cpu"))(np.diag([1.0, 2.0, 4.0]))[0])
8.0
"""
from __future__ import annotations

import functools
import importlib
import warnings

import numpy as np

from .. import dispatch, primitives
from ..abstract import AbstractValue, is_python_number, python_aval
from ..texts import FormattedText
from ..tracer import Tracer, bind
from .indexing import Dyn


@functools.lru_cache(maxsize=None)
def _resolve(name: str):
    """The NumPy callable of a public name: `numpy.linalg.cond`, `numpy.add.outer`."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for part in parts[k:]:
            found = getattr(found, part)
        return found
    raise ImportError(f"no NumPy function {name!r}")


def _fill(template, values):
    """`template` (args or kwargs) with each `Dyn(k)` replaced by `values[k]`."""
    if isinstance(template, Dyn):
        return values[template.k]
    if type(template) in (tuple, list):
        return type(template)(_fill(t, values) for t in template)
    return template


def _abstract_eval(*operands, function, args, kwargs, out_avals, multiple, weak=()):
    return list(out_avals)


def _check(name, value, aval):
    """`value` as the graph typed it (a NumPy result, its dtype and shape), else a
    `ValueError`: the result depends on the values in a way tracing could not see."""
    if aval.weak:
        if not is_python_number(value) or python_aval(value).dtype != aval.dtype:
            raise ValueError(f"{name} returned {value!r:.60} where tracing saw a Python "
                             f"{aval.dtype} (its result's type depends on its arguments' values)")
        return value
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    if dtype != aval.dtype or shape is None or len(shape) != len(aval.shape) or any(
            want is not None and got != want for got, want in zip(shape, aval.shape)):
        got = f"{dtype}{list(shape)}" if shape is not None else repr(value)[:60]
        raise ValueError(
            f"{name} returned {got} where tracing saw {aval}: its result's shape or dtype "
            f"depends on its arguments' values in a way autograph's probes did not show; "
            f"run it with ag.py_function, declaring the result")
    return value


def _kernel(xp, function, args, kwargs, out_avals, multiple, weak=()):
    fn = _resolve(function) if isinstance(function, str) else function
    host = (lambda a: a) if xp is np else (lambda a: a.get() if hasattr(a, "get") else a)

    def run(*operands):
        values = [host(v) for v in operands]
        for k in weak:   # a Python number in eager code: NumPy promotes it as one (NEP 50)
            values[k] = values[k].item() if hasattr(values[k], "item") else values[k]
        result = fn(*_fill(args, values), **dict(_fill(kwargs, values)))
        results = tuple(result) if multiple else (result,)
        if len(results) != len(out_avals):
            raise ValueError(f"{function} returned {len(results)} results where tracing saw "
                             f"{len(out_avals)}")
        checked = [_check(function, r, a) for r, a in zip(results, out_avals)]
        if xp is not np:
            checked = [xp.asarray(r) if not a.weak else r for r, a in zip(checked, out_avals)]
        return checked
    return run


# `multiple` says whether NumPy's result is a tuple (the equation's results are a list)
numpy_call_p = primitives.define("numpy_call", _abstract_eval, _kernel, multiple_results=True)
primitives.hidden_params[numpy_call_p] = ("out_avals", "multiple", "weak")   # types say


# -- probes -------------------------------------------------------------------------

_PROBE_SIZES = (3, 4, 3)   # an unknown dimension's size in each probe
ONE_PROBE_ELEMENTS = 1 << 16   # past this many, one probe: it costs as much as a call


def _probe_value(aval, kind: int, rng):
    """A value of `aval`'s type: random (kinds 0 and 1) or all ones (kind 2)."""
    shape = tuple(_PROBE_SIZES[kind] if d is None else d for d in aval.shape)
    dtype = aval.dtype
    if kind == 2:
        value = np.ones(shape, dtype)
    elif dtype.kind == "b":
        value = rng.random(shape) > 0.5
    elif dtype.kind in "iu":
        value = rng.integers(0, 3, shape).astype(dtype)   # small: valid indices, counts
    elif dtype.kind == "c":
        value = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    else:
        value = rng.standard_normal(shape).astype(dtype)
    if aval.weak:
        return value.item()
    return value


class _Refused(Exception):
    pass


def _learn(fn, args, kwargs, operands):
    """`(out_avals, multiple, namedtuple type or None)` from calling `fn` on probes."""
    rng = np.random.default_rng(0)
    outcomes, errors = [], []
    elements = sum(int(np.prod([d or 4 for d in op.aval.shape])) for op in operands
                   if isinstance(op, Tracer))
    for kind in range(3 if elements <= ONE_PROBE_ELEMENTS else 1):
        values = [_probe_value(op.aval, kind, rng) if isinstance(op, Tracer) else op
                  for op in operands]
        before = [np.copy(v) for v in values]
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                result = fn(*_fill(args, values), **dict(_fill(kwargs, values)))
        except Exception as error:   # this probe's values do not suit the function
            errors.append(error)
            continue
        if any(np.asarray(b).tobytes() != np.asarray(v).tobytes()   # bit for bit, NaN too
               for b, v in zip(before, values)):
            raise _Refused("it writes its arguments in place")
        outcomes.append((result, values))
    if not outcomes:
        raise _Refused(f"every probe of it raised ({type(errors[0]).__name__}: {errors[0]})")
    structures = {_structure(result) for result, _ in outcomes}
    if len(structures) != 1:
        raise _Refused("its result's structure depends on its arguments' values")
    multiple, kind = structures.pop()
    per_probe = []
    for result, values in outcomes:
        results = tuple(result) if multiple else (result,)
        for r in results:
            if isinstance(r, np.ndarray) and any(
                    isinstance(v, np.ndarray) and np.shares_memory(r, v) for v in values):
                raise _Refused("it returns a view of its argument, whose writes autograph "
                               "could not follow")
        per_probe.append([_result_aval(r) for r in results])
    return [_join(avals) for avals in zip(*per_probe)], multiple, kind


def _structure(result):
    """`(multiple, namedtuple type or None)` of a result, or `_Refused`."""
    if isinstance(result, tuple):
        if not all(_is_number_or_array(r) for r in result):
            raise _Refused("its result holds values that are not arrays or numbers")
        return True, type(result) if hasattr(result, "_fields") else None
    if not _is_number_or_array(result):
        raise _Refused(f"its result is a {type(result).__name__}, not an array or a number")
    return False, None


def _is_number_or_array(value) -> bool:
    return isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "biufc" \
        or is_python_number(value)


def _result_aval(value) -> AbstractValue:
    if is_python_number(value):
        return python_aval(value)
    return AbstractValue(value.shape, value.dtype)


def _join(avals) -> AbstractValue:
    """One aval for a result seen in each probe: dimensions that differ unknown."""
    first = avals[0]
    if any(a.dtype != first.dtype or a.weak != first.weak or len(a.shape) != len(first.shape)
           for a in avals):
        raise _Refused("its result's dtype or rank depends on its arguments' values")
    shape = tuple(d if all(a.shape[k] == d for a in avals) else None
                  for k, d in enumerate(first.shape))
    return AbstractValue((), first.dtype, weak=True) if first.weak else \
        AbstractValue(shape, first.dtype)


# -- the call -------------------------------------------------------------------------

def _split(args, kwargs):
    """`(args template, kwargs template, operands)`: traced values and arrays become
    operands, `Dyn(k)` in the templates; the rest stays as it is."""
    operands: list = []

    def walk(value):
        if isinstance(value, (Tracer, np.ndarray)):
            operands.append(value)
            return Dyn(len(operands) - 1)
        if type(value) in (tuple, list):
            return type(value)(walk(v) for v in value)
        return value
    args_template = tuple(walk(a) for a in args)
    kwargs_template = tuple((k, walk(v)) for k, v in kwargs.items())
    return args_template, kwargs_template, operands


def numpy_call(fn, name: str, args, kwargs, function=None):
    """`fn(*args, **kwargs)` (NumPy's, `name` its public name) staged as `numpy_call`,
    its results typed by probes; or the `TracingError` it was before, with the reason.
    `function`: what the equation calls (by default `name`, resolved when it runs)."""
    args_template, kwargs_template, operands = _split(args, kwargs)
    if name in TEXT_RESULTS and len(operands) == 1 and isinstance(operands[0], Tracer):
        return _text_of(fn, args_template, kwargs_template, operands[0])
    try:
        if any(callable(v) and not _is_numpys(v) for v in (*args, *kwargs.values())):
            raise _Refused("it calls a Python function, which probes would run")
        out_avals, multiple, kind = _learn(fn, args_template, kwargs_template, operands)
    except _Refused as reason:
        raise dispatch.unsupported(
            name, f" ({reason}){dispatch.py_function_way_out(name)}") from None
    weak = tuple(k for k, op in enumerate(operands) if isinstance(op, Tracer) and op.aval.weak)
    results = bind(numpy_call_p, *operands, function=name if function is None else function,
                   args=args_template,
                   kwargs=kwargs_template, out_avals=tuple(out_avals), multiple=multiple,
                   **({"weak": weak} if weak else {}))
    if not multiple:
        return results[0]
    return kind(*results) if kind is not None else tuple(results)


# NumPy's functions giving a str: of one traced value, a text formatted when the graph runs
TEXT_RESULTS = frozenset(("numpy.array2string", "numpy.array_str", "numpy.array_repr"))


def _text_of(fn, args, kwargs, value) -> FormattedText:
    """`fn`'s text of the traced `value` (`np.array2string(x, precision=2)`), made from
    the value the graph holds, with the print options then, for `print`, an f-string or
    a result (`runtime/ops/text_values.py`)."""
    def text(v):
        return fn(*_fill(args, [v]), **dict(_fill(kwargs, [v])))
    return FormattedText(((0, ("call", text), ""),), [value])


def _is_numpys(fn) -> bool:
    return isinstance(fn, (np.ufunc, type)) or (
        getattr(fn, "__module__", None) or "").split(".")[0] == "numpy"


def _resolvable(fn, name: str) -> bool:
    try:
        return _resolve(name) == fn   # `np.add.outer` is made anew at each look-up
    except (ImportError, AttributeError):
        return False


# answers about the memory of the arrays the graph holds, not the user's
_MEMORY_QUERIES = {np.shares_memory, np.may_share_memory}


def _fallback(fn, name, args, kwargs):
    """NumPy's `fn` staged (`numpy_call`), found again by its public name when a saved
    graph loads; a ufunc of another library (`scipy.special.expit`) staged as the
    object itself (such a graph cannot be saved); else the `TracingError`."""
    if fn in _MEMORY_QUERIES:
        raise dispatch.unsupported(name, dispatch.py_function_way_out(name))
    if _resolvable(fn, name):
        return numpy_call(fn, name, args, kwargs)
    if isinstance(getattr(fn, "__self__", fn), np.ufunc):
        return numpy_call(fn, name, args, kwargs, function=fn)
    raise dispatch.unsupported(name, dispatch.py_function_way_out(name))


def masked_ufunc(ufunc, *operands, where, **kwargs):
    """`ufunc(*inputs, out=start, where=where)` on a copy of `start` (the last operand):
    NumPy's own masked call, which computes (and warns) only where `where` holds."""
    *inputs, start = operands
    return ufunc(*inputs, out=np.array(start, copy=True), where=where, **kwargs)


def _masked(ufunc, inputs, start, kwargs):
    """`ufunc(*inputs, out=..., where=...)` staged: the result `out` holds after the call."""
    name = f"{__name__}.masked_ufunc"
    return numpy_call(masked_ufunc, name, (ufunc, *inputs, start), kwargs)


dispatch.fallback = _fallback
dispatch.masked = _masked
