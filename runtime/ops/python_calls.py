"""Python's own number functions on traced values: `python_call`.

`float(x)`, `int(x)`, `bool(x)`, `complex(x)`, `x.item()` and the `math`
functions of a traced value give a Python number in eager code; in a graph they
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
import warnings

import numpy as np

from .. import primitives
from ..abstract import PYTHON_DTYPES, AbstractValue, python_aval
from ..tracer import bind
from ..tracer_value import Tracer

_MATH = ("sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
         "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
         "fabs", "erf", "erfc", "gamma", "lgamma", "degrees", "radians", "floor", "ceil",
         "trunc", "isnan", "isinf", "isfinite")

# name -> the Python function the kernel runs
FUNCTIONS = {"float": float, "int": int, "bool": bool, "complex": complex,
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


def _python_call_rule(x, *, fn):
    """The weak type of the Python number the function returns; NumPy's and Python's
    type errors (`float` of a 1-d array, `math.sqrt` of a complex) at trace time."""
    function = FUNCTIONS[fn]
    example = _example(x.aval)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = function(example)
        except (ValueError, OverflowError) as error:  # a value error (atanh(1), bool of 2)
            if np.ndim(example) and None not in x.aval.shape:
                raise
            try:
                result = function(example * 0.5)
            except (ValueError, OverflowError):
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
        gen.global_name(FUNCTIONS[fn], fn.split(".")[1])
    gen.emit(indent, f"{outs[0]} = {name}({refs[0]})", eqn)


primitives.emitters[python_call_p] = _emit


def python_call(fn: str, x):
    """`FUNCTIONS[fn](x)`: a weak traced Python number of a traced `x`, else the number."""
    if not isinstance(x, Tracer):
        return FUNCTIONS[fn](x)
    return bind(python_call_p, x, fn=fn)
