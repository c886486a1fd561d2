"""`np.linalg`: the primitives that need LAPACK, one per NumPy function.

Primitives `solve`, `inv`, `det`, `slogdet`, `cholesky` (`upper`), `eigh`
(`UPLO`), `eigvalsh`, `eig`, `eigvals`, `svd` (`full_matrices`, `hermitian`),
`svdvals` (`svd(..., compute_uv=False)`), `qr` (`mode` "reduced", "complete"
or "r": two results or one), `lstsq` (`rcond`) and `pinv` (`rcond`, or `rtol`
None for NumPy's size-scaled default). Each kernel is `xp.linalg.<name>`, so
results are NumPy's own, stacked matrices (leading dimensions) included.

Types follow NumPy: ints and bool give float64, float32 stays float32, complex
works (dtypes by example: `np.linalg.<name>` itself runs on tiny arrays, so an
unsupported dtype such as float16 raises NumPy's `TypeError` while tracing).
Shape errors are NumPy's (`LinAlgError` for an array with fewer than two
dimensions or a known non-square matrix, `ValueError` for `solve`'s mismatched
core dimensions) and raised while tracing; a singular matrix, a matrix that is
not positive definite, or a non-square one whose dimensions were unknown is
NumPy's `LinAlgError` when the graph runs.

`eig` and `eigvals` of a real matrix are refused: NumPy returns a real array
when every eigenvalue is real and a complex one otherwise, a dtype decided by
the values, which a graph's types cannot follow. The `TracingError` names the
ways out (`eigh`/`eigvalsh` for a symmetric matrix, `x.astype(complex)` first).

Results that NumPy names (`SVDResult`, `EighResult`, `EigResult`, `QRResult`,
`SlogdetResult`) are the same named tuples here. The functions NumPy writes
over these (`norm`, `matrix_rank`, `matrix_power`, `multi_dot`) are in
`np_linalg_composed.py`.

>>> import numpy as np, autograph as ag
>>> def fit(a, b):
...     return np.linalg.slogdet(a).logabsdet + np.linalg.norm(np.linalg.inv(a) @ b, 1)
>>> spec = ag.TensorSpec((3, 3), np.float64), ag.TensorSpec((3,), np.int64)
>>> print(ag.convert(fit).get_concrete_function(*spec).graph)
graph fit(a:f64[3,3], b:i64[3]) {
  t0:f64[], t1:f64[] = slogdet a
  t2:f64[3,3] = inv a
  t3:f64[3] = matmul t2 b
  t4:f64[3] = absolute t3
  t5:f64[] = sum[axis=(0,), keepdims=False] t4
  t6:f64[] = add t1 t5
  return t6
}
"""
from __future__ import annotations

import functools

import numpy as np
from numpy.linalg import LinAlgError
from numpy.linalg import _linalg as _results  # SVDResult, EighResult, ... (NumPy's own)

from .. import primitives
from ..abstract import broadcast_shapes
from ..backend import CUPY_OVERRIDES
from ..dispatch import implements, unsupported
from ..errors import TracingError
from ..source import location_note, user_source
from ..tracer import bind
from ._rules import aval, dtype_by_example
from .shape_ops import operand


# -- shape rules -------------------------------------------------------------------------
def _same(a, b):
    """One dimension standing for two that must be equal (None where both are unknown)."""
    return b if a is None else a


def _clash(a, b) -> bool:
    return a is not None and b is not None and a != b


def _matrices(x, square: bool = False) -> tuple:
    """`x`'s batch dims and its last two, checked as NumPy's `_assert_stacked_*` checks."""
    shape = x.aval.shape
    if len(shape) < 2:
        raise LinAlgError(f"{len(shape)}-dimensional array given. Array must be at least "
                          f"two-dimensional")
    if square and _clash(shape[-2], shape[-1]):
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return shape[:-2], shape[-2], shape[-1]


def _square(x) -> tuple:
    """`(batch, n)` of a stack of square matrices."""
    batch, m, n = _matrices(x, square=True)
    return batch, _same(m, n)


def _smaller(m, n):
    """min(m, n), None unless both are known (or one is 0)."""
    return 0 if 0 in (m, n) else None if None in (m, n) else min(m, n)


def _dtypes(fn, atoms, **params):
    """NumPy's result dtype(s) for `fn` on these operands (a tuple for named results).

    Known empty operands run as they are: NumPy's `pinv` of an empty int matrix is int.
    """
    shapes = [x.aval.shape for x in atoms]
    if all(None not in s for s in shapes) and any(0 in s for s in shapes):
        with np.errstate(all="ignore"):
            result = fn(*(np.zeros(s, x.aval.dtype) for s, x in zip(shapes, atoms)), **params)
        return (tuple(np.asarray(r).dtype for r in result) if isinstance(result, tuple)
                else np.asarray(result).dtype)
    return dtype_by_example(fn, atoms, **params)


def _inv_rule(a):
    batch, n = _square(a)
    return aval(batch + (n, n), _dtypes(np.linalg.inv, [a]))


def _det_rule(a):
    batch, _ = _square(a)
    return aval(batch, _dtypes(np.linalg.det, [a]))


def _slogdet_rule(a):
    batch, _ = _square(a)
    return [aval(batch, d) for d in _dtypes(np.linalg.slogdet, [a])]


def _cholesky_rule(a, *, upper=False):
    batch, n = _square(a)
    return aval(batch + (n, n), _dtypes(np.linalg.cholesky, [a]))


def _solve_rule(a, b):
    batch, n = _square(a)
    sb = b.aval.shape
    vector = len(sb) == 1
    name, core = ("solve1", "(m,m),(m)->(m)") if vector else ("solve", "(m,m),(m,n)->(m,n)")
    if len(sb) < (1 if vector else 2):
        raise ValueError(f"{name}: Input operand 1 does not have enough dimensions (has "
                         f"{len(sb)}, gufunc core with signature {core} requires 2)")
    m = sb[-1] if vector else sb[-2]
    if _clash(n, m):
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature {core} (size {m} is different from {n})")
    n = _same(n, m)
    shape = batch + (n,) if vector else broadcast_shapes(batch, sb[:-2]) + (n, sb[-1])
    return aval(shape, _dtypes(np.linalg.solve, [a, b]))


def _uplo(UPLO):
    upper = UPLO.upper() if isinstance(UPLO, str) else UPLO
    if upper not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return upper


def _eigh_rule(a, *, UPLO="L"):
    batch, n = _square(a)
    w, v = _dtypes(np.linalg.eigh, [a], UPLO=UPLO)
    return [aval(batch + (n,), w), aval(batch + (n, n), v)]


def _eigvalsh_rule(a, *, UPLO="L"):
    batch, n = _square(a)
    return aval(batch + (n,), _dtypes(np.linalg.eigvalsh, [a], UPLO=UPLO))


def _eig_rule(a):
    batch, n = _square(a)
    return [aval(batch + (n,), a.aval.dtype), aval(batch + (n, n), a.aval.dtype)]


def _eigvals_rule(a):
    batch, n = _square(a)
    return aval(batch + (n,), a.aval.dtype)


def _svd_rule(a, *, full_matrices=True, hermitian=False):
    batch, m, n = _matrices(a)
    k = _smaller(m, n)
    u, s, vh = _dtypes(np.linalg.svd, [a], full_matrices=full_matrices, hermitian=hermitian)
    return [aval(batch + (m, m if full_matrices else k), u), aval(batch + (k,), s),
            aval(batch + (n if full_matrices else k, n), vh)]


def _svdvals_rule(a, *, hermitian=False):
    batch, m, n = _matrices(a)
    return aval(batch + (_smaller(m, n),),
                _dtypes(np.linalg.svd, [a], compute_uv=False, hermitian=hermitian))


def _qr_rule(a, *, mode="reduced"):
    batch, m, n = _matrices(a)
    q, r = _dtypes(np.linalg.qr, [a])
    k = m if mode == "complete" else _smaller(m, n)
    r_type = aval(batch + (k, n), r)
    return [r_type] if mode == "r" else [aval(batch + (m, k), q), r_type]


def _lstsq_rule(a, b, *, rcond=None):
    sa, sb = a.aval.shape, b.aval.shape
    for shape in (sa, sb[:1] + (1,) if len(sb) == 1 else sb):
        if len(shape) != 2:
            raise LinAlgError(f"{len(shape)}-dimensional array given. Array must be "
                              f"two-dimensional")
    (m, n), m2 = sa, sb[0]
    if _clash(m, m2):
        raise LinAlgError("Incompatible dimensions")
    x, resids, rank, s = _dtypes(np.linalg.lstsq, [a, b], rcond=rcond)
    residual_dim = 0 if m is not None and n is not None and m <= n else None  # rank decides
    return [aval((n,) + sb[1:], x), aval((residual_dim,), resids), aval((), rank),
            aval((_smaller(m, n),), s)]


def _pinv_example(a, rcond=None, hermitian=False):
    return np.linalg.pinv(a, hermitian=hermitian)


def _pinv_rule(a, *, rcond=None, hermitian=False):
    batch, m, n = _matrices(a)
    return aval(batch + (n, m), _dtypes(_pinv_example, [a], hermitian=hermitian))


# -- kernels -----------------------------------------------------------------------------
def _linalg(name, multiple=False, **fixed):
    """The kernel `xp.linalg.<name>` with the equation's params (and `fixed` ones); with
    `multiple`, its named tuple of results as a plain tuple."""
    def kernel(xp, **params):
        fn = functools.partial(getattr(xp.linalg, name), **fixed, **params)
        return (lambda *xs: tuple(fn(*xs))) if multiple else fn
    return kernel


def _qr_kernel(xp, mode="reduced"):
    qr = functools.partial(xp.linalg.qr, mode=mode)
    return (lambda a: (qr(a),)) if mode == "r" else (lambda a: tuple(qr(a)))


def _pinv_kernel(xp, rcond=None, hermitian=False):
    """NumPy's `pinv` (`rcond` None: its `rtol=None`, max(M, N) * eps)."""
    tol = {"rtol": None} if rcond is None else {"rcond": rcond}
    return functools.partial(xp.linalg.pinv, hermitian=hermitian, **tol)


def _define(name, rule, kernel=None, multiple=False):
    return primitives.define(name, rule, kernel or _linalg(name, multiple),
                             multiple_results=multiple)


inv_p = _define("inv", _inv_rule)
det_p = _define("det", _det_rule)
slogdet_p = _define("slogdet", _slogdet_rule, multiple=True)
cholesky_p = _define("cholesky", _cholesky_rule)
solve_p = _define("solve", _solve_rule)
eigh_p = _define("eigh", _eigh_rule, multiple=True)
eigvalsh_p = _define("eigvalsh", _eigvalsh_rule)
eig_p = _define("eig", _eig_rule, multiple=True)
eigvals_p = _define("eigvals", _eigvals_rule)
svd_p = _define("svd", _svd_rule, multiple=True)
svdvals_p = _define("svdvals", _svdvals_rule, _linalg("svd", compute_uv=False))
qr_p = _define("qr", _qr_rule, _qr_kernel, multiple=True)
lstsq_p = _define("lstsq", _lstsq_rule, multiple=True)
pinv_p = _define("pinv", _pinv_rule, _pinv_kernel)


# -- handlers ----------------------------------------------------------------------------
@implements(np.linalg.inv)
def _inv(a):
    return bind(inv_p, operand(a))


@implements(np.linalg.det)
def _det(a):
    return bind(det_p, operand(a))


@implements(np.linalg.slogdet)
def _slogdet(a):
    return _results.SlogdetResult(*bind(slogdet_p, operand(a)))


@implements(np.linalg.cholesky)
def _cholesky(a, /, *, upper=False):
    return bind(cholesky_p, operand(a), **({"upper": True} if upper else {}))


@implements(np.linalg.solve)
def _solve(a, b):
    return bind(solve_p, operand(a), operand(b))


@implements(np.linalg.eigh)
def _eigh(a, UPLO="L"):
    return _results.EighResult(*bind(eigh_p, operand(a), UPLO=_uplo(UPLO)))


@implements(np.linalg.eigvalsh)
def _eigvalsh(a, UPLO="L"):
    return bind(eigvalsh_p, operand(a), UPLO=_uplo(UPLO))


def _complex_only(a, name: str):
    """`a` for `eig`/`eigvals`: complex, else a `TracingError` naming the ways out."""
    a = operand(a)
    _square(a)  # NumPy checks the shape first
    dtype = a.dtype
    if dtype.kind != "c":
        raise TracingError(
            f"numpy.linalg.{name} of a real ({dtype}) matrix returns a real array when every "
            f"eigenvalue is real and a complex one otherwise, a dtype that depends on the "
            f"values and that a graph cannot follow{location_note(user_source())}; use "
            f"np.linalg.{name}h(x) for a symmetric matrix, or np.linalg.{name}("
            f"x.astype(complex)) for NumPy's complex result")
    return a


@implements(np.linalg.eig)
def _eig(a):
    return _results.EigResult(*bind(eig_p, _complex_only(a, "eig")))


@implements(np.linalg.eigvals)
def _eigvals(a):
    return bind(eigvals_p, _complex_only(a, "eigvals"))


@implements(np.linalg.svd)
def _svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    a, hermitian = operand(a), bool(hermitian)
    if not compute_uv:
        return bind(svdvals_p, a, hermitian=hermitian)
    return _results.SVDResult(*bind(svd_p, a, full_matrices=bool(full_matrices),
                                    hermitian=hermitian))


@implements(np.linalg.qr)
def _qr(a, mode="reduced"):
    if mode not in ("reduced", "complete", "r", "raw", "full", "f", "economic", "e"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    if mode not in ("reduced", "complete", "r"):
        raise unsupported(f"numpy.linalg.qr(..., mode={mode!r})")
    outs = bind(qr_p, operand(a), mode=mode)
    return outs[0] if mode == "r" else _results.QRResult(*outs)


@implements(np.linalg.lstsq)
def _lstsq(a, b, rcond=None):
    return tuple(bind(lstsq_p, operand(a), operand(b), rcond=_float(rcond, "rcond")))


@implements(np.linalg.pinv)
def _pinv(a, rcond=None, hermitian=False, *, rtol=np._NoValue):
    if rcond is not None and rtol is not np._NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if rcond is None:
        rcond = 1e-15 if rtol is np._NoValue else rtol
    a = operand(a)
    if rcond is None and a.dtype.kind not in "fc":  # NumPy's finfo(a.dtype) of `rtol=None`
        raise ValueError(f"data type {a.dtype.type} not inexact")
    if a.dtype.kind not in "fc" and None in a.shape:  # NumPy's result for an empty int
        a = a.astype(float)  # matrix is int: where the size is unknown, float64 (as if not)
    return bind(pinv_p, a, rcond=_float(rcond, "rcond"), hermitian=bool(hermitian))


def _float(value, name):
    """A tolerance as a static Python float (None kept): a traced one is not supported."""
    if value is None:
        return None
    if hasattr(value, "aval") or np.ndim(value) != 0:
        raise unsupported(f"numpy.linalg(..., {name}=<an array or traced value>)")
    return float(value)


# -- CuPy: the parameters its linalg lacks ------------------------------------------------
def _cupy_cholesky(xp, upper=False):
    """CuPy's `cholesky` has no `upper`: U is L^H of the matrix read from the upper triangle."""
    if not upper:
        return xp.linalg.cholesky
    return lambda a: xp.swapaxes(
        xp.linalg.cholesky(xp.swapaxes(a, -1, -2).conj()), -1, -2).conj()


def _cupy_svd(xp, full_matrices=True, hermitian=False):
    """CuPy's `svd` has no `hermitian` (the plain SVD of a Hermitian matrix is one too)."""
    return lambda a: tuple(xp.linalg.svd(a, full_matrices=full_matrices))


def _cupy_pinv(xp, rcond=None, hermitian=False):
    """CuPy's `pinv` takes `rcond` only: NumPy's `rtol=None` default is computed."""
    def pinv(a):
        cutoff = max(a.shape[-2:]) * xp.finfo(a.dtype).eps if rcond is None else rcond
        return xp.linalg.pinv(a, rcond=cutoff)
    return pinv


CUPY_OVERRIDES.update({
    cholesky_p: _cupy_cholesky, svd_p: _cupy_svd, pinv_p: _cupy_pinv,
    svdvals_p: lambda xp, hermitian=False: functools.partial(xp.linalg.svd, compute_uv=False),
})
