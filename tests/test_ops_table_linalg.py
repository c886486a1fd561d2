"""The `np.linalg` table: each function against eager NumPy, over every dtype.

Rows run over bool, int32, int64, float32, float64 and complex128 (ints and
bool give float64, as NumPy's linalg does), with known and unknown dimensions,
stacked matrices where NumPy takes them. Matrices NumPy finds singular for a
dtype must raise the same `LinAlgError` in the graph; `error=True` rows raise
for every dtype (a non-square matrix, mismatched `solve` operands, a matrix
that is not positive definite). `LINALG_ROWS` joins the table of
`test_ops_table.py` in its check that every primitive has a row.
"""
from __future__ import annotations

import numpy as np
import pytest
import oracle
from oracle import DTYPES, A, S, cases, check_row

DTYPES_8 = DTYPES + ("int8", "uint8")
DTYPES_C = DTYPES_8 + ("complex128",)


def Row(*args, dtypes=DTYPES_8, **kwargs):   # noqa: N802 - oracle.Row, over int8 and uint8 too
    return oracle.Row(*args, dtypes=dtypes, **kwargs)
SQ, SQ_B, TALL, WIDE = A((3, 3)), A((2, 3, 3)), A((4, 3)), A((3, 4))
V3 = A((3,))


def _spd(x):
    """A symmetric positive definite matrix (stack) made from `x`."""
    return x @ np.swapaxes(x, -1, -2).conj() + 3 * np.linalg.matrix_power(x, 0)


def _sym(x):
    return x + np.swapaxes(x, -1, -2)


def _rows(prefix, fn, variants, **common):
    """Rows `prefix[id]` of `fn(*args, **kwargs)` for each `(id, args, kwargs)`."""
    return [Row(f"{prefix}[{key}]", (lambda *a, kw=kw: fn(*a, **kw)), args, **common)
            for key, args, kw in variants]


BASIC = [
    Row("inv", np.linalg.inv, (SQ,), dtypes=DTYPES_C),
    Row("inv[stack]", np.linalg.inv, (SQ_B,)),
    Row("inv[0x0]", np.linalg.inv, (A((0, 0)),)),
    Row("inv[2x3]", np.linalg.inv, (A((2, 3)),), error=True),
    Row("inv[vector]", np.linalg.inv, (V3,), error=True),
    Row("inv[singular]", lambda x: np.linalg.inv(x * 0), (SQ,), error=True),
    Row("det", np.linalg.det, (SQ,), dtypes=DTYPES_C),
    Row("det[stack]", np.linalg.det, (SQ_B,)),
    Row("det[0x0]", np.linalg.det, (A((0, 0)),)),
    Row("slogdet", np.linalg.slogdet, (SQ,), dtypes=DTYPES_C),
    Row("slogdet[stack,unpacked]", lambda x: (lambda s, l: (l, s))(*np.linalg.slogdet(x)),
        (SQ_B,)),
    Row("slogdet.fields", lambda x: np.linalg.slogdet(x).logabsdet * np.linalg.slogdet(x).sign,
        (SQ,)),
    Row("solve", np.linalg.solve, (SQ, A((3, 2))), dtypes=DTYPES_C),
    Row("solve[vector]", np.linalg.solve, (SQ, V3)),
    Row("solve[stack,vector]", np.linalg.solve, (SQ_B, V3)),
    Row("solve[broadcast]", np.linalg.solve, (SQ_B, A((1, 3, 2)))),
    Row("solve[mismatch]", np.linalg.solve, (SQ, A((2,))), error=True),
    Row("solve[0-d b]", np.linalg.solve, (SQ, A(())), error=True),
    Row("cholesky", lambda x: np.linalg.cholesky(_spd(x)), (SQ,), dtypes=DTYPES_C),
    Row("cholesky[upper]", lambda x: np.linalg.cholesky(_spd(x), upper=True), (SQ_B,)),
    Row("cholesky[not PD]", lambda x: np.linalg.cholesky(x - 10), (SQ,), error=True,
        dtypes=DTYPES + ("int8",)),   # uint8 wraps: x - 10 may be positive definite
    Row("cholesky[int]", np.linalg.cholesky, (A((1, 1), lo=1, hi=3),)),
]

EIGEN = [
    Row("eigh", lambda x: np.linalg.eigh(_sym(x)), (SQ,), dtypes=DTYPES_C),
    Row("eigh[U]", lambda x: np.linalg.eigh(x, UPLO="U"), (SQ_B,)),
    Row("eigh.fields", lambda x: np.linalg.eigh(_sym(x)).eigenvalues, (SQ,)),
    Row("eigh[bad UPLO]", lambda x: np.linalg.eigh(x, UPLO="X"), (SQ,), error=True),
    Row("eigvalsh", lambda x: np.linalg.eigvalsh(_sym(x)), (SQ_B,), dtypes=DTYPES_C),
    Row("eigvalsh[u]", lambda x: np.linalg.eigvalsh(x, "u"), (SQ,)),
    Row("eig[complex]", lambda x: np.linalg.eig(x.astype(complex)), (SQ,), dtypes=DTYPES_C),
    Row("eig.fields", lambda x: np.linalg.eig(x * 1j).eigenvalues, (SQ_B,)),
    Row("eigvals[complex]", lambda x: np.linalg.eigvals(x + 0j), (SQ_B,), dtypes=DTYPES_C),
    Row("eigvals[complex,2x3]", lambda x: np.linalg.eigvals(x + 0j), (A((2, 3)),), error=True),
]

_SVD = [("tall", (TALL,), {}), ("wide", (WIDE,), {}), ("stack", (A((2, 4, 3)),), {}),
        ("reduced", (TALL,), {"full_matrices": False}),
        ("reduced,wide", (WIDE,), {"full_matrices": False}),
        ("values", (A((2, 3, 4)),), {"compute_uv": False}), ("empty", (A((0, 3)),), {})]
_QR = [("tall", (TALL,), {}), ("wide", (WIDE,), {}), ("stack", (A((2, 4, 3)),), {}),
       ("complete", (TALL,), {"mode": "complete"}),
       ("complete,wide", (WIDE,), {"mode": "complete"}), ("r", (TALL,), {"mode": "r"}),
       ("r,wide", (A((2, 3, 4)),), {"mode": "r"})]
DECOMPOSITIONS = _rows("svd", np.linalg.svd, _SVD, dtypes=DTYPES_C) + _rows(
    "qr", np.linalg.qr, _QR, dtypes=DTYPES_C) + [
    Row("svd[hermitian]", lambda x: np.linalg.svd(_sym(x), hermitian=True), (SQ,)),
    Row("svd[values,hermitian]",
        lambda x: np.linalg.svd(_sym(x), compute_uv=False, hermitian=True), (SQ_B,)),
    Row("svd.fields", lambda x: np.linalg.svd(x).S * 2, (TALL,)),
    Row("svd[vector]", np.linalg.svd, (V3,), error=True),
    Row("qr[bad mode]", lambda x: np.linalg.qr(x, mode="bad"), (TALL,), error=True),
    Row("qr.fields", lambda x: np.linalg.qr(x).R, (TALL,)),
]

_LSTSQ = [("tall,vector", (TALL, A((4,))), {}), ("tall,matrix", (TALL, A((4, 2))), {}),
          ("wide", (WIDE, A((3,))), {}), ("rcond", (TALL, A((4,))), {"rcond": -1}),
          ("rcond=0.5", (TALL, A((4, 2))), {"rcond": 0.5})]
_PINV = [("tall", (TALL,), {}), ("stack", (A((2, 3, 4)),), {}),
         ("rcond", (TALL,), {"rcond": 0.3}), ("rtol=None", (WIDE,), {"rtol": None}),
         ("rtol", (TALL,), {"rtol": 0.2})]
LEAST_SQUARES = _rows("lstsq", np.linalg.lstsq, _LSTSQ, dtypes=DTYPES_C, dynamic=True) + _rows(
    "pinv", np.linalg.pinv, _PINV, dtypes=DTYPES_C) + [
    Row("lstsq[mismatch]", np.linalg.lstsq, (TALL, A((3,))), error=True),
    Row("lstsq[stack]", np.linalg.lstsq, (A((2, 4, 3)), A((4,))), error=True),
    Row("pinv[hermitian]", lambda x: np.linalg.pinv(_sym(x), hermitian=True), (SQ,)),
    Row("pinv[rcond and rtol]", lambda x: np.linalg.pinv(x, 0.1, rtol=0.1), (SQ,), error=True),
]

_NORM_VECTOR = [(f"vector,{o}", (V3,), {"ord": o}) for o in (None, 2, 1, 0, np.inf, -np.inf, 3, 0.5,
                                                      -1, -2)]
_NORM_MATRIX = [(f"matrix,{o}", (TALL,), {"ord": o}) for o in (None, "fro", "nuc", np.inf, -np.inf,
                                                        1, -1, 2, -2)]
_NORM_AXES = [
    ("axis=0", (TALL,), {"axis": 0}), ("axis=-1,keepdims", (A((2, 3, 4)),),
                                       {"axis": -1, "keepdims": True}),
    ("axis=(2,0),ord=1", (A((2, 3, 4)),), {"axis": (2, 0), "ord": 1}),
    ("axis=(1,0),inf,keepdims", (A((2, 3, 4)),), {"axis": (1, 0), "ord": np.inf,
                                                  "keepdims": True}),
    ("axis=(0,2),2", (A((2, 3, 4)),), {"axis": (0, 2), "ord": 2}),
    ("axis=(-1,-2),nuc", (A((2, 3, 4)),), {"axis": (-1, -2), "ord": "nuc"}),
    ("axis=(1,2),-1", (A((2, 3, 4)),), {"axis": (1, 2), "ord": -1}),
    ("keepdims", (TALL,), {"keepdims": True}), ("empty,inf", (A((0,)),), {"ord": np.inf}),
    ("empty,2", (A((0, 3)),), {"ord": 2}), ("empty,1", (A((0, 3)),), {"ord": 1}),
    ("0-d", (A(()),), {}), ("3-d", (A((2, 3, 4)),), {}),
    ("axis=1.5", (TALL,), {"axis": 1.5}),
    ("ord=3,axis=1,keepdims", (TALL,), {"ord": 3, "axis": 1, "keepdims": True}),
]
_NORM_ERRORS = [
    ("vector,fro", (V3,), {"ord": "fro"}), ("matrix,3", (TALL,), {"ord": 3}),
    ("3-d,ord", (A((2, 3, 4)),), {"ord": 1}), ("axis=(0,0)", (TALL,), {"axis": (0, 0)}),
    ("axis=2", (TALL,), {"axis": 2}), ("axis='a'", (TALL,), {"axis": "a"}),
]
_VECTOR_NORM = [("all", (A((2, 3, 4)),), {}), ("axis=1,inf", (A((2, 3, 4)),),
                                                {"axis": 1, "ord": np.inf}),
                ("axis=(0,2),keepdims", (A((2, 3, 4)),), {"axis": (0, 2), "keepdims": True}),
                ("axis=(-1,),ord=3", (TALL,), {"axis": (-1,), "ord": 3}),
                ("keepdims,ord=0", (TALL,), {"keepdims": True, "ord": 0}),
                ("0-d", (A(()),), {"ord": 1})]
_MATRIX_NORM = [("fro", (A((2, 3, 4)),), {}), ("nuc,keepdims", (TALL,),
                                              {"ord": "nuc", "keepdims": True}),
                ("-inf", (A((2, 4, 3)),), {"ord": -np.inf})]
NORMS = (_rows("norm", np.linalg.norm, _NORM_VECTOR + _NORM_MATRIX + _NORM_AXES,
               dtypes=DTYPES_C, rtol=1e-5)
         + _rows("norm", np.linalg.norm, _NORM_ERRORS, error=True)
         + _rows("vector_norm", lambda x, **kw: np.linalg.vector_norm(x, **kw), _VECTOR_NORM,
                 dtypes=DTYPES_C, rtol=1e-5)
         + _rows("matrix_norm", lambda x, **kw: np.linalg.matrix_norm(x, **kw), _MATRIX_NORM,
                 dtypes=DTYPES_C, rtol=1e-5)
         + [Row("vector_norm[axis=(0,0)]", lambda x: np.linalg.vector_norm(x, axis=(0, 0)),
                (TALL,), error=True),
            Row("matrix_norm[vector]", np.linalg.matrix_norm, (V3,), error=True),
            Row("svdvals", np.linalg.svdvals, (A((2, 4, 3)),), dtypes=DTYPES_C)])

_RANK = [("tall", (TALL,), {}), ("stack", (A((2, 3, 3), lo=0, hi=1),), {}),
         ("tol", (TALL,), {"tol": 2.0}), ("rtol", (A((2, 4, 3)),), {"rtol": 0.3}),
         ("hermitian", (A((3, 3), lo=0, hi=0),), {"hermitian": True})]
_POWER = [(str(n), (SQ,), {"n": n}) for n in (0, 1, 2, 3, 5, 6, -1, -3)] + [
    ("stack,4", (SQ_B,), {"n": 4})]
PRODUCTS = (_rows("matrix_rank", np.linalg.matrix_rank, _RANK, dtypes=DTYPES_C)
            + _rows("matrix_power", np.linalg.matrix_power, _POWER, dtypes=DTYPES_C, rtol=1e-5)
            + [
    Row("matrix_rank[both tols]", lambda x: np.linalg.matrix_rank(x, 1.0, rtol=1.0), (TALL,),
        error=True),
    Row("matrix_power[2x3]", lambda x: np.linalg.matrix_power(x, 2), (A((2, 3)),), error=True),
    Row("matrix_power[1.5]", lambda x: np.linalg.matrix_power(x, 1.5), (SQ,), error=True),
    Row("matrix_power[traced n]", lambda x, n: np.linalg.matrix_power(x, n),
        (SQ, S(lo=-3, hi=7, dtype="int64")), dtypes=("float32", "float64", "complex128"),
        rtol=1e-5),
    Row("multi_dot[3]", lambda a, b, c: np.linalg.multi_dot([a, b, c]),
        (A((4, 3)), A((3, 5)), A((5, 2))), dtypes=DTYPES_C, rtol=1e-5),
    Row("multi_dot[3,right first]", lambda a, b, c: np.linalg.multi_dot([a, b, c]),
        (A((5, 4)), A((4, 3)), A((3, 1))), rtol=1e-5),
    Row("multi_dot[4,vectors]", lambda a, b, c, d: np.linalg.multi_dot([a, b, c, d]),
        (A((4,)), A((4, 3)), A((3, 5)), A((5,))), rtol=1e-5),
    Row("multi_dot[5,vector]", lambda a, b, c, d, e: np.linalg.multi_dot([a, b, c, d, e]),
        (A((4, 6)), A((6, 2)), A((2, 5)), A((5, 3)), A((3,))), rtol=1e-5),
    Row("multi_dot[2]", lambda a, b: np.linalg.multi_dot([a, b]), (TALL, V3)),
    Row("multi_dot[3-d]", lambda a, b, c: np.linalg.multi_dot([a, b, c]),
        (A((2, 2, 2)), A((2, 2)), A((2, 2))), error=True),
    Row("multi_dot[1]", lambda a: np.linalg.multi_dot([a]), (SQ,), error=True),
])

LINALG_ROWS = BASIC + EIGEN + DECOMPOSITIONS + LEAST_SQUARES + NORMS + PRODUCTS


@pytest.mark.parametrize("row, dtype, mode", cases(LINALG_ROWS))
def test_linalg(row, dtype, mode):
    check_row(row, dtype, mode)
