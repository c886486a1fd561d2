"""Python's own number functions on traced values: `python_call`.

`float(x)`, `int(x)`, `bool(x)`, `complex(x)`, `x.item()` and the `math`
functions of a traced value give a Python number in eager code (and `sorted` of
such numbers a list: `python_sorted`, its kernel `sorted` itself); in a graph they
are `python_call[fn=...]`, whose kernel is that very Python function, so the
result is the Python number eager code gets (weak: `f64[]~weak` for a float,
`i64[]~weak` for an int, which `int` truncates toward zero and never wraps) and
errors are Python's (`int(nan)` raises `ValueError`, `math.sqrt(-1.0)`
`ValueError: math domain error`, `float` of a 1-d array NumPy's `TypeError`)
when the graph runs:

    t0:i64[]~weak = python_call[fn='math.floor'] x

Python calls `__float__` and needs a float back, so `float(traced)` itself
cannot be staged; autograph's converted code calls
`autograph.operators.conversions` instead, which binds this primitive.
"""
from __future__ import annotations

import math
import operator
import warnings

import numpy as np

from .. import primitives
from ..abstract import PYTHON_DTYPES, AbstractValue, python_aval
from ..tracer import bind
from ..tracer_value import Tracer, _maybe_array, tracer_method

_MATH = ("sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
         "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
         "fabs", "erf", "erfc", "gamma", "lgamma", "degrees", "radians", "floor", "ceil",
         "trunc", "isnan", "isinf", "isfinite",
         "atan2", "hypot", "pow", "copysign", "fmod", "remainder", "ldexp", "gcd", "lcm")


def _python_round(x, ndigits=None):
    """Python's `round` of the number x holds (a NumPy scalar or 0-d array when the graph
    runs): an int without `ndigits`, as `round(np.float64(2.5))` is; with them, Python's
    correctly rounded decimal digits of a Python float (`round(2.675, 2)` is 2.67)."""
    value = x.item() if isinstance(x, (np.generic, np.ndarray)) else x
    return round(value, None if ndigits is None else operator.index(ndigits))


# name -> the Python function the kernel runs
FUNCTIONS = {"float": float, "int": int, "bool": bool, "complex": complex,
             "round": _python_round,
             **{f"math.{name}": getattr(math, name) for name in _MATH}}
# the Python function -> its name (how converted code finds a call to stage)
NAMES = {fn: name for name, fn in FUNCTIONS.items()}
# a dtype kind -> what `x.item()` gives
ITEM = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}


def _example(aval: AbstractValue):
    """A value of `aval`'s type for typing by example (2 elements where its size is unknown
    or large: NumPy refuses those alike)."""
    shape = aval.shape
    if None in shape or int(np.prod(shape)) > 4:
        shape = (2,) if shape else ()
    return np.ones(shape, aval.dtype)[()]


def _python_call_rule(*operands, fn):
    """The weak type of the Python number the function returns; NumPy's and Python's
    type errors (`float` of a 1-d array, `math.sqrt` of a complex) at trace time."""
    function = FUNCTIONS[fn]
    examples = [_example(x.aval) for x in operands]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = function(*examples)
        except (ValueError, OverflowError, ZeroDivisionError) as error:  # atanh(1), log(1, 1)
            if any(np.ndim(e) and None not in x.aval.shape for e, x in zip(examples, operands)):
                raise
            try:
                result = function(*(e * 0.5 for e in examples))
            except (ValueError, OverflowError, ZeroDivisionError):
                raise error from None
    if type(result) not in PYTHON_DTYPES:
        raise TypeError(f"{fn} returned a {type(result).__name__}, not a Python number")
    return python_aval(result)


python_call_p = primitives.define(
    "python_call", _python_call_rule, lambda xp, fn: FUNCTIONS[fn])


def _emit(gen, eqn, refs, outs, indent):
    """`t0 = float(x)`, `t1 = math.floor(x)`: the Python call itself."""
    fn = eqn.params["fn"]
    name = fn if fn in ("float", "int", "bool", "complex") else \
        gen.global_name(FUNCTIONS[fn], fn.split(".")[-1])
    gen.emit(indent, f"{outs[0]} = {name}({', '.join(refs)})", eqn)


primitives.emitters[python_call_p] = _emit


def python_call(fn: str, *operands):
    """`FUNCTIONS[fn](*operands)`: a weak traced Python number where an operand is traced,
    else the number."""
    if not any(isinstance(x, Tracer) for x in operands):
        return FUNCTIONS[fn](*operands)
    return bind(python_call_p, *operands, fn=fn)


@tracer_method("__round__")
def _round(x, ndigits=None):
    """`round(x)` of a traced value, as eager code's: a Python int of a number (Python's or
    NumPy's scalar); with `ndigits`, Python's digits of a Python float, NumPy's `np.round`
    of a NumPy scalar (its dtype kept); `TypeError` for an array, as NumPy 2 says."""
    if x.ndim or _maybe_array(x):   # an array eagerly, not a NumPy scalar
        raise TypeError("type numpy.ndarray doesn't define __round__ method")
    if ndigits is None or x.aval.weak:
        return python_call("round", x, *(() if ndigits is None else (ndigits,)))
    return np.round(x, operator.index(ndigits))


def _sorted_rule(*operands, reverse):
    return [operands[0].aval] * len(operands)


python_sorted_p = primitives.define(
    "python_sorted", _sorted_rule, lambda xp, reverse: lambda *values: sorted(values,
                                                                               reverse=reverse),
    multiple_results=True)


def _argsort_rule(*keys, reverse):
    return [python_aval(0)] * len(keys)


python_argsort_p = primitives.define(
    "python_argsort", _argsort_rule, lambda xp, reverse: lambda *keys: sorted(
        range(len(keys)), key=keys.__getitem__, reverse=reverse), multiple_results=True)


def python_argsort(keys, reverse=False) -> list:
    """The positions of `keys` in Python's sorted order (`sorted(range(n), key=keys[i])`),
    as traced Python ints: stable, NaN where Python's comparisons leave it."""
    _one_type(keys, "sorted() by a key")
    return bind(python_argsort_p, *keys, reverse=bool(reverse))


def _one_type(values, what: str) -> None:
    traced = [x for x in values if isinstance(x, Tracer)]
    first = traced[0].aval
    if any(not isinstance(x, Tracer) or x.aval != first or x.ndim for x in values):
        raise TypeError(
            f"{what} of traced numbers needs them all of one type, here {first}; got "
            + ", ".join(str(x.aval) if isinstance(x, Tracer) else type(x).__name__
                        for x in values))


def python_sorted(values, reverse=False) -> list:
    """Python's `sorted(values)` of numbers some of which are traced, as a list of traced
    numbers: the kernel is `sorted` itself, so NaN and ties (stable) order as in Python.
    The numbers must be of one type (a position's type would depend on the values)."""
    _one_type(values, "sorted()")
    return bind(python_sorted_p, *values, reverse=bool(reverse))
