"""`ufunc.at(a, indices, b)` on traced values: `index_accumulate`, a functional `ufunc.at`.

`index_accumulate[ufunc=add, index=...] a b *index_operands` is a new array: a
with `np.add.at` applied, as NumPy leaves a. Unbuffered, as NumPy's: a
repeated index accumulates (`np.add.at(z, [0, 0], 1)` adds 2). The index is
split as `getitem` splits it (runtime/ops/indexing.py); `b` broadcasts to the
selected shape without dropping leading 1s (NumPy's "array is not broadcastable
to correct shape"), and each result is cast into a's dtype as NumPy's `at`
casts it (unsafely: `np.add.at` of 1.5 into an int array adds 1.5, then
truncates). A unary ufunc (`np.negative.at(a, idx)`) has no `b` operand. The
NumPy kernel runs `ufunc.at` on a copy, so answers and errors (an index out of
bounds: `IndexError` when the graph runs) are NumPy's.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as b:
...     x = b.new_input(AbstractValue((3,), np.float64), "x")
...     i = b.new_input(AbstractValue((4,), np.int64), "i")
...     y = index_accumulate(np.add, x, i, 1.0)
>>> print(b.build([y]))
graph f(x:f64[3], i:i64[4]) {
  t0:f64[3] = index_accumulate[ufunc='add', index=(Dyn(k=0),)] x 1.0 i
  return t0
}

A traced `a` is written in place, as `a[i] = v` writes it (`write_in_place`).
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import primitives
from ..abstract import AbstractValue
from ..backend import CUPY_OVERRIDES
from ..dispatch import ufunc_handlers
from ..errors import TracingError
from ..source import location_note, user_source
from ..tracer import Tracer, bind, read_if_variable
from ..tracer_value import write_in_place
from ._rules import example
from .elementwise import ELEMENTWISE_UFUNCS
from .indexing import _fill, _kind, _template, getitem_shape


def _unary(ufunc: str) -> bool:
    return getattr(np, ufunc).nin == 1


def _check_broadcast(b_shape, selected) -> None:
    """NumPy's `ValueError` where `b` cannot broadcast to the indexed shape (no leading 1s
    dropped); an unknown dimension is checked when the graph runs."""
    fits = len(b_shape) <= len(selected) and all(
        v is None or s is None or v in (1, s)
        for v, s in zip(reversed(b_shape), reversed(selected)))
    if not fits:
        raise ValueError("array is not broadcastable to correct shape")


def _check_types(ufunc, a, b) -> None:
    """NumPy's own error where `ufunc.at` refuses these dtypes (probed on 0-d values)."""
    probe = np.ones((), a.aval.dtype)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ufunc.at(probe, (), *(() if b is None else (example(b, ndim=0),)))


def _abstract_eval(a, *operands, ufunc, index):
    b, dyn = (None, operands) if _unary(ufunc) else (operands[0], operands[1:])
    types = [(d.aval.shape, _kind(d.aval)) for d in dyn]
    selected = getitem_shape(a.aval.shape, index, types)
    _check_types(getattr(np, ufunc), a, b)
    if b is not None:
        _check_broadcast(b.aval.shape, selected)
    return AbstractValue(a.aval.shape, a.aval.dtype)


def _kernel(xp, ufunc, index):
    at = getattr(xp, ufunc).at
    unary = _unary(ufunc)

    def run(a, *operands):
        out = xp.array(a, copy=True)
        if unary:
            at(out, _fill(index, operands))
        else:
            at(out, _fill(index, operands[1:]), operands[0])
        return out
    return run


index_accumulate_p = primitives.define("index_accumulate", _abstract_eval, _kernel)


def _host_kernel(xp, ufunc, index):
    """CuPy has `at` for few ufuncs, with its own casting: NumPy's, on copies on the host."""
    numpy_run = _kernel(np, ufunc, index)

    def run(*operands):
        host = [x.get() if hasattr(x, "get") else x for x in operands]
        return xp.asarray(numpy_run(*host))
    return run


CUPY_OVERRIDES[index_accumulate_p] = _host_kernel


def index_accumulate(ufunc, a, indices, b=None):
    """`a` with `ufunc.at(a, indices, b)` applied (a new traced array); NumPy's errors for
    a missing or extra `b` (NumPy refuses several outputs before it dispatches)."""
    if ufunc.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if ufunc.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    indices = tuple(map(read_if_variable, indices)) if isinstance(indices, tuple) \
        else read_if_variable(indices)
    template, operands = _template(indices)
    values = () if b is None else (_operand(read_if_variable(b)),)
    return bind(index_accumulate_p, a, *values, *operands, ufunc=ufunc.__name__,
                index=template)


def _operand(b):
    """`b` as an operand: a traced value or a Python number as it is, else an array."""
    return b if isinstance(b, (Tracer, bool, int, float, complex)) else np.asarray(b)


def _at(ufunc, a, indices, b=None):
    """`ufunc.at(a, indices, b)` reaching `__array_ufunc__`: a traced `a` holds the result."""
    if not isinstance(a, Tracer):
        raise TracingError(
            f"numpy.{ufunc.__name__}.at writes a NumPy array with a traced index or value"
            f"{location_note(user_source())}, and a NumPy array cannot hold a traced value; "
            f"make the array a local variable of the converted function (`out = "
            f"np.zeros(n)`, or `out = G.copy()` for a global G), then `np.{ufunc.__name__}"
            f".at(out, ...)`")
    write_in_place(a, index_accumulate(ufunc, a, indices, b), f"{ufunc.__name__}.at")


for _ufunc in ELEMENTWISE_UFUNCS:
    if _ufunc.nout == 1:
        ufunc_handlers[(_ufunc, "at")] = _at
del _ufunc
