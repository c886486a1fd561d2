"""Numbers and comparisons: round, isclose, allclose, array_equal, count_nonzero,
and the dtype questions `result_type` and `iscomplexobj` answered while tracing.

`round` (also `np.around`) and `isclose` are primitives with NumPy's kernels
(round-half-even to `decimals`; `isclose` with NumPy's treatment of infinities
and `equal_nan`), `array_equal` too (arrays of different shapes are unequal,
which unknown dimensions only tell when the graph runs). `allclose` is
`all(isclose(...))` and `count_nonzero` a sum of `x != 0`: both are 0-d traced
values (NumPy gives a Python bool and int), so `if np.allclose(a, b):` stages.
`result_type` and `iscomplexobj` read the abstract values: a weak value (a
Python number a loop carries) counts as the Python number it is; so does
`isscalar` (NumPy does not dispatch it: converted code calls it here).
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import broadcast_shapes, normalize_axes, python_example
from ..dispatch import implements
from ..tracer import Tracer, bind
from ._rules import aval, dtype_by_example, reject
from .shape_ops import ndim, operand


# -- round -------------------------------------------------------------------------
def _round_rule(x, *, decimals=0):
    return aval(x.aval.shape, dtype_by_example(np.round, [x], decimals=decimals))


round_p = primitives.define(
    "round", _round_rule, lambda xp, decimals=0: lambda x: xp.round(x, decimals))


@implements(np.round, np.around, out=True)
def _round(a, decimals=0, out=None):
    reject({"out": out}, "numpy.round")
    return bind(round_p, operand(a), decimals=int(decimals))


# -- isclose, allclose, array_equal ------------------------------------------------
def _isclose_rule(a, b, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    shape = broadcast_shapes(a.aval.shape, b.aval.shape)
    return aval(shape, dtype_by_example(np.isclose, [a, b]))


def _isclose_kernel(xp, rtol=1e-05, atol=1e-08, equal_nan=False):
    return lambda a, b: xp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


isclose_p = primitives.define("isclose", _isclose_rule, _isclose_kernel)


def _tolerance(value):
    return value if isinstance(value, (bool, int)) and not isinstance(value, np.generic) \
        else float(value)


@implements(np.isclose)
def _isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bind(isclose_p, operand(a), operand(b), rtol=_tolerance(rtol),
                atol=_tolerance(atol), equal_nan=bool(equal_nan))


@implements(np.allclose)
def _allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return np.all(_isclose(a, b, rtol, atol, equal_nan))


array_equal_p = primitives.define(
    "array_equal", lambda a, b, *, equal_nan=False: aval((), np.bool_),
    lambda xp, equal_nan=False: lambda a, b: xp.asarray(xp.array_equal(a, b, equal_nan)))


@implements(np.array_equal)
def _array_equal(a1, a2, equal_nan=False):
    a1, a2 = operand(a1), operand(a2)
    shapes = np.shape(a1), np.shape(a2)
    if len(shapes[0]) != len(shapes[1]) or any(
            m is not None and n is not None and m != n for m, n in zip(*shapes)):
        return np.bool_(False)  # NumPy's answer for known, different shapes
    return bind(array_equal_p, a1, a2, equal_nan=bool(equal_nan))


# -- count_nonzero ------------------------------------------------------------------
@implements(np.count_nonzero)
def _count_nonzero(a, axis=None, *, keepdims=False):
    a = operand(a)
    axis = None if axis is None else normalize_axes(axis, ndim(a))
    return np.sum(np.not_equal(a, 0), axis=axis, keepdims=keepdims, dtype=np.intp)


# -- result_type, iscomplexobj: answered from abstract values ----------------------
def _example(x):
    """What NumPy's dtype rules see of `x`: a traced value's type, else `x`."""
    if not isinstance(x, Tracer):
        return x
    return python_example(x.aval) if x.aval.weak else np.empty((), x.aval.dtype)


@implements(np.result_type)
def _result_type(*arrays_and_dtypes):
    return np.result_type(*(_example(x) for x in arrays_and_dtypes))


@implements(np.iscomplexobj)
def _iscomplexobj(x):
    return issubclass(np.result_type(_example(x)).type, np.complexfloating)


def isscalar(element) -> bool:
    """`np.isscalar` of a traced value, from its abstract value: a 0-d value that is a
    NumPy scalar eagerly (`x.sum()`, a scalar argument) or a Python number (a weak
    value); not a 0-d array (an array argument, a constant). `np.isscalar` does not
    dispatch to `__array_function__`: autograph's `converted_call` calls this."""
    if not isinstance(element, Tracer):
        return np.isscalar(element)
    return element.ndim == 0 and element.node.id not in element.builder.maybe_arrays
