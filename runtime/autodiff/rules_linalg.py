"""Vector-Jacobian rules of the products: matmul, dot, tensordot, einsum, outer, inner.

Every product is an `einsum`, and so is each of its cotangents: operand i's
is the einsum of the result's cotangent with the other operands, onto
operand i's subscripts (letters summed away in operand i alone come back
by broadcasting). Matrix products of two matrices (the common case, and the
fast one) use `matmul` directly.
"""
from __future__ import annotations

import string

import numpy as np

from .. import primitives
from ..errors import TracingError
from ..ops import linalg
from .cotangents import broadcast_like, reshape_like


def _explicit(subscripts: str) -> tuple[list, str]:
    """The input terms and the output term of einsum subscripts (implicit form made explicit)."""
    lhs, arrow, out = subscripts.partition("->")
    terms = lhs.split(",")
    if not arrow:
        letters = "".join(t.replace("...", "") for t in terms)
        out = ("..." if "..." in lhs else "") + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1))
    return terms, out


def einsum_cotangents(subscripts: str, g, operands) -> list:
    """The cotangent of each operand of `np.einsum(subscripts, *operands)`."""
    terms, out = _explicit(subscripts)
    cts = []
    for i, (term, x) in enumerate(zip(terms, operands)):
        letters = term.replace("...", "")
        if len(set(letters)) != len(letters):
            raise TracingError(f"no gradient for einsum {subscripts!r}: operand {i} repeats a "
                               f"subscript (a diagonal)")
        others = [t for j, t in enumerate(terms) if j != i]
        present = set(out + "".join(others))
        kept = "".join(c for c in term if c in present or c == ".")
        if "..." not in term and "..." in out:  # broadcast dims: summed away by the caller
            kept = "..." + kept
        ct = np.einsum(",".join([out, *others]) + "->" + kept, g,
                       *[o for j, o in enumerate(operands) if j != i])
        missing = [k for k, c in enumerate(term.replace("...", "."))
                   if c != "." and c not in present]
        if missing:
            ct = broadcast_like(np.expand_dims(ct, tuple(_axis(term, x, k) for k in missing)), x)
        cts.append(ct)
    return cts


def _axis(term, x, k):
    """The axis of `x` that letter position k of `term` (with `...` as one '.') names."""
    compact = term.replace("...", ".")
    if "." not in compact[:k]:
        return k
    return k - 1 + x.ndim - (len(compact) - 1)


def _letters(n, start=0):
    return string.ascii_letters[start:start + n]


def _matmul(g, out, a, b, dtype=None):
    if a.ndim >= 2 and b.ndim >= 2:
        return g @ np.swapaxes(b, -1, -2), np.swapaxes(a, -1, -2) @ g
    ta = "k" if a.ndim == 1 else "...nk"
    tb = "k" if b.ndim == 1 else "...km"
    to = ("..." if "..." in ta + tb else "") + ("n" if a.ndim > 1 else "") + (
        "m" if b.ndim > 1 else "")
    return einsum_cotangents(f"{ta},{tb}->{to}", g, [a, b])


def _dot(g, out, a, b):
    if a.ndim == 0 or b.ndim == 0:
        return g * b, g * a
    if a.ndim == 2 and b.ndim == 2:
        return g @ b.T, a.T @ g
    ta = _letters(a.ndim - 1) + "z"
    free_b = _letters(b.ndim - 1, start=a.ndim - 1)
    tb = free_b[:-1] + "z" + free_b[-1:] if b.ndim > 1 else "z"
    to = ta[:-1] + tb.replace("z", "")
    return einsum_cotangents(f"{ta},{tb}->{to}", g, [a, b])


def _inner(g, out, a, b):
    if a.ndim == 0 or b.ndim == 0:
        return g * b, g * a
    ta, tb = _letters(a.ndim - 1) + "z", _letters(b.ndim - 1, start=a.ndim - 1) + "z"
    return einsum_cotangents(f"{ta},{tb}->{ta[:-1]}{tb[:-1]}", g, [a, b])


def _outer(g, out, a, b):
    ga, gb = einsum_cotangents("i,j->ij", g, [np.ravel(a), np.ravel(b)])
    return reshape_like(ga, a), reshape_like(gb, b)


def _tensordot(g, out, a, b, *, axes):
    ta = list(_letters(a.ndim))
    tb = list(_letters(b.ndim, start=a.ndim))
    for i, j in zip(*axes):
        tb[j] = ta[i]
    to = [c for k, c in enumerate(ta) if k not in axes[0]] + [
        c for k, c in enumerate(tb) if k not in axes[1]]
    return einsum_cotangents(f"{''.join(ta)},{''.join(tb)}->{''.join(to)}", g, [a, b])


def _einsum(g, out, *operands, subscripts, optimize=False, dtype=None):
    return einsum_cotangents(subscripts, g, operands)


primitives.vjp_rules.update({
    linalg.matmul_p: _matmul, linalg.dot_p: _dot, linalg.inner_p: _inner,
    linalg.outer_p: _outer, linalg.tensordot_p: _tensordot, linalg.einsum_p: _einsum,
})
