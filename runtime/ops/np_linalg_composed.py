"""`np.linalg` functions written over other primitives, as NumPy writes them.

`norm` (every `ord`, `axis` and `keepdims` NumPy accepts: sums, maxima and
square roots, and `svdvals` for `ord` 2, -2 and "nuc"), the array API's
`matrix_norm`, `vector_norm` (any tuple of axes) and `svdvals`, `matrix_rank`
(`svdvals` and a comparison), `matrix_power` (repeated `matmul`, `inv` first for
a negative power) and `multi_dot` (`dot` in NumPy's cheapest order). Each
follows NumPy's own code step by step, so results, dtypes and errors are
NumPy's, and gradients come from the parts. Where a dimension is unknown,
`multi_dot` multiplies left to right (the order changes only the rounding).

`matrix_power` of a matrix whose last two dimensions are unknown checks them
first (`linalg_square`: a copy, or NumPy's `LinAlgError` when the graph runs).
`matrix_rank` of a vector (NumPy returns a Python int) is a 0-d intp array.
`eye_like(x)` and `triangle(x, upper)` (masks of a stack of matrices, known or
unknown dimensions) serve the gradient rules too.
"""
from __future__ import annotations

import operator
import types

import numpy as np
from numpy.linalg import LinAlgError
from numpy.linalg._linalg import _multi_dot_matrix_chain_order as _chain_order  # shapes only

from .. import primitives
from ..abstract import normalize_axis
from ..dispatch import implements, unsupported
from ..errors import TracingError
from ..source import location_note, user_source
from ..tracer import Tracer, bind
from ._rules import aval
from .control_flow import cond
from .introspection import dynamic_shape
from .shape_ops import operand
from .while_loop import while_loop


# -- masks -------------------------------------------------------------------------------
def _positions(x):
    """The row and column numbers of each element of a stack of matrices (intp)."""
    ones = np.ones_like(x, dtype=np.intp)
    return np.cumsum(ones, axis=-2), np.cumsum(ones, axis=-1)


def eye_like(x, dtype=None):
    """The identity matrix, broadcast over `x`'s shape (square matrices), in `dtype`."""
    rows, cols = _positions(x)
    return (rows == cols).astype(dtype or x.dtype)


def triangle(x, upper: bool = False, diagonal: bool = True):
    """A bool mask of the lower (or `upper`) triangle of `x`'s matrices."""
    rows, cols = _positions(x)
    if upper:
        return rows <= cols if diagonal else rows < cols
    return rows >= cols if diagonal else rows > cols


# -- norm --------------------------------------------------------------------------------
def _max0(x, axis, keepdims=False):
    """`x.max(axis=axis, keepdims=keepdims, initial=0)` of values >= 0 (NaN kept); `axis`
    an int or a tuple of non-negative ints (reduced one by one)."""
    if isinstance(axis, tuple):
        for a in sorted(axis, reverse=True):
            x = _max0(x, a, keepdims)
        return x
    if x.shape[axis] in (None, 0):  # may be empty: a 0 to compare with
        x = np.concatenate([x, np.zeros_like(np.sum(x, axis=axis, keepdims=True))], axis=axis)
    return np.max(x, axis=axis, keepdims=keepdims)


def _sum_of_squares(x, axis, keepdims=False):
    return np.add.reduce((x.conj() * x).real, axis=axis, keepdims=keepdims)


def _vector_norm(x, ord, axis, keepdims):
    if ord == np.inf:
        return _max0(abs(x), axis, keepdims)
    if ord == -np.inf:
        return abs(x).min(axis=axis, keepdims=keepdims)
    if ord == 0:
        return (x != 0).astype(x.real.dtype).sum(axis=axis, keepdims=keepdims)
    if ord == 1:
        return np.add.reduce(abs(x), axis=axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return np.sqrt(_sum_of_squares(x, axis, keepdims))
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    absx = abs(x)
    absx = (absx ** ord).astype(absx.dtype)  # NumPy's `absx **= ord`
    total = np.add.reduce(absx, axis=axis, keepdims=keepdims)
    return total ** np.reciprocal(ord, dtype=total.dtype)


def _singular_values(x, row, col):
    return np.linalg.svd(np.moveaxis(x, (row, col), (-2, -1)), compute_uv=False)


def _matrix_norm(x, ord, row, col):
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord == 2:
        return _max0(_singular_values(x, row, col), -1)
    if ord == -2:
        return np.min(_singular_values(x, row, col), axis=-1)
    if ord == "nuc":
        return np.sum(_singular_values(x, row, col), axis=-1)
    if ord in (None, "fro", "f"):
        return np.sqrt(_sum_of_squares(x, (row, col)))
    if ord in (1, -1):  # the largest (smallest) column sum
        col -= col > row
        sums = np.add.reduce(abs(x), axis=row)
        return _max0(sums, col) if ord == 1 else sums.min(axis=col)
    if ord in (np.inf, -np.inf):  # the largest (smallest) row sum
        row -= row > col
        sums = np.add.reduce(abs(x), axis=col)
        return _max0(sums, row) if ord == np.inf else sums.min(axis=row)
    raise ValueError("Invalid norm order for matrices.")


def _axes(axis, nd):
    if axis is None:
        return tuple(range(nd))
    if isinstance(axis, tuple):
        return tuple(normalize_axis(a, nd) for a in axis)
    try:
        axis = int(axis)
    except Exception as e:
        raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
    return (normalize_axis(axis, nd),)


@implements(np.linalg.norm)
def _norm(x, ord=None, axis=None, keepdims=False):
    x = operand(x)
    if x.dtype.kind not in "fc":
        x = x.astype(float)
    nd = x.ndim
    if axis is None and (ord is None or (ord in ("f", "fro") and nd == 2)
                         or (ord == 2 and nd == 1)):
        flat = x.ravel()
        if x.dtype.kind == "c":
            squares = np.dot(flat.real, flat.real) + np.dot(flat.imag, flat.imag)
        else:
            squares = np.dot(flat, flat)
        result = np.sqrt(squares)
        return result.reshape((1,) * nd) if keepdims else result
    axes = _axes(axis, nd)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes, keepdims)
    if len(axes) != 2:
        raise ValueError("Improper number of dimensions to norm.")
    result = _matrix_norm(x, ord, *axes)
    return np.expand_dims(result, tuple(sorted(axes))) if keepdims else result


@implements(np.linalg.matrix_norm)
def _matrix_norm_fn(x, /, *, keepdims=False, ord="fro"):
    return _norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)


@implements(np.linalg.vector_norm)
def _vector_norm_fn(x, /, *, axis=None, keepdims=False, ord=2):
    """NumPy's flattens the axes of a tuple into one: here each reduction takes them all."""
    x = operand(x)
    if not isinstance(axis, tuple):
        result = _norm(x.ravel() if axis is None else x, axis=0 if axis is None else axis,
                       ord=ord)
        if keepdims:
            result = np.expand_dims(result, _axes(axis, x.ndim))
        return result
    axes = tuple(normalize_axis(a, x.ndim) for a in axis)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    if x.dtype.kind not in "fc":
        x = x.astype(float)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    return _vector_norm(x, ord, axes, keepdims)


@implements(np.linalg.svdvals)
def _svdvals(x, /):
    return np.linalg.svd(x, compute_uv=False, hermitian=False)


# -- matrix_rank, matrix_power, multi_dot -----------------------------------------------
def _square_kernel(xp):
    def square(a):
        if a.shape[-2] != a.shape[-1]:
            raise LinAlgError("Last 2 dimensions of the array must be square")
        return a.copy()
    return square


square_p = primitives.define("linalg_square", lambda a: aval(a.aval.shape, a.aval.dtype),
                             _square_kernel)


def _array(x):
    return x if isinstance(x, Tracer) else np.asarray(x)


@implements(np.linalg.matrix_rank)
def _matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = operand(A)
    if A.ndim < 2:
        return np.any(A != 0).astype(np.intp)
    S = np.linalg.svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            m, n = A.shape[-2:]
            size = max(m, n) if None not in (m, n) else np.maximum(
                *dynamic_shape(A)[-2:]).astype(S.dtype)
            rtol = size * np.finfo(S.dtype).eps
        else:
            rtol = _array(rtol)[..., np.newaxis]
        tol = _max0(S, -1, keepdims=True) * rtol
    else:
        tol = _array(tol)[..., np.newaxis]
    return np.sum(S > tol, axis=-1, dtype=np.intp)


@implements(np.linalg.matrix_power)
def _matrix_power(a, n):
    a = operand(a)
    shape = a.shape
    if len(shape) < 2:
        raise LinAlgError(f"{len(shape)}-dimensional array given. Array must be at least "
                          f"two-dimensional")
    if None not in shape[-2:] and shape[-2] != shape[-1]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    if None in shape[-2:]:  # NumPy's check, when the graph runs
        a = bind(square_p, a)
    if isinstance(n, Tracer):
        return _traced_power(a, n)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        return eye_like(a)
    if n < 0:
        a, n = np.linalg.inv(a), -n
    if n <= 3:
        result = a
        for _ in range(n - 1):
            result = np.matmul(result, a)
        return result
    z = result = None
    while n > 0:  # NumPy's binary decomposition, bit by bit from the lowest
        z = a if z is None else np.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else np.matmul(result, z)
    return result


def _traced_power(a, n):
    """`matrix_power(a, n)` for an `n` known when the graph runs, by NumPy's steps: `inv`
    for a negative power (a staged `if`), the identity for 0, `(a @ a) @ a` for 3, else
    the binary decomposition (a staged loop: `z = z @ z` per bit, `result @ z` where set)."""
    if n.ndim or n.dtype.kind not in "iu":
        raise TypeError("exponent must be an integer")
    if a.dtype.kind not in "fc":
        raise TracingError(
            f"matrix_power of a {a.dtype} matrix by a power known only when the graph runs"
            f"{location_note(user_source())}: a negative power gives float64 (`inv`), another "
            f"the matrix's own dtype; pass `a.astype(float)`, or a constant power")
    a = cond(n < 0, np.linalg.inv, lambda a: a, a)
    k = np.abs(n)

    def step(state):
        z, result, k, first, started = state
        z = cond(first, lambda z: z, lambda z: np.matmul(z, z), z)
        bit = k % 2 == 1
        result = cond(bit, lambda r, z: cond(started, np.matmul, lambda r, z: z, r, z),
                      lambda r, z: r, result, z)
        return z, result, k // 2, np.False_, started | bit

    def binary(a, k):
        return while_loop(lambda state: state[2] > 0, step,
                          (a, eye_like(a), k, np.True_, np.False_))[1]

    return cond(k == 0, lambda a, k: eye_like(a), lambda a, k: cond(
        k == 3, lambda a, k: np.matmul(np.matmul(a, a), a), binary, a, k), a, k)


def _chain(arrays, order, i, j):
    if i == j:
        return arrays[i]
    return np.dot(_chain(arrays, order, i, order[i, j]), _chain(arrays, order, order[i, j] + 1, j))


def _cheapest_product(arrays):
    """NumPy's `multi_dot` order of products (left to right where a size is unknown)."""
    shapes = [a.shape for a in arrays]
    if any(None in s for s in shapes):
        result = arrays[0]
        for b in arrays[1:]:
            result = np.dot(result, b)
        return result
    if len(arrays) == 3:
        (a0, a1b0), (b1c0, c1) = shapes[0], shapes[2]
        a, b, c = arrays
        if a0 * b1c0 * (a1b0 + c1) < a1b0 * c1 * (a0 + b1c0):
            return np.dot(np.dot(a, b), c)
        return np.dot(a, np.dot(b, c))
    order = _chain_order([types.SimpleNamespace(shape=s) for s in shapes])
    return _chain(arrays, order, 0, len(arrays) - 1)


@implements(np.linalg.multi_dot)
def _multi_dot(arrays, *, out=None):
    if out is not None:
        raise unsupported("numpy.linalg.multi_dot(..., out=...)")
    arrays = [operand(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    if len(arrays) == 2:
        return np.dot(*arrays)
    first, last = arrays[0].ndim, arrays[-1].ndim
    if first == 1:
        arrays[0] = arrays[0][np.newaxis, :]
    if last == 1:
        arrays[-1] = arrays[-1][:, np.newaxis]
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    result = _cheapest_product(arrays)
    if first == 1 and last == 1:
        return result[0, 0]
    return result.ravel() if first == 1 or last == 1 else result
