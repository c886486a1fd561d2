"""The table of array building and rearranging (runtime/ops/building.py, diagonals.py,
rearranging.py) against eager NumPy.

Each row runs over `DTYPES` (int8, uint8 and complex128 too where `ALL` says),
with known and with unknown dimensions, through `oracle.check_row`. Functions
NumPy runs in place (`fill_diagonal`, `put_along_axis`, `copyto`) are rows on a
copy, so the row stays a pure function; `test_every_primitive_and_function_has_a_row`
(tests/test_ops_table.py) counts `BUILDING_ROWS`.
"""
from __future__ import annotations

import numpy as np
import pytest
from oracle import DTYPES, A, Row, S, cases, check_row

import autograph as ag
import autograph_runtime as runtime
from autograph_runtime.autodiff.rules_building import diagonal_scatter_p

ALL = DTYPES + ("int8", "uint8", "complex128")
X, V, X3 = A((2, 3)), A((3,)), A((2, 3, 4))
SQ, TALL = A((3, 3)), A((7, 3))
I64 = "int64"


def _in_place(f):
    """`f(y, *rest)` run on a copy y of the first argument; returns y (NumPy's result)."""
    def run(x, *rest):
        y = x.copy()
        f(y, *rest)
        return y
    return run


def _scattered(x):
    return runtime.bind(diagonal_scatter_p, np.diagonal(x, 1), x, offset=1, axis1=0, axis2=1)


def _scattered_oracle(x):
    out = np.zeros_like(x)
    d = np.arange(min(x.shape[0], x.shape[1] - 1))
    out[d, d + 1] = np.diagonal(x, 1)
    return out


BUILDING = [
    Row("atleast_1d(0d)", np.atleast_1d, (S(),), dtypes=ALL),
    Row("atleast_2d(1d)", np.atleast_2d, (V,), dtypes=ALL),
    Row("atleast_3d(1d)", np.atleast_3d, (V,)), Row("atleast_3d(2d)", np.atleast_3d),
    Row("atleast_2d(x,v,s)", lambda x, v, s: np.atleast_2d(x, v, s), (X, V, S())),
    Row("atleast_3d(3d)", np.atleast_3d, (X3,)),
    Row("hstack", lambda x, y: np.hstack([x, y]), (X, A((2, 1))), dtypes=ALL),
    Row("hstack(1d,scalar)", lambda v: np.hstack([v, 1, v]), (V,)),
    Row("vstack", lambda x, v: np.vstack([x, v, x]), (X, V), dtypes=ALL),
    Row("vstack(dtype)", lambda x, v: np.vstack([x, v], dtype=np.float64), (X, V)),
    Row("vstack(mismatch)", lambda x, v: np.vstack([x, v]), (X, A((4,))), error=True),
    Row("dstack", lambda x, y: np.dstack([x, y]), (X, X)),
    Row("dstack(1d)", lambda v: np.dstack([v, v]), (V,)),
    Row("column_stack", lambda x, v: np.column_stack([v, x.T, v]), (X, V), dtypes=ALL),
    Row("append", lambda x, v: np.append(x, v), (X, V), dtypes=ALL),
    Row("append(axis=0)", lambda x, v: np.append(x, v[None], axis=0), (X, V)),
    Row("append(mismatch)", lambda x, v: np.append(x, v, axis=0), (X, V), error=True),
    Row("block", lambda x, y: np.block([[x, y], [y, x]]), (X, X), dtypes=ALL),
    Row("block(1d)", lambda v: np.block([v, 2, v]), (V,)),
    Row("block(mixed ndim)", lambda x, v: np.block([[x], [v]]), (X, V)),
    Row("block(array)", np.block, (X,)),
    Row("block(depths)", lambda x: np.block([x, [x]]), error=True),
    Row("block(tuple)", lambda x: np.block((x, x)), error=True),
    Row("tile", lambda x: np.tile(x, (2, 3)), dtypes=ALL),
    Row("tile(int)", lambda v: np.tile(v, 2), (V,)),
    Row("tile(more reps)", lambda v: np.tile(v, (2, 1, 2)), (V,)),
    Row("tile(0)", lambda x: np.tile(x, (0, 2))), Row("tile(1)", lambda x: np.tile(x, 1)),
    Row("tile(-1)", lambda x: np.tile(x, -1), error=True),
    Row("kron(1d)", lambda v, w: np.kron(v, w), (V, A((2,))), dtypes=ALL),
    Row("kron(2d)", lambda x, y: np.kron(x, y), (X, A((2, 2)))),
    Row("kron(3d,1d)", lambda x, v: np.kron(x, v), (X3, V), dtypes=ALL),
    Row("kron(0d)", lambda x, s: np.kron(x, s), (X, S())),
    Row("meshgrid", lambda v, w: np.meshgrid(v, w), (V, A((2,))), dtypes=ALL),
    Row("meshgrid(ij,sparse)", lambda v, w: np.meshgrid(v, w, v, indexing="ij", sparse=True),
        (V, A((2,)))),
    Row("meshgrid(copy=False)", lambda v, w: np.meshgrid(v, w, copy=False), (V, A((2,)))),
    Row("meshgrid(bad)", lambda v: np.meshgrid(v, indexing="xx"), (V,), error=True),
    Row("empty_like", np.empty_like, oracle=np.zeros_like, dtypes=ALL),
    Row("empty_like(dtype,shape)", lambda x: np.empty_like(x, np.int8, shape=(4,)),
        oracle=lambda x: np.zeros_like(x, np.int8, shape=(4,))),
    Row("full_like(complex)", lambda x: np.full_like(x, 2), dtypes=ALL),
]

DIAGONALS = [
    Row("diagonal", np.diagonal, dtypes=ALL), Row("diagonal(1)", lambda x: np.diagonal(x, 1)),
    Row("diagonal(-1)", lambda x: np.diagonal(x, -1), (TALL,)),
    Row("diagonal(5)", lambda x: np.diagonal(x, 5)),
    Row("diagonal(3d)", lambda x: np.diagonal(x, 1, 2, 0), (X3,)),
    Row("x.diagonal", lambda x: x.diagonal(axis1=-1, axis2=-2), (X3,)),
    Row("diagonal(1d)", np.diagonal, (V,), error=True),
    Row("diagonal(same axes)", lambda x: np.diagonal(x, 0, 1, -1), error=True),
    Row("diag(2d)", np.diag, dtypes=ALL), Row("diag(2d,-1)", lambda x: np.diag(x, -1), (TALL,)),
    Row("diag(1d)", np.diag, (V,), dtypes=ALL), Row("diag(1d,2)", lambda v: np.diag(v, 2), (V,)),
    Row("diag(1d,-1)", lambda v: np.diag(v, -1), (V,)),
    Row("diag(3d)", np.diag, (X3,), error=True),
    Row("diagonal_scatter", _scattered, oracle=_scattered_oracle),
    Row("trace", np.trace, dtypes=ALL), Row("x.trace(1)", lambda x: x.trace(1)),
    Row("trace(3d,dtype)", lambda x: np.trace(x, -1, 2, 1, dtype=np.float32), (X3,)),
    Row("triu", np.triu, dtypes=ALL), Row("triu(1)", lambda x: np.triu(x, 1), (TALL,)),
    Row("tril(-1)", lambda x: np.tril(x, -1), (X3,)), Row("tril(1d)", np.tril, (V,)),
    Row("tril(0d)", np.tril, (S(),), error=True),
    Row("fill_diagonal", _in_place(lambda y: np.fill_diagonal(y, 5)), (SQ,), dtypes=ALL),
    Row("fill_diagonal(traced)", _in_place(np.fill_diagonal), (X, S())),
    Row("fill_diagonal(row)", _in_place(np.fill_diagonal), (TALL, A((2,)))),
    Row("fill_diagonal(wrap)", _in_place(lambda y, v: np.fill_diagonal(y, v, wrap=True)),
        (TALL, A((2,)))),
    Row("fill_diagonal(wide)", _in_place(np.fill_diagonal), (A((2, 5)), A((3,)))),
    Row("fill_diagonal(3d)", _in_place(lambda y: np.fill_diagonal(y, 1)), (A((3, 3, 3)),),
        unknown=ag.TracingError),
    Row("fill_diagonal(1d)", _in_place(lambda y: np.fill_diagonal(y, 1)), (V,), error=True),
]

_IDX = np.array([[0, 2, 1], [1, 1, 0]])
REARRANGING = [
    Row("flip", np.flip, (X3,), dtypes=ALL), Row("flip(1)", lambda x: np.flip(x, 1), (X3,)),
    Row("flip((0,-1))", lambda x: np.flip(x, (0, -1)), (X3,)),
    Row("flip(0d)", np.flip, (S(),)),
    Row("rot90", np.rot90, dtypes=ALL), Row("rot90(2)", lambda x: np.rot90(x, 2)),
    Row("rot90(-1,axes)", lambda x: np.rot90(x, -1, (2, 0)), (X3,)),
    Row("rot90(bad axes)", lambda x: np.rot90(x, 1, (0, 0)), error=True),
    Row("roll", lambda x: np.roll(x, 4), dtypes=ALL),
    Row("roll(-1,1)", lambda x: np.roll(x, -1, axis=1)),
    Row("roll(tuple)", lambda x: np.roll(x, (1, -2), (0, 2)), (X3,)),
    Row("roll(shift,axes)", lambda x: np.roll(x, 2, (0, 1, 1)), (X3,)),
    Row("roll(traced)", lambda x, s: np.roll(x, s, 1), (X, S(-5, 5, I64))),
    Row("roll(mismatch)", lambda x: np.roll(x, (1, 2, 3), (0, 1)), error=True),
    Row("repeat", lambda x: np.repeat(x, 2), dtypes=ALL),
    Row("x.repeat(axis)", lambda x: x.repeat(3, axis=-1)),
    Row("repeat(0)", lambda x: np.repeat(x, 0, axis=0)),
    Row("repeat(list)", lambda x: np.repeat(x, [2, 0, 1], axis=1)),
    Row("repeat(traced)", lambda v, r: np.repeat(v, r), (V, A((3,), 0, 3, I64)), dynamic=True),
    Row("repeat(traced 0d)", lambda x, r: np.repeat(x, r, 0), (X, S(0, 3, I64)), dynamic=True),
    Row("repeat(float counts)", lambda v, r: np.repeat(v, r), (V, A((3,), 0, 3, "float64")),
        error=True),
    Row("repeat(-1)", lambda x: np.repeat(x, -1), error=True),
    Row("pad", lambda x: np.pad(x, 1), dtypes=ALL),
    Row("pad(pairs)", lambda x: np.pad(x, ((1, 0), (2, 3)), constant_values=((7, 8), (9, 1)))),
    Row("pad(traced value)", lambda x, c: np.pad(x, (2, 1), constant_values=c), (X, S())),
    Row("pad(empty)", lambda x: np.pad(x, 2, "empty"), oracle=lambda x: np.pad(x, 2)),
    *(Row(f"pad({mode})", lambda x, mode=mode: np.pad(x, ((1, 2), (4, 0)), mode), dtypes=ALL)
      for mode in ("edge", "reflect", "wrap", "symmetric")),
    *(Row(f"pad({mode},wide)", lambda v, mode=mode: np.pad(v, (7, 9), mode), (V,))
      for mode in ("reflect", "wrap", "symmetric")),
    Row("pad(negative)", lambda x: np.pad(x, -1), error=True),
    Row("pad(float width)", lambda x: np.pad(x, 1.5), error=True),
    Row("pad(bad mode)", lambda x: np.pad(x, 1, "nope"), error=True),
    Row("pad(edge,empty axis)", lambda x: np.pad(x[:0], 1, "edge"), error=True),
    Row("pad(bad kwarg)", lambda x: np.pad(x, 1, "edge", constant_values=1), error=True),
    Row("delete", lambda x: np.delete(x, 1, axis=1), dtypes=ALL),
    Row("delete(None)", lambda x: np.delete(x, [0, 4])),
    Row("delete(slice)", lambda x: np.delete(x, slice(None, None, 2), axis=-1), (X3,)),
    Row("delete(mask)", lambda x: np.delete(x, [True, False, True], axis=1)),
    Row("delete(out of bounds)", lambda x: np.delete(x, 5, axis=0), error=True),
    Row("insert", lambda x: np.insert(x, 1, 9, axis=0), dtypes=ALL),
    Row("insert(None)", lambda x, v: np.insert(x, [0, 2, 2], v), (X, V),
        unknown=ag.TracingError),
    Row("insert(column)", lambda v, x: np.insert(x, -1, v, axis=1), (V, A((3, 2)))),
    Row("insert([1])", lambda x: np.insert(x, [1], [[7], [8]], axis=0), (A((3, 2)),)),
    Row("insert(-4)", lambda x: np.insert(x, -4, 0, axis=0), (A((3, 2)),), error=True),
    Row("insert(4)", lambda x: np.insert(x, 4, 0, axis=0), (A((3, 2)),), error=True),
    Row("take_along_axis", lambda x: np.take_along_axis(x, _IDX, 1), dtypes=ALL),
    Row("take_along_axis(traced)", lambda x, i: np.take_along_axis(x, i, 0),
        (X, A((1, 3), 0, 1, I64))),
    Row("take_along_axis(None)", lambda x: np.take_along_axis(x, np.array([5, 0]), None)),
    Row("take_along_axis(ndim)", lambda x: np.take_along_axis(x, _IDX[0], 1), error=True),
    Row("put_along_axis", _in_place(lambda y, v: np.put_along_axis(y, _IDX, v, 1)), (X, S()),
        dtypes=ALL),
    Row("put_along_axis(None)", _in_place(lambda y: np.put_along_axis(
        y, np.array([5, 1]), 0, None))),
    Row("copyto", _in_place(lambda y, v: np.copyto(y, v)), (X, V), dtypes=ALL),
    Row("copyto(where)", _in_place(lambda y, v: np.copyto(y, v, where=y > 0)), (X, V)),
    Row("copyto(scalar)", _in_place(lambda y: np.copyto(y, 1))),
    Row("copyto(unsafe)", _in_place(lambda y, v: np.copyto(y, v, casting="unsafe")),
        (X, A((3,), dtype="float64"))),
    Row("copyto(cast)", _in_place(lambda y, v: np.copyto(y, v)), (X, A((3,), dtype="float64")),
        dtypes=("int32", "int64", "bool"), error=True),
    Row("copyto(shape)", _in_place(lambda y, v: np.copyto(y, v)), (V, X), error=True),
]

BUILDING_ROWS = BUILDING + DIAGONALS + REARRANGING


@pytest.mark.parametrize("row, dtype, mode", cases(BUILDING_ROWS))
def test_op(row, dtype, mode):
    check_row(row, dtype, mode)
