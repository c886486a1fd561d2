"""Arrays made like others: zeros_like, ones_like, full_like, and astype.

Handlers serve `np.zeros_like`, `np.ones_like`, `np.full_like` (the fill value a
Python scalar, an array, or a traced value) and `np.astype`; `Tracer.astype`
calls `astype` here. Params: `dtype` and `shape` where given. `np.empty_like`
is `zeros_like` (its contents are unspecified; runtime/ops/building.py).
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from .. import primitives
from ..dispatch import implements, unsupported
from ..tracer import bind
from ..abstract import AbstractValue
from ..tracer_value import Tracer, tracer_method
from ._rules import aval
from .python_numbers import convert_weak
from .shape_ops import fmt_shape, operand, shape_param


def _like_shape(x, shape):
    return x.aval.shape if shape is None else shape


def _like_rule(x, *, dtype=None, shape=None):
    return aval(_like_shape(x, shape), x.aval.dtype if dtype is None else dtype)


def _full_like_rule(x, fill, *, dtype=None, shape=None):
    out = _like_shape(x, shape)
    fill_shape = fill.aval.shape
    tail = out[len(out) - len(fill_shape):] if fill_shape else ()
    if len(fill_shape) > len(out) or any(f not in (1, None, t) and t is not None
                                         for f, t in zip(fill_shape, tail)):
        raise ValueError(f"could not broadcast input array from shape {fmt_shape(fill_shape)} "
                         f"into shape {fmt_shape(out)}")
    return aval(out, x.aval.dtype if dtype is None else dtype)


def _astype_rule(x, *, dtype):
    return aval(x.aval.shape, dtype)


def _like_kernel(name):
    def kernel(xp, **params):
        fn = getattr(xp, name)
        return functools.partial(fn, **params) if params else fn
    return kernel


zeros_like_p = primitives.define("zeros_like", _like_rule, _like_kernel("zeros_like"))
ones_like_p = primitives.define("ones_like", _like_rule, _like_kernel("ones_like"))
full_like_p = primitives.define("full_like", _full_like_rule, _like_kernel("full_like"))
astype_p = primitives.define(
    "astype", _astype_rule, lambda xp, dtype: operator.methodcaller("astype", dtype))


def astype(x, dtype):
    """`x` converted to `dtype` (what `x.astype(dtype)` records); a traced Python
    number (which has no `astype` when the graph runs) is converted as NumPy
    converts a Python number (`from_python`)."""
    if isinstance(x, Tracer) and x.aval.weak:
        return convert_weak(x, AbstractValue((), np.dtype(dtype)))
    return bind(astype_p, operand(x), dtype=np.dtype(dtype))


@tracer_method("astype")
def _astype_method(self, dtype, copy=True):
    """`Tracer.astype`: ndarray's signature (a traced value is never shared, so `copy` is moot)."""
    return astype(self, dtype)


def _params(dtype, shape, device):  # order and subok do not change values
    if device not in (None, "cpu"):
        raise unsupported(f"device={device!r} in numpy.*_like")
    params = {} if dtype is None else {"dtype": np.dtype(dtype)}
    if shape is not None:
        params["shape"] = shape_param(shape)
    return params


@implements(np.zeros_like)
def _zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return bind(zeros_like_p, operand(a), **_params(dtype, shape, device))


@implements(np.ones_like)
def _ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return bind(ones_like_p, operand(a), **_params(dtype, shape, device))


@implements(np.full_like)
def _full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return bind(full_like_p, operand(a), operand(fill_value),
                **_params(dtype, shape, device))


@implements(np.astype)
def _astype(x, dtype, /, *, copy=True, device=None):
    if device not in (None, "cpu"):
        raise unsupported("numpy.astype(..., device=...)")
    return astype(x, dtype)
