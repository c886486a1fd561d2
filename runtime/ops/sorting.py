"""Sorting: sort and argsort along one axis (axis=None sorts the flattened array).

Handlers serve `np.sort` and `np.argsort` (hence `x.argsort()`). Params: `axis`
a non-negative int or None, and `kind` where given (`stable=True` is
`kind="stable"`).
"""
from __future__ import annotations

import functools

import numpy as np

from .. import primitives
from ..abstract import normalize_axis
from ..backend import CUPY_OVERRIDES
from ..dispatch import implements
from ..tracer import bind
from ._rules import aval, reject
from .shape_ops import known_size, ndim, operand


def _sorted_shape(shape, axis):
    if axis is None:
        return (known_size(shape),)
    normalize_axis(axis, len(shape))
    return shape


def _sort_rule(x, *, axis=-1, kind=None):
    return aval(_sorted_shape(x.aval.shape, axis), x.aval.dtype)


def _argsort_rule(x, *, axis=-1, kind=None):
    return aval(_sorted_shape(x.aval.shape, axis), np.intp)


def _kernel(name):
    def kernel(xp, axis=-1, kind=None):
        fn = getattr(xp, name)
        return functools.partial(fn, axis=axis, kind=kind) if kind else functools.partial(
            fn, axis=axis)
    return kernel


sort_p = primitives.define("sort", _sort_rule, _kernel("sort"))
argsort_p = primitives.define("argsort", _argsort_rule, _kernel("argsort"))


def _handler(prim):
    def handler(a, axis=-1, kind=None, order=None, *, stable=None):
        reject({"order": order}, f"numpy.{prim.name}")
        if stable:
            if kind is not None:
                raise ValueError("`kind` and `stable` parameters can't be provided at the "
                                 "same time. Use only one of them.")
            kind = "stable"
        a = operand(a)
        if prim is argsort_p and ndim(a) == 0 and axis in (0, -1):
            axis = None  # NumPy's argsort of a 0-d array: [0]
        if axis is not None:
            axis = normalize_axis(axis, ndim(a))
        return bind(prim, a, axis=axis, **({} if kind is None else {"kind": kind}))
    return handler


implements(np.sort)(_handler(sort_p))
implements(np.argsort)(_handler(argsort_p))


def _cupy_kernel(name):
    """CuPy sorts stably whatever `kind` says, and accepts no other kind."""
    return lambda xp, axis=-1, kind=None: functools.partial(getattr(xp, name), axis=axis)


CUPY_OVERRIDES[sort_p] = _cupy_kernel("sort")
CUPY_OVERRIDES[argsort_p] = _cupy_kernel("argsort")
