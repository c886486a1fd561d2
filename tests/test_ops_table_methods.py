"""The table of ndarray methods (runtime/tracer_value.py, runtime/ops/methods.py and
the methods the op modules install) and of Python's number functions
(runtime/ops/python_calls.py) against eager NumPy.

Each row runs over `ALL` dtypes, with known and with unknown dimensions, through
`oracle.check_row`. A method that gives Python numbers (`x.item()`, `x.tolist()`,
`math.floor`) is checked through `np.add(..., 0)`, which makes NumPy's scalar of
the Python type's dtype (a float's float64, an int's int64), so a graph that
typed the number otherwise fails the row. `math.*` rows bind `python_call`
directly: outside converted code Python's `math.sqrt` asks the value for a
float, which a traced value cannot give (tests/test_conversions.py runs them
in converted code). `test_every_primitive_and_function_has_a_row` counts `METHODS_ROWS`.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from gradcheck import check_grad
from oracle import DTYPES, A, Row, S, cases, check_row

import autograph as ag
from autograph_runtime.ops.python_calls import python_call

ALL = DTYPES + ("int8", "uint8", "complex128")
REAL = ("float32", "float64", "int32", "int64", "bool", "int8", "uint8")
FLOATS = ("float32", "float64")
X, V, SQ, X3 = A((2, 3)), A((3,)), A((3, 3)), A((2, 3, 4))
I64 = "int64"


def _number(v):
    """A Python number (or nested lists of them) as NumPy's scalars/arrays of its type."""
    if isinstance(v, list):
        return np.stack([_number(u) for u in v]) if v else np.zeros(0)
    return np.add(v, 0)


def _math(name):
    return Row(f"math.{name}", lambda s: _number(python_call(f"math.{name}", s)), (S(0.5, 3),),
               dtypes=REAL, oracle=lambda s: _number(getattr(math, name)(s)))


METHODS_ONLY = [
    Row(".take(list)", lambda x: x.take([0, 4, -1]), dtypes=ALL),
    Row(".take(axis=1)", lambda x: x.take([2, 0], axis=1)),
    Row(".take(traced)", lambda x, i: x.take(i, axis=0), (X, A((2,), 0, 1, I64))),
    Row(".take(6)", lambda x: x.take(6), error=True),
    Row(".round()", lambda x: x.round(), (A((2, 3), -9, 9),), dtypes=ALL),
    Row(".round(1)", lambda x: x.round(1), (A((2, 3), -9, 9),)),
    Row(".round(-1)", lambda x: x.round(-1), (A((2, 3), -99, 99),)),
    Row(".trace()", lambda x: x.trace(), (SQ,), dtypes=ALL),
    Row(".trace(1)", lambda x: x.trace(1)),
    Row(".trace(dtype)", lambda x: x.trace(dtype=np.float64), (SQ,)),
    Row(".clip(-1,1)", lambda x: x.clip(-1, 1), dtypes=REAL),
    Row(".clip(max=1)", lambda x: x.clip(max=1)),
    Row(".cumsum(axis=1)", lambda x: x.cumsum(axis=1), dtypes=ALL),
    Row(".cumsum(dtype)", lambda x: x.cumsum(dtype=np.float32)),
    Row(".cumprod()", lambda x: x.cumprod(), dtypes=ALL),
    Row(".prod(0)", lambda x: x.prod(0), dtypes=ALL),
    Row(".prod(keepdims)", lambda x: x.prod(axis=1, keepdims=True)),
    Row(".var(0)", lambda x: x.var(0), dtypes=ALL),
    Row(".std(ddof=1)", lambda x: x.std(ddof=1), dtypes=ALL),
    Row(".std(axis,keepdims)", lambda x: x.std(axis=1, keepdims=True)),
    Row(".argmax(1)", lambda x: x.argmax(1), dtypes=REAL),
    Row(".argmin(keepdims)", lambda x: x.argmin(axis=0, keepdims=True)),
    Row(".argmax(2)", lambda x: x.argmax(2), error=True),
    Row(".nonzero()", lambda x: x.nonzero(), dtypes=ALL, dynamic=True),
    Row(".nonzero(1d)", lambda v: v.nonzero(), (V,), dynamic=True),
    Row(".searchsorted", lambda v, w: np.sort(v).searchsorted(w), (A((5,)), V), dtypes=REAL),
    Row(".searchsorted(right)", lambda v, w: np.sort(v).searchsorted(w, side="right"),
        (A((5,)), V)),
    Row(".repeat(2)", lambda x: x.repeat(2), dtypes=ALL),
    Row(".repeat(axis=1)", lambda x: x.repeat([1, 0, 2], axis=1)),
    Row(".diagonal()", lambda x: x.diagonal(), dtypes=ALL),
    Row(".diagonal(1,1,2)", lambda x: x.diagonal(1, 1, 2), (X3,)),
    Row(".swapaxes(0,1)", lambda x: x.swapaxes(0, 1), dtypes=ALL),
    Row(".swapaxes(-1,0)", lambda x: x.swapaxes(-1, 0), (X3,)),
    Row(".swapaxes(3)", lambda x: x.swapaxes(0, 3), error=True),
    Row(".mT", lambda x: x.mT, (X3,), dtypes=ALL),
    Row(".mT(1d)", lambda v: v.mT, (V,), error=True),
    Row(".squeeze(axis)", lambda x: x.squeeze(0), (A((1, 3)),), dtypes=ALL),
    Row(".flatten()", lambda x: x.flatten(), (X3,), dtypes=ALL),
    Row(".ravel()", lambda x: x.ravel(), (X3,), dtypes=ALL),
    Row(".copy()", lambda x: x.copy(), dtypes=ALL),
    Row(".conj()", lambda x: x.conj(), dtypes=ALL),
    Row(".conjugate()(c128)", lambda x: x.conjugate(), dtypes=ALL),
    Row(".dot(matrix)", lambda x, y: x.dot(y), (X, A((3, 2))), dtypes=ALL),
    Row(".dot(0d)", lambda x, s: x.dot(s), (X, S())),
    Row(".all()", lambda x: x.all(), dtypes=ALL),
    Row(".any(1,keepdims)", lambda x: x.any(1, keepdims=True), dtypes=ALL),
    Row(".astype(complex128)", lambda x: x.astype(np.complex128), dtypes=ALL),
    Row(".astype(int8)", lambda x: x.astype("int8"), (A((2, 3), -200, 200),), dtypes=ALL),
    Row(".astype(uint8)", lambda x: x.astype(np.uint8), dtypes=("int32", "int64", "bool")),
    Row(".astype(copy=False)", lambda x: x.astype(np.float64, copy=False), dtypes=ALL),
    Row(".astype(safe)", lambda x: x.astype(np.float64, casting="safe"), dtypes=REAL),
    Row(".astype(safe,error)", lambda x: x.astype(np.int8, casting="safe"),
        dtypes=("float32", "float64", "int32", "int64", "complex128"), error=True),
    Row(".astype(same_kind)", lambda x: x.astype(np.float32, casting="same_kind"),
        dtypes=REAL),
    Row(".itemsize", lambda x: x.itemsize, dtypes=ALL),
    Row(".nbytes", lambda x: x.nbytes, dtypes=ALL, unknown=ag.TracingError),
]

NUMBERS = [
    Row(".item()", lambda s: _number(s.item()), (S(),), dtypes=ALL),
    Row(".item()(1,1)", lambda x: _number(x.item()), (A((1, 1)),), dtypes=ALL),
    Row(".item(i)", lambda x: _number(x.item(4)), dtypes=ALL),
    Row(".item(i,j)", lambda x: _number(x.item(1, 2)), dtypes=ALL),
    Row(".item((i,j))", lambda x: _number(x.item((0, -1)))),
    Row(".item(size 6)", lambda x: x.item(), error=True),
    Row(".item(6)", lambda x: x.item(6), error=True),
    Row(".tolist()", lambda x: _number(x.tolist()), dtypes=ALL, unknown=ag.TracingError),
    Row(".tolist()(0d)", lambda s: _number(s.tolist()), (S(),), dtypes=ALL),
    Row(".item() + 1", lambda s: np.multiply(s.item() + 1, s), (S(),), dtypes=ALL),
    Row("python_call(int)", lambda s: _number(python_call("int", s)), (S(-9, 9),),
        dtypes=REAL, oracle=lambda s: _number(int(s))),
    Row("python_call(float)", lambda s: _number(python_call("float", s)), (S(),),
        dtypes=REAL, oracle=lambda s: _number(float(s))),
    Row("python_call(bool)", lambda s: _number(python_call("bool", s)), (S(),),
        dtypes=ALL, oracle=lambda s: _number(bool(s))),
    Row("python_call(complex)", lambda s: _number(python_call("complex", s)), (S(),),
        dtypes=ALL, oracle=lambda s: _number(complex(s))),
    Row("python_call(float,1d)", lambda v: python_call("float", v), (V,), error=True),
    *(_math(name) for name in ("sqrt", "exp", "log", "sin", "cos", "tanh", "floor", "ceil",
                               "trunc", "isnan", "isfinite", "fabs", "atan")),
    Row("math.sqrt(negative)", lambda s: _number(python_call("math.sqrt", s)),
        (S(-3, -1),), dtypes=("float64", "int64"), error=True),
]

METHODS_ROWS = METHODS_ONLY + NUMBERS


@pytest.mark.parametrize("row, dtype, mode", cases(METHODS_ROWS))
def test_op(row, dtype, mode):
    check_row(row, dtype, mode)


# -- gradients, against finite differences --------------------------------------------------
_M = np.array([[0.3, -1.2, 2.0], [1.1, 0.7, -0.4], [0.9, 1.6, 0.25]])
GRADIENTS = {
    ".take": lambda x: x.take([0, 4, 4, -1]),
    ".take(axis)": lambda x: x.take([2, 0], axis=1),
    ".trace": lambda x: x.trace(1),
    ".cumprod": lambda x: x.cumprod(axis=0),
    ".cumsum": lambda x: x.cumsum(),
    ".prod": lambda x: x.prod(1),
    ".var": lambda x: x.var(0, ddof=1),
    ".std": lambda x: x.std(),
    ".clip": lambda x: x.clip(-0.5, 1.0),
    ".repeat": lambda x: x.repeat(2, axis=0),
    ".diagonal": lambda x: x.diagonal(-1),
    ".swapaxes": lambda x: x.swapaxes(0, 1) @ x,
    ".mT": lambda x: x.mT @ x,
    ".squeeze": lambda x: x[None].squeeze(0),
    ".flatten": lambda x: x.flatten() ** 2,
    ".ravel": lambda x: x.ravel()[::2],
    ".copy": lambda x: x.copy() * x,
    ".conj": lambda x: x.conj() * x,
    ".dot": lambda x: x.dot(x[0]),
    ".astype(copy=False)": lambda x: x.astype(np.float64, copy=False) * x,
    ".round (zero)": lambda x: x.round(3) + x,
    ".searchsorted (none)": lambda x: x.ravel().searchsorted(0.5) * x,
}


@pytest.mark.parametrize("fn", GRADIENTS.values(), ids=GRADIENTS.keys())
def test_method_gradient(fn):
    check_grad(fn, _M.copy(), rtol=1e-4, atol=1e-6)


def test_gradient_through_int_and_floor_is_zero():
    """In converted code `int(v)` and `math.floor(v)` are Python ints: piecewise constant,
    no gradient flows through them (a float-valued `x.item()` is refused: rules_methods.py)."""
    check_grad(lambda x: int(x[0, 0] * 7) * x + math.floor(x[1, 1]) * x, _M.copy(),
               autograph=True)
