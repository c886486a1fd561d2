"""The table of the NumPy functions of runtime/ops/more_functions.py and selections.py
against eager NumPy.

Each row runs over `DTYPES` (int8, uint8 and complex128 too where `ALL` says),
with known and with unknown dimensions, through `oracle.check_row`;
`test_every_primitive_and_function_has_a_row` (tests/test_ops_table.py) counts `MORE_ROWS`.
"""
from __future__ import annotations

import numpy as np
import pytest
from oracle import DTYPES, A, Row, S, cases, check_row

import autograph as ag

ALL = DTYPES + ("int8", "uint8", "complex128")
FLOATS = ("float32", "float64", "complex128")
X, V, X3 = A((2, 3)), A((4,)), A((2, 3, 4))
I64 = "int64"


def _nan_to_num_in_place(x, nan, posinf):
    y = x.copy()
    r = np.nan_to_num(y, copy=False, nan=nan, posinf=posinf)
    return r, y


def _special(x):
    """x times NaN, inf and -inf in some places where its dtype holds them (a traced-friendly
    way to make them: the graph has no `x.flat`)."""
    if x.dtype.kind not in "fc":
        return x
    return x * np.array([[np.nan, np.inf, 1], [1, 1, -np.inf]]).astype(x.dtype)


FLIPS_SPLITS = [
    Row("flipud", np.flipud, (X3,), dtypes=ALL), Row("flipud(1d)", np.flipud, (V,)),
    Row("flipud(0d)", np.flipud, (S(),), error=True),
    Row("fliplr", np.fliplr, (X3,), dtypes=ALL), Row("fliplr(1d)", np.fliplr, (V,), error=True),
    Row("hsplit", lambda x: np.hsplit(x, [1, 2]), dtypes=ALL),
    Row("hsplit(1d)", lambda v: np.hsplit(v, 2), (V,)),
    Row("hsplit(0d)", lambda s: np.hsplit(s, 1), (S(),), error=True),
    Row("hsplit(unequal)", lambda x: np.hsplit(x, 2), error=True),
    Row("vsplit", lambda x: np.vsplit(x, 2), dtypes=ALL),
    Row("vsplit(1d)", lambda v: np.vsplit(v, 2), (V,), error=True),
    Row("dsplit", lambda x: np.dsplit(x, [3]), (X3,), dtypes=ALL),
    Row("dsplit(2d)", lambda x: np.dsplit(x, 1), error=True),
    Row("broadcast_arrays", lambda x, v: np.broadcast_arrays(x, v, 2), (X, A((3,))), dtypes=ALL),
    Row("broadcast_arrays(same)", lambda x, y: np.broadcast_arrays(x, y), (X, X)),
    Row("broadcast_arrays(one)", np.broadcast_arrays, (X,)),
    Row("broadcast_arrays(mismatch)", np.broadcast_arrays, (X, V), error=True),
]

FINITE = [
    Row("nan_to_num", lambda x: np.nan_to_num(_special(x)), (X,), dtypes=ALL),
    Row("nan_to_num(values)", lambda x: np.nan_to_num(_special(x), nan=-1, posinf=9,
                                                      neginf=-9.5), (X,), dtypes=ALL),
    Row("nan_to_num(copy=False)", lambda x: _nan_to_num_in_place(_special(x), 2.0, 7.0),
        dtypes=ALL),
    Row("nan_to_num(0d)", lambda s: np.nan_to_num(s / s), (S(),), dtypes=FLOATS),
]

RESHAPING = [
    Row("sliding_window_view", lambda x: np.lib.stride_tricks.sliding_window_view(x, 2),
        (V,), dtypes=ALL),
    Row("sliding_window_view(2-d)", lambda x: np.lib.stride_tricks.sliding_window_view(
        x, (2, 2), axis=(0, 1)), dtypes=ALL),
    Row("sliding_window_view(too large)",
        lambda x: np.lib.stride_tricks.sliding_window_view(x, 5), (V,), error=True),
    Row("resize", lambda x: np.resize(x, (3, 5)), dtypes=ALL),
    Row("resize(int)", lambda x: np.resize(x, 4)),
    Row("resize(0)", lambda x: np.resize(x, (2, 0))),
    Row("resize(empty)", lambda x: np.resize(x, (2, 2)), (A((0, 3)),)),
    Row("resize(-1)", lambda x: np.resize(x, (-1, 2)), error=True),
    Row("matrix_transpose", np.matrix_transpose, (X3,), dtypes=ALL),
    Row("matrix_transpose(1d)", np.matrix_transpose, (V,), error=True),
] + ([  # NumPy 2.1
    Row("unstack", np.unstack, (X3,), dtypes=ALL, unknown=ag.TracingError),
    Row("unstack(axis)", lambda x: np.unstack(np.moveaxis(x, 0, -1), axis=-1), (X3,),
        unknown=ag.TracingError),
    Row("unstack(0d)", np.unstack, (S(),), error=True),
] if hasattr(np, "unstack") else [])

B = A((2, 3), dtype="bool")
SELECTIONS = [
    Row("select", lambda x: np.select([x > 0, x < -1], [x, 2 * x]), dtypes=ALL),
    Row("select(default)", lambda x, y: np.select([x > 0], [x], default=y[0]), (X, X)),
    Row("select(scalars)", lambda x, b: np.select([b, x > 1], [1.5, x], 7), (X, B), dtypes=ALL),
    Row("select(not bool)", lambda x: np.select([x], [x]), error=True,
        dtypes=("float64", "int64")),
    Row("select(lengths)", lambda x: np.select([x > 0], [x, x]), error=True),
    Row("piecewise", lambda x: np.piecewise(x, [x < 0, x > 1], [lambda v: v * 2, 7, -1]),
        dtypes=ALL, dynamic=True),
    Row("piecewise(not elementwise)", lambda x: np.piecewise(
        x, [x > 0], [lambda v: v - v.sum(), np.cumsum]), dynamic=True,
        dtypes=("float32", "float64", "int64")),
    # NumPy's dispatcher iterates a condition array: its first dim must be known
    Row("piecewise(one cond)", lambda v, b: np.piecewise(v, b, [lambda v: v + 1]),
        (V, A((4,), dtype="bool")), dynamic=True, unknown=ag.TracingError),
    Row("piecewise(none selected)", lambda x: np.piecewise(x, [x > 10], [np.max, 1]),
        dtypes=("float64", "int64"), dynamic=True),
    Row("piecewise(args)", lambda x: np.piecewise(x, [x > 0], [np.add, 0], 3), dynamic=True),
    Row("piecewise(count)", lambda x: np.piecewise(x, [x > 0], [1, 2, 3]), error=True),
    Row("compress", lambda v, x: np.compress(v > 0, x, axis=1), (A((3,)), X), dtypes=ALL,
        dynamic=True),
    Row("compress(flat)", lambda v, x: np.compress(v > 0, x), (A((6,)), X), dynamic=True),
    Row("compress(short)", lambda b, x: np.compress(b, x, axis=1), (A((2,), dtype="bool"), X),
        dynamic=True),
    Row("compress(2d cond)", lambda x: np.compress(x > 0, x), error=True),
    Row("extract", lambda x: np.extract(x > 0, x), dtypes=ALL, dynamic=True),
    Row("extract(numbers)", lambda x, y: np.extract(x, y), (X, X), dynamic=True),
    Row("trim_zeros", np.trim_zeros, (A((7,), lo=-1, hi=1),), dtypes=ALL, dynamic=True),
    Row("trim_zeros(f)", lambda v: np.trim_zeros(v, "f"), (A((7,), lo=-1, hi=1),), dynamic=True),
    Row("trim_zeros(B)", lambda v: np.trim_zeros(v, "B"), (A((7,), lo=-1, hi=1),), dynamic=True),
    Row("trim_zeros(zeros)", lambda v: np.trim_zeros(v * 0), (V,), dynamic=True),
    Row("trim_zeros(2d)", np.trim_zeros, (A((4, 5), lo=-1, hi=1),), dynamic=True),
    Row("trim_zeros(axis)", lambda x: np.trim_zeros(x, "b", axis=1), (A((4, 5), lo=-1, hi=1),),
        dynamic=True),
    Row("trim_zeros(trim)", lambda v: np.trim_zeros(v, "x"), (V,), error=True),
]


def _at(ufunc, index, *b):
    """`ufunc.at` on a copy (the rows' arguments stay as they are)."""
    def fn(x, *values):
        y = x.copy()
        ufunc.at(y, index, *values[:len(b)])
        return y
    return fn


UFUNC_AT = [
    Row("add.at", lambda x, v: _at(np.add, [0, 0, 1], 1)(x, v[:3]), (X, V), dtypes=ALL),
    Row("maximum.at(mask)", lambda x: _at(np.maximum, x > 0, 1)(x, x[0, 0]), dtypes=ALL),
    Row("negative.at", lambda x: _at(np.negative, (slice(None), [2, 2]))(x), dtypes=DTYPES),
    Row("add.at(bounds)", lambda x: _at(np.add, [2], 1)(x, 1), error=True),
]

MORE_ROWS = FLIPS_SPLITS + FINITE + RESHAPING + SELECTIONS + UFUNC_AT


@pytest.mark.parametrize("row, dtype, mode", cases(MORE_ROWS))
def test_op(row, dtype, mode):
    check_row(row, dtype, mode)
