"""Diagonals: diagonal, diag, trace, triu, tril and fill_diagonal.

Two primitives: `diagonal[offset, axis1, axis2]` (NumPy's read-only view: a
write through it raises NumPy's `ValueError`, and it follows writes to its
base) and `diag[k]` (a 1-d array onto the k-th diagonal of a square matrix);
`diagonal_scatter`, the diagonal's cotangent, lives in
runtime/autodiff/rules_building.py. Handlers serve `np.diagonal` and
`x.diagonal()`, `np.diag` (1-d to 2-d and 2-d to 1-d), `np.trace` and
`x.trace()` (a sum of the diagonal, NumPy's dtype); `np.diag` of a matrix is
its `diagonal` (read-only, as NumPy's), `np.triu`/`np.tril` (a
`where` on a triangle mask: a constant where the dims are known) and
`np.fill_diagonal`, which NumPy does in place: on a traced array it is an
`index_update` (unknown dims: a `where`) the array then holds (`write_in_place`).

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as b:
...     x = b.new_input(AbstractValue((None, 3), np.float64), "x")
...     d = np.diagonal(x, 1)
>>> print(b.build([d]))
graph f(x:f64[?,3]) {
  t0:f64[?] = diagonal[offset=1, axis1=0, axis2=1] x
  return t0
}
"""
from __future__ import annotations

import functools
import math

import numpy as np

from .. import primitives, views
from ..abstract import normalize_axis
from ..dispatch import implements, unsupported
from ..errors import TracingError
from ..tracer import bind
from ..tracer_value import tracer_method, write_in_place
from ._rules import aval
from .building import arange_along, array, shape_of
from .introspection import dynamic_shape
from .shape_ops import fmt_shape, ndim
from .updates import _cast_value, index_update


def diagonal_length(n1, n2, offset):
    """The length of the offset diagonal of an n1 x n2 matrix (None if unknown)."""
    if offset >= 0:
        rows, cols = n1, None if n2 is None else max(n2 - offset, 0)
    else:
        rows, cols = None if n1 is None else max(n1 + offset, 0), n2
    if rows == 0 or cols == 0:
        return 0
    return None if rows is None or cols is None else min(rows, cols)


def _diagonal_rule(x, *, offset, axis1, axis2):
    shape = x.aval.shape
    rest = tuple(d for i, d in enumerate(shape) if i not in (axis1, axis2))
    return aval(rest + (diagonal_length(shape[axis1], shape[axis2], offset),), x.aval.dtype)


def _diag_rule(v, *, k):
    n = v.aval.shape[0]
    return aval((None if n is None else n + abs(k),) * 2, v.aval.dtype)


diagonal_p = primitives.define(
    "diagonal", _diagonal_rule,
    lambda xp, offset, axis1, axis2: functools.partial(
        xp.diagonal, offset=offset, axis1=axis1, axis2=axis2), views=True)
diag_p = primitives.define("diag", _diag_rule, lambda xp, k: functools.partial(xp.diag, k=k))


def _read_only(base, value):
    raise ValueError("assignment destination is read-only")  # NumPy's words for the view


def _diagonal_view(x, *, offset, axis1, axis2):
    """NumPy's diagonal is a read-only view: it follows its base; writing it raises."""
    return (lambda base: bind(diagonal_p, base, offset=offset, axis1=axis1, axis2=axis2),
            _read_only, False)


views.view_rules[diagonal_p] = _diagonal_view


@implements(np.diagonal)
def diagonal(a, offset=0, axis1=0, axis2=1):
    a = array(a)
    nd = ndim(a)
    if nd < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    axis1, axis2 = normalize_axis(axis1, nd), normalize_axis(axis2, nd)
    if axis1 == axis2:
        raise ValueError("axis1 and axis2 cannot be the same")
    return bind(diagonal_p, a, offset=int(offset), axis1=axis1, axis2=axis2)


@tracer_method("diagonal")
def _diagonal_method(self, offset=0, axis1=0, axis2=1):
    return diagonal(self, offset, axis1, axis2)


@implements(np.diag)
def _diag(v, k=0):
    v = array(v)
    if ndim(v) == 1:
        return bind(diag_p, v, k=int(k))
    if ndim(v) == 2:
        return diagonal(v, k)  # NumPy's diag of a matrix: its read-only diagonal view
    raise ValueError("Input must be 1- or 2-d.")


@implements(np.trace)
def _trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    if out is not None:
        raise unsupported("numpy.trace(..., out=...)")
    return np.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


@tracer_method("trace")
def _trace_method(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return _trace(self, offset, axis1, axis2, dtype, out)


# -- triangles ------------------------------------------------------------------
def _triangle(m, k, lower):
    m = array(m)
    if ndim(m) == 0:
        raise TypeError("tri() missing 1 required positional argument: 'N'")  # as NumPy
    k = int(k)
    rows, cols = (m, -2 if ndim(m) > 1 else -1), (m, -1)
    n, p = shape_of(m)[rows[1]], shape_of(m)[-1]
    if n is not None and p is not None:
        mask = np.tri(n, p, k, dtype=bool)
        mask = mask if lower else ~np.tri(n, p, k - 1, dtype=bool)
    else:
        i = arange_along(*rows)[:, None]
        j = arange_along(*cols)[None, :]
        mask = j <= i + k if lower else j >= i + k
    return np.where(mask, m, np.zeros(1, m.dtype))


@implements(np.tril)
def _tril(m, k=0):
    return _triangle(m, k, lower=True)


@implements(np.triu)
def _triu(m, k=0):
    return _triangle(m, k, lower=False)


# -- fill_diagonal: NumPy writes in place -----------------------------------------
@implements(np.fill_diagonal)
def _fill_diagonal(a, val, wrap=False):
    shape = shape_of(a)
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shape) > 2 and len({d for d in shape if d is not None}) > 1:
        raise ValueError("All dimensions of input must be of equal length")
    val = array(val)
    if None in shape:
        written = _fill_unknown(a, val, wrap)
    else:
        written = _fill_known(a, val, shape, wrap)
    write_in_place(a, written, "fill_diagonal")


def _fill_known(a, val, shape, wrap):
    """NumPy's `a.flat[:end:step] = val` as an index_update at constant indices."""
    size = int(np.prod(shape))
    if len(shape) == 2:
        step = shape[1] + 1
        end = size if wrap else shape[1] * shape[1]
    else:
        step = 1 + int(np.cumprod(shape[:-1]).sum())
        end = size
    flat = np.arange(0, min(end, size), step)
    return index_update(a, np.unravel_index(flat, shape), _cycled(val, len(flat)))


def _count(val):
    """The number of values: traced where their shape is unknown."""
    shape = shape_of(val)
    return dynamic_shape(np.ravel(val))[0] if None in shape else math.prod(shape)


def _cycled(val, n):
    """`val` flattened and repeated to n values, as `a.flat[...] = val` repeats it."""
    if ndim(val) == 0:
        return val
    count = _count(val)
    if count == 0:
        return np.ravel(val)  # NumPy writes nothing; a mismatch is NumPy's error
    return np.ravel(val)[np.arange(n) % count]


def _fill_unknown(a, val, wrap):
    """A matrix of unknown dims: NumPy's flat positions `0, m+1, 2(m+1), ...` (m columns;
    below `m*m` unless `wrap`) as a `where` mask, val cycled along them."""
    if ndim(a) != 2:
        raise TracingError(
            f"np.fill_diagonal on an array of shape {fmt_shape(shape_of(a))}: for more than "
            "two dimensions all must be known (NumPy requires them equal)")
    m = dynamic_shape(a)[1]
    flat = arange_along(a, 0)[:, None] * m + arange_along(a, 1)[None, :]
    on = np.mod(flat, m + 1) == 0
    if not wrap:
        on = on & (flat < m * m)
    val = _cast_value(a, val)
    if ndim(val):
        val = np.ravel(val)[np.mod(flat // (m + 1), _count(val))]
    return np.where(on, val, a)
