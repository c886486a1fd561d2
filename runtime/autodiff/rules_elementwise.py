"""Vector-Jacobian rules of the elementwise ufuncs.

`rule(g, out, *inputs)` returns one cotangent per input, computed with NumPy
on traced values; the transformation then sums broadcast dimensions away and
casts back to each input's dtype. Constants are Python floats, which keep
float32 float32. Ufuncs whose result is piecewise constant (`floor`, `sign`,
...) have zero cotangents; those with integer or boolean results have none
(see `NON_DIFFERENTIABLE` in the tests).
"""
from __future__ import annotations

import math

import numpy as np

from .. import primitives
from ..ops.elementwise import ufunc_primitive

LN2, LN10 = math.log(2.0), math.log(10.0)


def _where(mask, g):
    return np.where(mask, g, 0)


UNARY = {
    np.negative: lambda g, y, x: -g,
    np.positive: lambda g, y, x: g,
    np.conjugate: lambda g, y, x: g,
    np.absolute: lambda g, y, x: g * np.sign(x),
    np.fabs: lambda g, y, x: g * np.sign(x),
    np.exp: lambda g, y, x: g * y,
    np.exp2: lambda g, y, x: g * y * LN2,
    np.expm1: lambda g, y, x: g * (y + 1),
    np.log: lambda g, y, x: g / x,
    np.log2: lambda g, y, x: g / (x * LN2),
    np.log10: lambda g, y, x: g / (x * LN10),
    np.log1p: lambda g, y, x: g / (x + 1),
    np.sqrt: lambda g, y, x: g / (y * 2),
    np.cbrt: lambda g, y, x: g / (np.square(y) * 3),
    np.square: lambda g, y, x: g * x * 2,
    np.reciprocal: lambda g, y, x: -g * np.square(y),
    np.sin: lambda g, y, x: g * np.cos(x),
    np.cos: lambda g, y, x: -g * np.sin(x),
    np.tan: lambda g, y, x: g * (np.square(y) + 1),
    np.arcsin: lambda g, y, x: g / np.sqrt(1 - np.square(x)),
    np.arccos: lambda g, y, x: -g / np.sqrt(1 - np.square(x)),
    np.arctan: lambda g, y, x: g / (np.square(x) + 1),
    np.sinh: lambda g, y, x: g * np.cosh(x),
    np.cosh: lambda g, y, x: g * np.sinh(x),
    np.tanh: lambda g, y, x: g * (1 - np.square(y)),
    np.arcsinh: lambda g, y, x: g / np.sqrt(np.square(x) + 1),
    np.arccosh: lambda g, y, x: g / np.sqrt(np.square(x) - 1),
    np.arctanh: lambda g, y, x: g / (1 - np.square(x)),
    np.deg2rad: lambda g, y, x: g * (math.pi / 180),
    np.radians: lambda g, y, x: g * (math.pi / 180),
    np.rad2deg: lambda g, y, x: g * (180 / math.pi),
    np.degrees: lambda g, y, x: g * (180 / math.pi),
}
ZERO_GRADIENT = (np.floor, np.ceil, np.trunc, np.rint, np.sign, np.spacing, np.floor_divide)


def _power(g, y, a, b):
    grad_a = g * b * np.power(a, b - 1)
    grad_b = g * y * np.log(np.where(a == 0, 1, a))
    return grad_a, grad_b


def _float_power(g, y, a, b):
    grad_a = g * b * np.float_power(a, b - 1)
    grad_b = g * y * np.log(np.where(a == 0, 1, a))
    return grad_a, grad_b


BINARY = {
    np.add: lambda g, y, a, b: (g, g),
    np.subtract: lambda g, y, a, b: (g, -g),
    np.multiply: lambda g, y, a, b: (g * b, g * a),
    np.divide: lambda g, y, a, b: (g / b, -g * y / b),
    np.power: _power,
    np.float_power: _float_power,
    np.maximum: lambda g, y, a, b: (_where(a >= b, g), _where(a < b, g)),
    np.minimum: lambda g, y, a, b: (_where(a <= b, g), _where(a > b, g)),
    np.fmax: lambda g, y, a, b: (_where(a >= b, g), _where(a < b, g)),
    np.fmin: lambda g, y, a, b: (_where(a <= b, g), _where(a > b, g)),
    np.arctan2: lambda g, y, a, b: (g * b / (np.square(a) + np.square(b)),
                                    -g * a / (np.square(a) + np.square(b))),
    np.hypot: lambda g, y, a, b: (g * a / y, g * b / y),
    np.logaddexp: lambda g, y, a, b: (g * np.exp(a - y), g * np.exp(b - y)),
    np.logaddexp2: lambda g, y, a, b: (g * np.exp2(a - y), g * np.exp2(b - y)),
    np.copysign: lambda g, y, a, b: (g * np.sign(a) * np.sign(y), None),
    np.heaviside: lambda g, y, a, b: (None, _where(a == 0, g)),
    np.remainder: lambda g, y, a, b: (g, -g * np.floor_divide(a, b)),
    np.fmod: lambda g, y, a, b: (g, -g * np.trunc(a / b)),
    np.nextafter: lambda g, y, a, b: (g, None),
    np.ldexp: lambda g, y, a, b: (np.ldexp(g, b), None),
}


def _divmod(cts, outs, a, b, dtype=None):
    g = cts[1]
    if g is None:
        return None, None
    return g, -g * outs[0]


def _modf(cts, outs, x, dtype=None):
    return (cts[0],)


def _frexp(cts, outs, x, dtype=None):
    g = cts[0]
    return (None if g is None else np.ldexp(g, -outs[1]),)


def _unary(fn):
    return lambda g, out, x, dtype=None: (fn(g, out, x),)


def _binary(fn):
    return lambda g, out, a, b, dtype=None: fn(g, out, a, b)


def _zero(g, out, *inputs, dtype=None):
    return (None,) * len(inputs)


for _ufunc, _fn in UNARY.items():
    primitives.vjp_rules[ufunc_primitive(_ufunc)] = _unary(_fn)
for _ufunc, _fn in BINARY.items():
    primitives.vjp_rules[ufunc_primitive(_ufunc)] = _binary(_fn)
for _ufunc in ZERO_GRADIENT:
    primitives.vjp_rules[ufunc_primitive(_ufunc)] = _zero
for _ufunc, _fn in ((np.divmod, _divmod), (np.modf, _modf), (np.frexp, _frexp)):
    primitives.vjp_rules[ufunc_primitive(_ufunc)] = _fn
del _ufunc, _fn
