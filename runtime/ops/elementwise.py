"""Every elementwise NumPy ufunc as a primitive named after it.

Shapes broadcast (unknown dimensions included); dtypes are NumPy's own, weak
Python numbers included (`x_f32 * 2.0` is f32, and so is `x_f32 * t` for a
Python float `t` a staged loop carries: `_rules.example` gives NumPy a Python
number for it). Operators between Python numbers only are Python's
(`ops/python_numbers.py`). The kernel is the backend's
ufunc of the same name, so the NumPy kernel of `add` *is* `numpy.add`.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import broadcast_shapes
from ..dispatch import ufunc_handlers, unsupported
from ..tracer import bind
from ._rules import aval, bound, dtype_by_example

ELEMENTWISE_UFUNCS = tuple(sorted(
    {u for u in vars(np).values() if isinstance(u, np.ufunc) and u.signature is None},
    key=lambda u: u.__name__))

_primitives: dict = {}


def ufunc_primitive(ufunc: np.ufunc):
    """The primitive that applies `ufunc` elementwise."""
    return _primitives[ufunc]


def _abstract_eval(ufunc):
    def rule(*atoms, dtype=None):
        shape = broadcast_shapes(*(a.aval.shape for a in atoms))
        dtypes = dtype_by_example(ufunc, atoms, **({"dtype": dtype} if dtype else {}))
        if ufunc.nout > 1:
            return [aval(shape, d) for d in dtypes]
        return aval(shape, dtypes)
    return rule


def _kernel(name):
    return lambda xp, dtype=None: bound(getattr(xp, name), dtype=dtype)


def _call(ufunc, *inputs, dtype=None, **kwargs):
    for key, value in kwargs.items():
        if not (key == "casting" and value == "same_kind") and value is not None:
            raise unsupported(f"numpy.{ufunc.__name__}(..., {key}=...)")
    if len(inputs) != ufunc.nin:
        raise TypeError(f"{ufunc.__name__}() takes {ufunc.nin} positional arguments "
                        f"but {len(inputs)} were given")
    params = {"dtype": np.dtype(dtype)} if dtype is not None else {}
    result = bind(_primitives[ufunc], *inputs, **params)
    return tuple(result) if ufunc.nout > 1 else result


for _ufunc in ELEMENTWISE_UFUNCS:
    _primitives[_ufunc] = primitives.define(
        _ufunc.__name__, _abstract_eval(_ufunc), _kernel(_ufunc.__name__),
        multiple_results=_ufunc.nout > 1)
    ufunc_handlers[(_ufunc, "__call__")] = _call
del _ufunc
