"""Vector-Jacobian rules of the numbers and signals primitives: round, bincount
(in its weights), require_length (the identity), convolve, correlate and interp
(the statistics are compositions, differentiated through their parts).

`round` is piecewise constant: zero. `convolve` and `correlate` are linear in
each operand: a mode's result is a slice of the "full" result (at NumPy's
offset: `min(n_a, n_v) - 1` for "valid"; for "same" `(min - 1) // 2`, or
`min // 2` for a correlate whose `v` is the longer), so the cotangent is padded
back to the full length and correlated with the other operand ("full" needs
no padding, so it also works where lengths are unknown). `interp` is linear
between neighbouring samples: with `j` the segment of `x` and `t` its place in
it, the cotangent of `x` is `g` times the segment's slope (zero outside the
samples and where left/right replace the value), `fp` gets `g * (1 - t)` at `j`
and `g * t` at `j + 1`, and `xp` the derivative of the same line in its ends.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..errors import TracingError
from ..ops.comparisons import round_p
from ..ops.counting import bincount_p
from ..ops.differences import convolve_p, correlate_p, interp_p, require_length_p
from ..ops.introspection import dynamic_shape


def _round(g, out, x, *, decimals=0):
    return (None,)


# -- convolve, correlate -------------------------------------------------------------
def _offset(prim, mode, na, nv):
    if mode == "valid":
        return min(na, nv) - 1
    if prim is correlate_p and na < nv:
        return min(na, nv) // 2
    return (min(na, nv) - 1) // 2


def _full(prim, g, a, v, mode):
    """The cotangent of the full result, zeros where the mode cut it."""
    if mode == "full":
        return g
    na, nv = a.shape[0], v.shape[0]
    if None in (na, nv):
        raise TracingError(f"no gradient for np.{prim.name}(mode={mode!r}) of operands whose "
                           "lengths are unknown while tracing (mode='full' has one)")
    before = _offset(prim, mode, na, nv)
    after = na + nv - 1 - before - g.shape[0]
    return np.concatenate([np.zeros(before, g.dtype), g, np.zeros(after, g.dtype)])


def _convolve(g, out, a, v, *, mode="full"):
    full = _full(convolve_p, g, a, v, mode)
    return (np.correlate(full, v, "valid"), np.correlate(full, a, "valid"))


def _correlate(g, out, a, v, *, mode="valid"):
    """correlate(a, v, "full") is convolve(a, v[::-1], "full")."""
    full = _full(correlate_p, g, a, v, mode)
    return (np.correlate(full, v[::-1], "valid"), np.correlate(full, a, "valid")[::-1])


# -- interp ---------------------------------------------------------------------------
def _positions(like):
    """0, 1, ..., n - 1 for a 1-d `like` (a constant where its length is known)."""
    if like.shape[0] is not None:
        return np.arange(like.shape[0])
    return np.cumsum(np.ones_like(like, dtype=np.intp)) - 1


def _scatter(weights, index, like):
    """Sums `weights` into zeros shaped like the 1-d `like`, at `index`."""
    hits = np.equal(np.ravel(index)[:, None], _positions(like)[None, :])
    return np.sum(np.where(hits, np.ravel(weights)[:, None], 0.0), axis=0)


def _interp(g, out, x, xp, fp, *, left=None, right=None, period=None):
    if period is not None:
        raise TracingError("no gradient for np.interp(..., period=...)")
    last = dynamic_shape(xp)[0] - 1
    j = np.clip(np.searchsorted(xp, x, side="right") - 1, 0, np.maximum(last - 1, 0))
    x0, x1, f0, f1 = xp[j], xp[np.minimum(j + 1, last)], fp[j], fp[np.minimum(j + 1, last)]
    width = np.where(x1 == x0, 1.0, x1 - x0)
    t = (x - x0) / width
    slope = (f1 - f0) / width
    below, above = x < xp[0], x > xp[last]
    inside = ~(below | above)
    ct_x = np.where(inside, g * slope, 0.0)
    low = np.where(inside, 1.0 - t, np.where(below, 1.0 if left is None else 0.0, 0.0))
    high = np.where(inside, t, np.where(above, 1.0 if right is None else 0.0, 0.0))
    # outside the samples the value is fp[0] (j = 0, weight on j) or fp[-1] (on j + 1)
    low_index = np.where(above, np.minimum(j + 1, last), j)
    ct_fp = _scatter(g * np.where(above, high, low), low_index, fp) + _scatter(
        g * np.where(inside, high, 0.0), np.minimum(j + 1, last), fp)
    d_x0 = np.where(inside, g * slope * (t - 1.0), 0.0)
    d_x1 = np.where(inside, -g * slope * t, 0.0)
    ct_xp = _scatter(d_x0, j, xp) + _scatter(d_x1, np.minimum(j + 1, last), xp)
    return (ct_x, ct_xp, ct_fp)


def _bincount(g, out, x, *weights, minlength=0):
    """Linear in the weights: each weight's cotangent is that of its bin."""
    return (None, g[x]) if weights else (None,)


def _require_length(g, out, x, *, axis, minimum):
    return (g,)


for _prim, _rule in ((round_p, _round), (require_length_p, _require_length),
                     (bincount_p, _bincount), (convolve_p, _convolve),
                     (correlate_p, _correlate), (interp_p, _interp)):
    primitives.vjp_rules[_prim] = _rule
del _prim, _rule
