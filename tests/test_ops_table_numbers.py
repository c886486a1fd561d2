"""The numbers, comparisons and statistics table: each function against NumPy.

Rows run through `oracle.check_row` (every dtype of the row, known and unknown
dimensions) like `test_ops_table.py`, whose `test_every_primitive_and_function_has_a_row`
counts `NUMBERS_ROWS` too. NaN handling, empty and 0-d inputs, gradients and
run-time sizes feeding loops are in `test_numbers.py`.
"""
from __future__ import annotations

import numpy as np
import pytest
from oracle import A, Row, S, cases, check_row

import autograph as ag

ALL = ("bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex128")
REAL = ("int8", "uint8", "int32", "int64", "float32", "float64")
NUMERIC = REAL + ("complex128",)
FLOAT = ("float32", "float64")

X, Y, V, W = A((2, 3)), A((2, 3)), A((3,)), A((5,))
X3 = A((2, 3, 4))
SAMPLES = A((3, 5))
BINS = A((6,), lo=0, hi=4)
SORTED = np.array([-2.0, -0.5, 0.0, 1.5, 2.5])


def _nan(x):
    """`x` with NaN where it is above 1 (float64 for integer x, as NumPy's `where` gives)."""
    return np.where(x > 1, np.nan, x)


def _bool(f):
    """An oracle for a function NumPy answers with a Python bool or int: a NumPy scalar."""
    return lambda *args: np.asarray(f(*args))[()]


# -- round, isclose, allclose, array_equal, count_nonzero, result_type ------------------
COMPARISONS = [
    Row("round", np.round, dtypes=ALL), Row("round(1)", lambda x: np.round(x, 1), dtypes=ALL),
    Row("around(-1)", lambda x: np.around(x, -1), (A(lo=-30, hi=30),), dtypes=ALL),
    Row("round(2,0d)", lambda x: np.round(x, 2), (S(),)),
    Row("isclose", np.isclose, (X, Y), dtypes=ALL),
    Row("isclose(x,x+eps)", lambda x: np.isclose(x, x + 1e-9)),
    Row("isclose(tols,nan)", lambda x, y: np.isclose(_nan(x), _nan(y), rtol=0.5, atol=1,
                                                      equal_nan=True), (X, V)),
    Row("allclose", np.allclose, (X, Y), oracle=_bool(np.allclose), dtypes=ALL),
    Row("allclose(x,x)", lambda x: np.allclose(x, x * 1.0), oracle=_bool(
        lambda x: np.allclose(x, x * 1.0))),
    Row("allclose(nan)", lambda x: np.allclose(_nan(x), _nan(x), equal_nan=True),
        oracle=_bool(lambda x: np.allclose(_nan(x), _nan(x), equal_nan=True))),
    Row("array_equal", np.array_equal, (X, Y), oracle=_bool(np.array_equal), dtypes=ALL),
    Row("array_equal(x,x)", lambda x: np.array_equal(x, x), oracle=_bool(
        lambda x: np.array_equal(x, x))),
    Row("array_equal(nan)", lambda x: np.array_equal(_nan(x), _nan(x), equal_nan=True),
        oracle=_bool(lambda x: np.array_equal(_nan(x), _nan(x), equal_nan=True))),
    Row("count_nonzero", np.count_nonzero, oracle=_bool(np.count_nonzero), dtypes=ALL),
    Row("count_nonzero(axis=1)", lambda x: np.count_nonzero(x, axis=1), (X3,), dtypes=ALL),
    Row("count_nonzero(keepdims)", lambda x: np.count_nonzero(x, axis=(0, 2), keepdims=True),
        (X3,)),
    Row("result_type(x,1.0)", lambda x: np.result_type(x, 1.0), dtypes=ALL),
    Row("result_type(x,int8)", lambda x: np.result_type(x, np.int8), dtypes=ALL),
    Row("iscomplexobj", np.iscomplexobj, dtypes=ALL),
]

# -- np.fft --------------------------------------------------------------------------
FFT = [
    Row("fft", np.fft.fft, dtypes=ALL, rtol=1e-5),
    Row("fft(n=5,axis=0,ortho)", lambda x: np.fft.fft(x, 5, axis=0, norm="ortho"), rtol=1e-5),
    Row("ifft(forward)", lambda x: np.fft.ifft(x, norm="forward"), dtypes=ALL, rtol=1e-5),
    Row("rfft", np.fft.rfft, (X3,), dtypes=ALL, rtol=1e-5),
    Row("rfft(n=3)", lambda x: np.fft.rfft(x, n=3, axis=0), rtol=1e-5),
    Row("irfft", np.fft.irfft, dtypes=ALL, rtol=1e-5),
    Row("irfft(n=7)", lambda x: np.fft.irfft(x, n=7), rtol=1e-5),
    Row("irfft(rfft)", lambda x: np.fft.irfft(np.fft.rfft(x), n=3), rtol=1e-5),
    Row("fft(n=0)", lambda x: np.fft.fft(x, 0), error=True),
    Row("fft(0d)", np.fft.fft, (S(),), error=True),
]

# -- differences and signals -----------------------------------------------------------
DIFFERENCES = [
    Row("diff", np.diff, dtypes=ALL), Row("diff(n=2,axis=0)", lambda x: np.diff(x, 2, axis=0),
                                          (X3,)),
    Row("diff(n=0)", lambda x: np.diff(x, 0)), Row("diff(n=3)", lambda x: np.diff(x, 3)),
    Row("diff(prepend,append)", lambda x: np.diff(x, prepend=0, append=2.5), dtypes=ALL),
    Row("diff(prepend=array)", lambda x, v: np.diff(x, axis=0, prepend=v[None]), (X, V)),
    Row("diff(0d)", np.diff, (S(),), error=True),
    Row("diff(n=-1)", lambda x: np.diff(x, -1), error=True),
    Row("ediff1d", np.ediff1d, dtypes=NUMERIC),
    Row("ediff1d(to_begin,to_end)", lambda x: np.ediff1d(x, to_begin=[7, 8], to_end=-1),
        dtypes=NUMERIC),
    Row("ediff1d(to_begin=0.5)", lambda x: np.ediff1d(x, to_begin=0.5)),
    Row("gradient", np.gradient, dtypes=NUMERIC), Row("gradient(1d)", np.gradient, (W,)),
    Row("gradient(axis=1,2.0)", lambda x: np.gradient(x, 2.0, axis=1), (X3,)),
    Row("gradient(edge_order=2)", lambda x: np.gradient(x, axis=-1, edge_order=2),
        dtypes=NUMERIC),
    Row("gradient(dx,dy)", lambda x: np.gradient(x, 0.5, np.float32(2))),
    Row("gradient(edge_order=2,short)", lambda x: np.gradient(x, axis=0, edge_order=2),
        dtypes=NUMERIC, error=True),
    *(Row(f"{f.__name__}({mode},{n}/{m})", lambda a, v, f=f, mode=mode: f(a, v, mode),
          (A((n,)), A((m,))), dtypes=NUMERIC)
      for f in (np.convolve, np.correlate) for mode in ("full", "same", "valid")
      for n, m in ((5, 3), (2, 4))),
    Row("convolve(empty)", np.convolve, (A((0,)), V), error=True),
    Row("interp", lambda x, f: np.interp(x, SORTED, f), (X, W), dtypes=REAL),
    Row("interp(left,right)", lambda x, f: np.interp(x, SORTED, f, left=-9, right=9.5),
        (X, W), dtypes=REAL),
    Row("interp(traced xp)", lambda x, p, f: np.interp(x, np.sort(p), f), (X, W, W),
        dtypes=REAL),
    Row("interp(period)", lambda x, f: np.interp(x, SORTED, f, period=4.0), (X, W),
        dtypes=REAL),
    Row("interp(complex fp)", lambda x, f: np.interp(x, SORTED, f * (1 + 1j)), (X, W),
        dtypes=FLOAT),
]

# -- order statistics and covariance -------------------------------------------------
STATISTICS = [
    Row("ptp", np.ptp, (X3,), dtypes=ALL),   # uint8 wraps, bool is NumPy's TypeError
    Row("ptp(axis=1)", lambda x: np.ptp(x, axis=1), (X3,), dtypes=ALL),
    Row("ptp(axis=(0,2),keepdims)", lambda x: np.ptp(x, axis=(0, 2), keepdims=True), (X3,)),
    Row("ptp(empty)", np.ptp, (A((0, 3)),), dtypes=REAL, error=True),
    Row("median", np.median, (X3,), dtypes=REAL + ("bool",)),
    Row("median(axis=1)", lambda x: np.median(x, axis=1), (X3,), dtypes=REAL),
    Row("median(axis=(1,2),keepdims)", lambda x: np.median(x, axis=(1, 2), keepdims=True),
        (X3,), unknown=ag.TracingError),
    Row("median(0d)", np.median, (S(),)),
    Row("quantile(0.3)", lambda x: np.quantile(x, 0.3), (X3,), dtypes=REAL + ("bool",)),
    Row("quantile([.25,1],axis=-1)", lambda x: np.quantile(x, [0.25, 1.0], axis=-1), (X3,),
        dtypes=REAL),
    Row("quantile(1,axis=0)", lambda x: np.quantile(x, 1, axis=0), (X3,), dtypes=REAL),
    Row("quantile(float32 q,keepdims)", lambda x: np.quantile(x, np.float32(0.7), axis=1,
                                                               keepdims=True), (X3,)),
    *(Row(f"quantile(method={m})", lambda x, m=m: np.quantile(x, [0.3, 0.5], axis=1, method=m),
          (X3,), dtypes=REAL) for m in ("lower", "higher", "nearest", "midpoint")),
    Row("percentile(method=nearest)", lambda x: np.percentile(x, 35, method="nearest"), (X3,),
        dtypes=REAL),
    Row("quantile(q>1)", lambda x: np.quantile(x, 1.5), error=True),
    Row("quantile(complex)", lambda x: np.quantile(x, 0.5), dtypes=("complex128",),
        error=True),
    Row("percentile(40)", lambda x: np.percentile(x, 40, axis=1), (X3,), dtypes=REAL),
    Row("percentile([0,50,100])", lambda x: np.percentile(x, [0, 50, 100]), (X3,),
        dtypes=REAL),
    Row("percentile(200)", lambda x: np.percentile(x, 200), error=True),
    Row("cov", np.cov, (SAMPLES,), dtypes=ALL, unknown=ag.TracingError),
    Row("cov(1d,bias)", lambda x: np.cov(x, bias=True), (W,), dtypes=NUMERIC),
    Row("cov(x,y,ddof=2)", lambda x, y: np.cov(x, y, ddof=2), (W, W)),
    Row("cov(dtype=float32)", lambda x: np.cov(x, dtype=np.float32), (SAMPLES,),
        unknown=ag.TracingError, rtol=1e-5),
    Row("cov(3d)", np.cov, (X3,), error=True),
    Row("corrcoef", np.corrcoef, (SAMPLES,), dtypes=NUMERIC, unknown=ag.TracingError),
    Row("corrcoef(x,y)", np.corrcoef, (W, W), dtypes=REAL),
]

# -- the NaN-ignoring reductions (NaN where x > 1) -------------------------------------
NAN_REDUCTIONS = [
    *(Row(f"{f.__name__}(axis={axis})", lambda x, f=f, axis=axis: f(_nan(x), axis=axis),
          (X3,))
      for f in (np.nansum, np.nanprod, np.nanmean, np.nanvar, np.nanstd, np.nanmin, np.nanmax,
                np.nanmedian)
      for axis in (None, 1)),
    *(Row(f"{f.__name__}(plain)", f, (X3,), dtypes=ALL)
      for f in (np.nansum, np.nanmean, np.nanmax, np.nancumsum)),
    Row("nansum(keepdims,dtype)", lambda x: np.nansum(_nan(x), axis=(0, 2), keepdims=True,
                                                       dtype=np.float32), (X3,)),
    Row("nanvar(ddof=1,keepdims)", lambda x: np.nanvar(_nan(x), axis=2, ddof=1,
                                                        keepdims=True), (X3,)),
    Row("nancumsum", lambda x: np.nancumsum(_nan(x), axis=1), (X3,)),
    Row("nancumprod", lambda x: np.nancumprod(_nan(x))),
    Row("nanargmin", lambda x: np.nanargmin(np.where(x > 2, np.nan, x), axis=0)),
    Row("nanargmax", lambda x: np.nanargmax(np.where(x > 2, np.nan, x))),
    Row("nanmedian(keepdims)", lambda x: np.nanmedian(_nan(x), axis=2, keepdims=True), (X3,)),
    Row("nanquantile", lambda x: np.nanquantile(_nan(x), 0.3, axis=2), (X3,)),
    Row("nanpercentile", lambda x: np.nanpercentile(_nan(x), [10, 90], axis=1), (X3,)),
    Row("nanquantile(plain)", lambda x: np.nanquantile(x, [0.5], axis=0), (X3,), dtypes=REAL),
]

# -- counting and binning -------------------------------------------------------------
COUNTING = [
    Row("searchsorted", lambda a, v: np.searchsorted(np.sort(a), v), (W, X), dtypes=REAL),
    Row("searchsorted(right)", lambda a, v: np.searchsorted(np.sort(a), v, side="right"),
        (W, X), dtypes=REAL + ("bool",)),
    Row("searchsorted(sorter)", lambda a, v: np.searchsorted(a, v, sorter=np.argsort(a)),
        (W, V), dtypes=REAL),
    Row("searchsorted(const)", lambda v: np.searchsorted(SORTED, v), (X,), dtypes=REAL),
    Row("searchsorted(2d)", np.searchsorted, (X, V), error=True),
    Row("bincount", np.bincount, (BINS,), dtypes=("uint8", "int32", "int64"), dynamic=True),
    Row("bincount(weights,minlength)", lambda i, w: np.bincount(i, w, minlength=7),
        (A((6,), lo=0, hi=4, dtype="int64"), A((6,))), dynamic=True, dtypes=REAL),
    Row("bincount(float)", np.bincount, (BINS,), dtypes=FLOAT, error=True),
    Row("histogram", lambda x: np.histogram(x, 3), (SAMPLES,), dtypes=REAL),
    Row("histogram(range)", lambda x: np.histogram(x, 4, range=(-1, 2)), (SAMPLES,),
        dtypes=REAL),
    Row("histogram(edges)", lambda x: np.histogram(x, [-1, 0, 0.5, 2]), (SAMPLES,),
        dtypes=REAL),
    Row("histogram(density,weights)", lambda x, w: np.histogram(x, 3, density=True,
                                                                weights=w), (W, W),
        dtypes=FLOAT),
    Row("histogram(traced edges)", lambda x, e: np.histogram(x, np.sort(e)), (SAMPLES, V),
        dtypes=REAL),
    Row("unique", np.unique, dtypes=ALL, dynamic=True),
    Row("unique(all)", lambda x: np.unique(x, return_index=True, return_inverse=True,
                                           return_counts=True), dynamic=True),
    Row("unique(axis=0)", lambda x: np.unique(x, axis=0, return_counts=True),
        (A((4, 2), lo=0, hi=1),), dynamic=True),
    Row("unique(0d)", lambda x: np.unique(x, return_inverse=True), (S(),), dynamic=True),
]

NUMBERS_ROWS = COMPARISONS + FFT + DIFFERENCES + STATISTICS + NAN_REDUCTIONS + COUNTING


@pytest.mark.parametrize("row, dtype, mode", cases(NUMBERS_ROWS))
def test_op(row, dtype, mode):
    check_row(row, dtype, mode)
