"""Vector-Jacobian rules of `np.linalg`: solve, inv, det, slogdet, cholesky, eigh,
eigvalsh, svd, svdvals, qr, pinv and lstsq (real matrices; complex values carry no
cotangent), written with NumPy on traced values so gradients differentiate again.

`cholesky`, `eigh`, `eigvalsh` and `svd(hermitian=True)` read one triangle of
their operand (the lower, or the upper for `upper=True` / `UPLO="U"`), as NumPy
does: the cotangent lands on that triangle (an off-diagonal entry stands for two entries of the
symmetric matrix, so it gets both shares) and the other triangle gets zero.
For a matrix built symmetric (`b @ b.T`) the gradient through it is the usual one.

Caveats, as in JAX: the eigenvector rule divides by differences of eigenvalues,
so it is infinite or NaN where eigenvalues repeat (eigenvalues alone are fine);
the singular-vector rule likewise where singular values repeat or are 0 (and
refuses `hermitian=True`, whose values alone have a rule). `det`'s
rule uses the inverse, so it raises `LinAlgError` at a singular matrix; `pinv`'s
holds where the rank does not change nearby, and so does `lstsq`'s (none through
its residuals). `qr`'s rule needs at least as many rows as columns (m >= n).
`eig` and `eigvals` have no rule (complex values carry no cotangent).
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..errors import TracingError
from ..ops import np_linalg as la
from ..ops.np_linalg_composed import eye_like, square_p, triangle


def _T(x):
    return np.swapaxes(x, -1, -2)


def _one_triangle(s, upper: bool):
    """The cotangent of a matrix of which only one triangle is read, from `s`, that of the
    symmetric matrix it stands for."""
    sym = (s + _T(s)) / 2
    return np.where(triangle(s, upper, diagonal=False), 2 * sym, 0) + sym * eye_like(s)


def _inv(g, out, a):
    return (-_T(out) @ g @ _T(out),)


def _det(g, out, a):
    return ((g * out)[..., None, None] * _T(np.linalg.inv(a)),)


def _slogdet(cts, outs, a):
    g_log = cts[1]
    return (None if g_log is None else g_log[..., None, None] * _T(np.linalg.inv(a)),)


def _solve(g, x, a, b):
    if b.ndim == 1:
        gb = np.linalg.solve(_T(a), g[..., None])[..., 0]
        return -gb[..., :, None] * x[..., None, :], gb
    gb = np.linalg.solve(_T(a), g)
    return -gb @ _T(x), gb


def _cholesky(g, out, a, upper=False):
    """Murray (2016): the cotangent of A from L's, L lower (U = L^T for `upper`)."""
    low, g = (_T(out), _T(g)) if upper else (out, g)
    p = _T(low) @ g
    phi = np.where(triangle(p, diagonal=False), p, 0) + p * eye_like(p) / 2
    s = np.linalg.solve(_T(low), _T(np.linalg.solve(_T(low), _T(phi))))  # L^-T phi L^-1
    return (_one_triangle(s, upper),)


def _eigen_inner(w, v, gw, gv):
    """V^T dA V's cotangent: diag(gw) + F * (V^T gv), F_ij = 1 / (w_j - w_i) off the diagonal."""
    eye = eye_like(v)
    inner = 0 if gw is None else gw[..., :, None] * eye
    if gv is not None:
        f = 1 / (w[..., None, :] - w[..., :, None] + eye) - eye
        inner = inner + f * (_T(v) @ gv)
    return inner


def _eigh(cts, outs, a, UPLO="L"):
    (w, v), (gw, gv) = outs, cts
    if gw is None and gv is None:
        return (None,)
    return (_one_triangle(v @ _eigen_inner(w, v, gw, gv) @ _T(v), UPLO == "U"),)


def _eigvalsh(g, w, a, UPLO="L"):
    v = np.linalg.eigh(a, UPLO=UPLO).eigenvectors
    return (_one_triangle((v * g[..., None, :]) @ _T(v), UPLO == "U"),)


def _values_only(a, gs, hermitian=False):
    """U diag(gs) V^T; with `hermitian`, NumPy's SVD of the lower triangle read symmetric
    (|eigenvalues|, so V^T is U^T times their signs)."""
    u, _, vh = np.linalg.svd(a, full_matrices=False, hermitian=hermitian)
    ga = (u * gs[..., None, :]) @ vh
    return _one_triangle(ga, upper=False) if hermitian else ga


def _svdvals(g, s, a, hermitian=False):
    return (_values_only(a, g, hermitian),)


def _svd(cts, outs, a, full_matrices=True, hermitian=False):
    """Townsend (2016), reduced SVD A = U S V^T with F_ij = 1 / (s_j^2 - s_i^2)."""
    (gu, gs, gvh), (u, s, vh) = cts, outs
    if gu is None and gvh is None:
        return (None if gs is None else _values_only(a, gs, hermitian),)
    if hermitian:
        raise TracingError("no gradient for the singular vectors of np.linalg.svd(..., "
                           "hermitian=True); use np.linalg.eigh for a symmetric matrix")
    m, n = a.shape[-2:]
    if full_matrices and (m is None or n is None or m != n):
        raise TracingError("no gradient for the singular vectors of np.linalg.svd(a) with "
                           "full_matrices=True unless a is known to be square (the extra "
                           "vectors are not unique); pass full_matrices=False")
    v, gv = _T(vh), None if gvh is None else _T(gvh)
    eye = eye_like(s[..., :, None] * s[..., None, :])  # k x k
    s2 = s * s
    f = 1 / (s2[..., None, :] - s2[..., :, None] + eye) - eye
    inner = 0 if gs is None else gs[..., :, None] * eye
    if gu is not None:
        ut_gu = _T(u) @ gu
        inner = inner + (f * (ut_gu - _T(ut_gu))) * s[..., None, :]
    if gv is not None:
        vt_gv = _T(v) @ gv
        inner = inner + s[..., :, None] * (f * (vt_gv - _T(vt_gv)))
    ga = u @ inner @ vh
    square = m is not None and m == n  # else the parts outside U's and V's spans count
    if gu is not None and not square:
        gu_s = gu / s[..., None, :]
        ga = ga + (gu_s - u @ (_T(u) @ gu_s)) @ vh
    if gv is not None and not square:
        gv_s = gv / s[..., None, :]
        ga = ga + u @ _T(gv_s - v @ (_T(v) @ gv_s))
    return (ga,)


def _qr(cts, outs, a, mode="reduced"):
    """PyTorch's `linalg_qr_backward` for m >= n: gA = (gQ + Q copyltu(M)) R^-T."""
    m, n = a.shape[-2:]
    if m is not None and n is not None and m < n:
        raise TracingError("no gradient for np.linalg.qr of a matrix with fewer rows than "
                           "columns (R is not square)")
    if mode == "r":
        (gr,), gq = cts, None
        q, r = np.linalg.qr(a)
    else:
        (gq, gr), (q, r) = cts, outs
        if mode == "complete" and m != n:
            raise TracingError("no gradient for np.linalg.qr(a, mode='complete') unless a is "
                               "known to be square; use mode='reduced'")
    if gq is None and gr is None:
        return (None,)
    mat = 0
    if gr is not None:
        mat = gr @ _T(r)
    if gq is not None:
        mat = mat - _T(q) @ gq
    mat = np.where(triangle(mat, upper=True), mat, 0)
    sym = mat + _T(mat) - mat * eye_like(mat)
    b = q @ sym if gq is None else q @ sym + gq
    return (_T(np.linalg.solve(r, _T(b))),)


def _pinv(g, p, a, rcond=None, hermitian=False):
    """Golub and Pereyra (1973), for a rank constant nearby."""
    gt, pt = _T(g), _T(p)
    term2 = gt @ (p @ pt)
    term3 = (pt @ p) @ gt
    return (-pt @ g @ pt + term2 - a @ (p @ term2) + term3 - (term3 @ p) @ a,)


def _lstsq(cts, outs, a, b, rcond=None):
    """x = pinv(a) @ b where the rank is constant nearby; s as `svd`'s; rank: none."""
    gx, g_residuals, _, gs = cts
    if g_residuals is not None:
        raise TracingError("no gradient through the residuals of np.linalg.lstsq (their "
                           "length depends on the rank); compute them as "
                           "np.sum((b - a @ x) ** 2, axis=0)")
    ga = gb = None
    if gx is not None:
        p = np.linalg.pinv(a, rtol=None) if rcond is None else np.linalg.pinv(a, rcond)
        vector = b.ndim == 1
        g_matrix = gx[:, None] if vector else gx
        ga = _pinv(g_matrix @ _T(b[:, None] if vector else b), p, a)[0]
        gb = _T(p) @ (gx if vector else g_matrix)
    if gs is not None:
        ga = _values_only(a, gs) if ga is None else ga + _values_only(a, gs)
    return ga, gb


primitives.vjp_rules.update({
    la.inv_p: _inv, la.det_p: _det, la.slogdet_p: _slogdet, la.solve_p: _solve,
    la.cholesky_p: _cholesky, la.eigh_p: _eigh, la.eigvalsh_p: _eigvalsh,
    la.svdvals_p: _svdvals, la.svd_p: _svd, la.qr_p: _qr, la.pinv_p: _pinv,
    la.lstsq_p: _lstsq, square_p: lambda g, out, a: (g,),
})
