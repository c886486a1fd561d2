"""The primitive table: every NumPy operation a traced function may use, against NumPy.

Each row is a function and its arguments (`A`: an array made per dtype); each
runs over float32, float64, int32, int64, bool, int8, uint8 and complex128
(`ALL_DTYPES`), with known and with unknown dimensions, through `oracle.check_row`. Elementwise ufuncs and operators have
their own table in `test_ops_table_ufuncs.py`; `test_every_primitive_and_function_has_a_row`
covers both.
"""
from __future__ import annotations

import functools

import numpy as np
import pytest
import oracle
from oracle import ALL_DTYPES, A, S, cases, check_row, trace_rows
from test_ops_table_building import BUILDING_ROWS
from test_ops_table_sizes import SIZES_ROWS
from test_ops_table_linalg import LINALG_ROWS
from test_ops_table_methods import METHODS_ROWS
from test_ops_table_more import MORE_ROWS
from test_ops_table_numbers import NUMBERS_ROWS
from test_ops_table_ufuncs import OPERATOR_ROWS, UFUNC_ROWS

import autograph as ag
import autograph_runtime as runtime
from autograph_runtime import primitives
from autograph_runtime.autodiff import stack
from autograph_runtime.autodiff.cotangents import reshape_like_p, sum_to_shape_p
from autograph_runtime.autodiff.rules_indexing import scatter_add_p
from autograph_runtime.executor import Executor
from autograph_runtime.ops import effects

def Row(*args, dtypes=ALL_DTYPES, **kwargs):   # noqa: N802 - oracle.Row over every dtype
    return oracle.Row(*args, dtypes=dtypes, **kwargs)


X, Y, V = A((2, 3)), A((2, 3)), A((3,))       # matrices and a row vector
X3, X4 = A((2, 3, 4)), A((2, 3, 2, 3))
IDX = A((2,), lo=0, hi=2, dtype="int64")       # a traced integer index array
I0 = S(lo=-2, hi=1, dtype="int64")             # a traced scalar index
I1 = S(lo=2, hi=3, dtype="int64")
MASK = A((2, 3), dtype="bool")
PRED = S(dtype="bool")
C_LEFT = np.arange(1, 4)                      # a NumPy constant


def _written(x, index, value):
    y = x.copy()
    y[index] = value
    return y


# -- indexing ----------------------------------------------------------------------------
INDEXING = [
    Row("x[1]", lambda x: x[1]), Row("x[-1,2]", lambda x: x[-1, 2]),
    Row("x[1:]", lambda x: x[1:]), Row("x[:,1]", lambda x: x[:, 1]),
    Row("x[...,0]", lambda x: x[..., 0], (X3,)), Row("x[None,1:3]", lambda x: x[None, 1:3]),
    Row("x[::2,::-1]", lambda x: x[::2, ::-1], (X3,)), Row("x[()]", lambda x: x[()]),
    Row("x[1,None,:,-2:]", lambda x: x[1, None, :, -2:], (X3,)),
    Row("x[5]", lambda x: x[5], error=True), Row("x[0,0,0]", lambda x: x[0, 0, 0], error=True),
    Row("x[[0,1,0]]", lambda x: x[[0, 1, 0]]),
    Row("x[:,ndarray]", lambda x: x[:, np.array([2, 0])]),
    Row("x[idx]", lambda x, i: x[i], (X, IDX)), Row("x[:,idx]", lambda x, i: x[:, i], (X, IDX)),
    Row("x[idx,idx]", lambda x, i: x[i, i], (X, IDX)),
    Row("x[idx,:,idx]", lambda x, i: x[i, :, i], (X3, IDX)),
    Row("x[1,:,idx]", lambda x, i: x[1, :, i], (X3, IDX)),
    Row("x[:,idx,...,idx]", lambda x, i: x[:, i, ..., i], (A((3, 3, 4)), IDX)),
    Row("x[:,idx,:,idx]", lambda x, i: x[:, i, :, i], (X4, IDX)),
    Row("x[:,idx,idx]", lambda x, i: x[:, i, i], (X4, IDX)),
    Row("x[int64(1)]", lambda x: x[np.int64(1)]), Row("x[int64(1):]", lambda x: x[np.int64(1):]),
    Row("x[[True,False]]", lambda x: x[[True, False]]), Row("x[...,None]", lambda x: x[..., None]),
    Row("x[[]]", lambda x: x[[]]), Row("x[1.0:]", lambda x: x[1.0:], error=True),
    Row("x[f:]", lambda x, f: x[f:], (X, S(dtype="float64")), error=True),
    Row("x[i,j](mismatch)", lambda x: x[[0, 1], [0, 1, 2]], (A((3, 3)),), error=True),
    Row("x[idx2d]", lambda x, i: x[i], (X, A((2, 2), lo=-2, hi=1, dtype="int64"))),
    Row("x[x>0]", lambda x: x[x > 0], dynamic=True),
    Row("x[mask]", lambda x, m: x[m], (X, MASK), dynamic=True),
    Row("x[:,vmask]", lambda x, m: x[:, m], (X, A((3,), dtype="bool")), dynamic=True),
    Row("x[ndmask]", lambda x: x[np.array([True, False])]),
    Row("x[True]", lambda x: x[True], dynamic=True),
    Row("x[i]", lambda x, i: x[i], (X, I0)), Row("x[i,1:]", lambda x, i: x[i, 1:], (X, I0)),
    Row("x[i:j]", lambda x, i, j: x[i:j], (X, I0, I1), dynamic=True),
    Row("x[:,i:]", lambda x, i: x[:, i:], (X, I0), dynamic=True),
    Row("x[::k]", lambda x, k: x[::k], (X, S(lo=1, hi=2, dtype="int64")), dynamic=True),
    Row("take(x,idx,axis=1)", lambda x, i: np.take(x, i, axis=1), (X, IDX)),
    Row("take(x,idx)", lambda x, i: np.take(x, i), (X, IDX)),
    Row("take(x,[0,2],axis=-1)", lambda x: np.take(x, [0, 2], axis=-1)),
    Row("take(wrap)", lambda x, i: np.take(x, i * 7 - 9, axis=1, mode="wrap"), (X, IDX)),
    Row("take(clip)", lambda x, i: np.take(x, i * 7 - 9, mode="clip"), (X, IDX)),
    Row("take(clip,empty)", lambda x: np.take(x[:, :0], [1], axis=1, mode="clip"), error=True),
    Row("take(mode=bad)", lambda x: np.take(x, [1], mode="bad"), error=True),
    # item writes (`index_update`): y = x.copy(); y[index] = value
    Row("x[1]=v", lambda x, v: _written(x, 1, v), (X, V)),
    Row("x[:,0]=1", lambda x: _written(x, (slice(None), 0), 1)),
    Row("x[...,::2]=x[...,:1]", lambda x: _written(x, (..., slice(None, None, 2)), x[..., :1]),
        (X3,)),
    Row("x[idx]=v", lambda x, i, v: _written(x, i, v), (X, IDX, V)),
    Row("x[:,[0,0]]=x[:,:2]", lambda x: _written(x, (slice(None), [0, 0]), x[:, :2])),
    Row("x[mask]=0", lambda x, m: _written(x, m, 0), (X, MASK)),
    Row("x[i:j]=v", lambda x, i, j, v: _written(x, slice(i, j), v), (X, I0, I1, V)),
    Row("x[i,None]=v", lambda x, i, v: _written(x, (i, None), v), (X, I0, V)),
    Row("x[0]=ones(4)", lambda x: _written(x, 0, np.ones(4)), error=True),
    Row("x[0,:2]=x", lambda x: _written(x, (0, slice(None, 2)), x), error=True),
]

# -- attributes and methods -------------------------------------------------------------------
METHODS = [
    Row(".shape", lambda x: x.shape), Row(".dtype", lambda x: x.dtype),
    Row(".real", lambda x: x.real), Row(".imag", lambda x: x.imag),
    Row("np.real", np.real), Row("np.imag", np.imag),
    Row(".conjugate()", lambda x: x.conjugate()), Row(".conj()", lambda x: x.conj()),
    Row(".ndim", lambda x: x.ndim), Row(".T", lambda x: x.T, (X3,)),
    Row("len(x)", len, unknown=ag.TracingError), Row("len(0d)", len, (S(),), error=True),
    Row("list(x)", list, unknown=ag.TracingError),
    Row("np.ndim", np.ndim), Row("np.shape", np.shape),
    Row("np.size", np.size, unknown=ag.TracingError),
    Row(".reshape(3,2)", lambda x: x.reshape(3, 2)),
    Row(".reshape((-1,))", lambda x: x.reshape((-1,))),
    Row(".reshape(4,-1)", lambda x: x.reshape(4, -1), (X3,)),
    Row(".reshape(4,4)", lambda x: x.reshape(4, 4), error=True),
    *(Row(f".astype({t})", lambda x, t=t: x.astype(t))
      for t in ("float32", "float64", "int32", "int64", "bool")),
    Row(".sum()", lambda x: x.sum()), Row(".mean(0)", lambda x: x.mean(0)),
    Row(".max(1)", lambda x: x.max(axis=1)),
    Row(".min(keepdims)", lambda x: x.min(0, keepdims=True)),
    Row(".min(0,True)", lambda x: x.min(0, True), error=True),
    Row(".prod()", lambda x: x.prod()), Row(".argmax()", lambda x: x.argmax()),
    Row(".argmin(1)", lambda x: x.argmin(axis=1)), Row(".any()", lambda x: x.any()),
    Row(".all(0)", lambda x: x.all(axis=0)), Row(".std()", lambda x: x.std()),
    Row(".var(ddof=1)", lambda x: x.var(ddof=1)), Row(".cumsum()", lambda x: x.cumsum()),
    Row(".cumprod(1)", lambda x: x.cumprod(axis=1)), Row(".clip", lambda x: x.clip(-1, 1)),
    Row(".dot", lambda x, y: x.dot(y), (X, V)), Row(".argsort", lambda x: x.argsort()),
    Row(".copy", lambda x: x.copy()), Row(".ravel", lambda x: x.ravel()),
    Row(".flatten", lambda x: x.flatten()),
    Row(".squeeze", lambda x: x.squeeze(), (A((1, 3)),), unknown=ag.TracingError),
    Row(".transpose()", lambda x: x.transpose()),
    Row(".transpose(1,2,0)", lambda x: x.transpose(1, 2, 0), (X3,)),
]

# -- reductions ---------------------------------------------------------------------------
REDUCTIONS = [
    Row(f"{f.__name__}(axis={axis},keepdims={k})",
        lambda x, f=f, axis=axis, k=k: f(x, axis=axis, keepdims=k), (X3,))
    for f in (np.sum, np.prod, np.mean, np.std, np.var, np.max, np.min, np.any, np.all)
    for axis in (None, 1, -1, (0, 2), ()) for k in (False, True)
] + [
    Row(f"{f.__name__}(axis={axis},keepdims={k})",
        lambda x, f=f, axis=axis, k=k: f(x, axis=axis, keepdims=k), (X3,))
    for f in (np.argmax, np.argmin) for axis in (None, 1, -1) for k in (False, True)
] + [
    Row("sum(0d)", np.sum, (S(),)), Row("max(0d,axis=0)", lambda x: np.max(x, axis=0), (S(),)),
    Row("sum(dtype=float64)", lambda x: np.sum(x, dtype=np.float64)),
    Row("mean(dtype=float32)", lambda x: np.mean(x, axis=1, dtype=np.float32)),
    Row("std(ddof=1)", lambda x: np.std(x, axis=0, ddof=1)),
    Row("var(correction=1)", lambda x: np.var(x, correction=1)),
    Row("max(axis=3)", lambda x: np.max(x, axis=3), (X3,), error=True),
    Row("max(empty)", lambda x: np.max(x[:0], axis=0), error=True),
    Row("amax", lambda x: np.amax(x, axis=1)), Row("amin", lambda x: np.amin(x, axis=0)),
    Row("argmax(axis=(0,1))", lambda x: np.argmax(x, axis=(0, 1)), error=True),
    Row("add.reduce", np.add.reduce, (X3,)),
    Row("add.reduce(axis=(0,2),keepdims)", lambda x: np.add.reduce(x, (0, 2), keepdims=True),
        (X3,)),
    Row("add.reduce(dtype)", lambda x: np.add.reduce(x, axis=None, dtype=np.float64)),
    Row("multiply.reduce(axis=-1)", lambda x: np.multiply.reduce(x, axis=-1)),
    Row("maximum.reduce(axis=None)", lambda x: np.maximum.reduce(x, axis=None)),
    Row("minimum.reduce", np.minimum.reduce), Row("logical_and.reduce", np.logical_and.reduce),
    Row("logical_or.reduce(axis=1)", lambda x: np.logical_or.reduce(x, axis=1)),
    Row("add.accumulate", np.add.accumulate),
    Row("multiply.accumulate(axis=1)", lambda x: np.multiply.accumulate(x, axis=1)),
    Row("add.accumulate(1d,axis=None)", lambda x: np.add.accumulate(x, axis=None), (V,)),
    *(Row(f"{f.__name__}(axis={axis})", lambda x, f=f, axis=axis: f(x, axis=axis), (X3,))
      for f in (np.cumsum, np.cumprod) for axis in (None, 0, -1)),
    Row("cumsum(0d)", np.cumsum, (S(),)), Row("sort(0d)", np.sort, (S(),), error=True),
    Row("sum(empty)", lambda x: np.sum(x[:0], axis=0)),
    Row("cumsum(dtype=float64)", lambda x: np.cumsum(x, axis=1, dtype=np.float64)),
]

# -- products ---------------------------------------------------------------------------------
PRODUCTS = [
    Row("matmul", lambda x, y: np.matmul(x, y), (X, A((3, 4)))),
    Row("matmul(batch,v)", lambda x, y: np.matmul(x, y), (X3, A((4,)))),
    Row("matmul(v,batch)", lambda x, y: np.matmul(x, y), (V, A((2, 3, 4)))),
    Row("matmul(batch,batch)", lambda x, y: x @ y, (X3, A((1, 4, 2)))),
    Row("matmul(dtype)", lambda x, y: np.matmul(x, y, dtype=np.float64), (X, A((3, 2)))),
    Row("matmul(empty)", lambda x, y: x[:0] @ y, (X, A((3, 4)))),
    Row("convert(np.negative)", np.negative, dtypes=ALL_DTYPES[:4]),
    Row("matmul(mismatch)", lambda x, y: np.matmul(x, y), (X, X), error=True),
    Row("dot", np.dot, (X, A((3, 4)))), Row("dot(x,v)", np.dot, (X, V)),
    Row("dot(v,v)", np.dot, (V, V)), Row("dot(x,2)", lambda x: np.dot(x, 2)),
    Row("dot(nd,2d)", np.dot, (X3, A((4, 2)))), Row("dot(mismatch)", np.dot, (X, X), error=True),
    Row("einsum(ij,jk->ik)", lambda x, y: np.einsum("ij,jk->ik", x, y), (X, A((3, 4)))),
    Row("einsum(ij->ji)", lambda x: np.einsum("ij->ji", x)),
    Row("einsum(ii->i)", lambda x: np.einsum("ii->i", x), (A((3, 3)),)),
    Row("einsum(ij->)", lambda x: np.einsum("ij->", x)),
    Row("einsum(ij,jk)", lambda x, y: np.einsum("ij,jk", x, y), (X, A((3, 4)))),
    Row("einsum(...j,j->...)", lambda x, v: np.einsum("...j,j->...", x, v), (X3, A((4,)))),
    Row("einsum(sublists)", lambda x, y: np.einsum(x, [0, 1], y, [1, 2], [0, 2]),
        (X, A((3, 4)))),
    Row("tensordot(axes=1)", lambda x, y: np.tensordot(x, y, axes=1), (X, A((3, 4)))),
    Row("tensordot(axes=2)", np.tensordot, (X3, A((3, 4)))),
    Row("tensordot(pairs)", lambda x, y: np.tensordot(x, y, axes=([1, 0], [0, 1])),
        (X, A((3, 2)))),
    Row("outer", np.outer, (V, A((4,)))), Row("outer(2d)", np.outer, (X, V)),
    Row("inner", np.inner, (X, V)), Row("inner(2d,2d)", np.inner, (X, Y)),
]

# -- shapes, joining, selecting, creating, sorting --------------------------------------
SHAPES = [
    Row("where(c,x,y)", lambda x, y: np.where(x > 0, x, y), (X, V)),
    Row("where(m,x,0)", lambda m, x: np.where(m, x, 0), (MASK, X)),
    Row("where(m,1,2.5)", lambda m: np.where(m, 1, 2.5), (MASK,)),
    Row("where(x)", lambda x: np.where(x), dynamic=True),
    Row("nonzero", np.nonzero, dynamic=True),
    Row("nonzero(0d)", np.nonzero, (S(),), error=True),
    Row("clip", lambda x: np.clip(x, -1, 1)), Row("clip(-1.5,1.5)", lambda x: x.clip(-1.5, 1.5)),
    Row("clip(None,1)", lambda x: np.clip(x, None, 1)),
    Row("clip(min=0)", lambda x: np.clip(x, min=0)),
    Row("clip(None,None)", lambda x: np.clip(x, None, None)),
    Row("clip(traced)", lambda x, lo, hi: np.clip(x, lo, hi), (X, V, S(lo=1, hi=3))),
    Row("concatenate", lambda x, y: np.concatenate([x, y]), (X, A((1, 3)))),
    Row("concatenate(axis=1)", lambda x, y: np.concatenate((x, y), axis=1), (X, A((2, 1)))),
    Row("concatenate(axis=None)", lambda x, y: np.concatenate([x, y], axis=None), (X, V)),
    Row("concatenate(ndarray)", lambda x: np.concatenate([x, C_LEFT[None]], axis=-2)),
    Row("concatenate(dtype)", lambda x, y: np.concatenate([x, y], dtype=np.float64), (X, Y)),
    Row("concatenate(mismatch)", lambda x, y: np.concatenate([x, y], axis=1), (X, A((3, 3))),
        error=True),
    Row("stack", lambda x, y: np.stack([x, y]), (X, Y)),
    Row("stack(axis=-1)", lambda x, y: np.stack([x, y, x], axis=-1), (X, Y)),
    Row("stack(mismatch)", lambda x, y: np.stack([x, y]), (X, V), error=True),
    Row("split(2)", lambda x: np.split(x, 2), (A((4, 3)),)),
    Row("split([1,3])", lambda x: np.split(x, [1, 3]), (A((4, 3)),)),
    Row("split(axis=1)", lambda x: np.split(x, [1], axis=1)),
    Row("split(3,axis=-1)", lambda x: np.split(x, 3, axis=-1)),
    Row("split(uneven)", lambda x: np.split(x, 2, axis=1), error=True),
    Row("array_split(3)", lambda x: np.array_split(x, 3), (A((4, 2)),), unknown=ag.TracingError),
    Row("array_split([1])", lambda x: np.array_split(x, [1], axis=1)),
    Row("transpose", np.transpose, (X3,)),
    Row("transpose(axes)", lambda x: np.transpose(x, (1, 0, 2)), (X3,)),
    Row("reshape", lambda x: np.reshape(x, (3, 2))),
    Row("reshape(-1)", lambda x: np.reshape(x, -1)),
    Row("reshape(2,-1,order=F)", lambda x: np.reshape(x, (2, -1), order="F"), (X3,)),
    Row("reshape(bad)", lambda x: np.reshape(x, (4, 2)), error=True),
    Row("squeeze", np.squeeze, (A((1, 3, 1)),), unknown=ag.TracingError),
    Row("squeeze(axis=0)", lambda x: np.squeeze(x, axis=0), (A((1, 3, 1)),)),
    Row("squeeze(axis=(0,-1))", lambda x: np.squeeze(x, axis=(0, -1)), (A((1, 3, 1)),)),
    Row("squeeze(axis=1)", lambda x: np.squeeze(x, axis=1), error=True),
    Row("expand_dims(0)", lambda x: np.expand_dims(x, 0)),
    Row("expand_dims(-1)", lambda x: np.expand_dims(x, -1)),
    Row("expand_dims((0,2))", lambda x: np.expand_dims(x, (0, 2))),
    Row("broadcast_to", lambda x: np.broadcast_to(x, (4, 3)), (V,)),
    Row("broadcast_to(2,1)", lambda x: np.broadcast_to(x, (2, 2, 3)), (A((2, 1)),)),
    Row("broadcast_to(bad)", lambda x: np.broadcast_to(x, (3, 3)), error=True),
    Row("swapaxes", lambda x: np.swapaxes(x, 0, 2), (X3,)),
    Row("moveaxis", lambda x: np.moveaxis(x, 0, -1), (X3,)),
    Row("moveaxis(lists)", lambda x: np.moveaxis(x, [0, 1], [2, 0]), (X3,)),
    Row("ravel", np.ravel, (X3,)), Row("copy", np.copy),
    Row("zeros_like", np.zeros_like),
    Row("ones_like(dtype)", lambda x: np.ones_like(x, dtype=np.float32)),
    Row("zeros_like(shape)", lambda x: np.zeros_like(x, shape=(2,))),
    Row("full_like(7)", lambda x: np.full_like(x, 7)),
    Row("full_like(2.5)", lambda x: np.full_like(x, 2.5)),
    Row("full_like(traced)", lambda x, v: np.full_like(x, v), (X, S())),
    Row("full_like(row)", lambda x, v: np.full_like(x, v, dtype=np.float64), (X, V)),
    *(Row(f"{f.__name__}(axis={axis})", lambda x, f=f, axis=axis: f(x, axis=axis), (X3,))
      for f in (np.sort, np.argsort) for axis in (-1, 0, None)),
    Row("sort(kind=stable)", lambda x: np.sort(x, kind="stable")),
    Row("argsort(stable=True)", lambda x: np.argsort(x, axis=0, stable=True)),
    Row("argsort(0d)", np.argsort, (S(),)),
    Row("maximum", lambda x, y: np.maximum(x, y), (X, V)),
    Row("minimum(x,0)", lambda x: np.minimum(x, 0)),
]

# -- higher-order primitives and graph functions inside graphs -------------------------------
_inner = ag.convert(lambda x: x * 2 + 1, autograph=False)


def _cond(pred, true_fn, false_fn, *operands):
    """`runtime.cond` in a trace; Python `if` on NumPy values (the rows' eager oracle)."""
    if runtime.current_builder() is None:
        return true_fn(*operands) if pred else false_fn(*operands)
    return runtime.cond(pred, true_fn, false_fn, *operands)


def _while_loop(cond_fn, body_fn, state):
    """`runtime.while_loop` in a trace; Python `while` on NumPy values (the eager oracle)."""
    if runtime.current_builder() is None:
        while cond_fn(state):
            state = body_fn(state)
        return state
    return runtime.while_loop(cond_fn, body_fn, state)


CONTROL = [
    Row("cond(p)", lambda p, x: _cond(p, lambda x: x * 2, lambda x: x - 1, x), (PRED, X)),
    Row("cond(x.sum()>0)", lambda x, y: _cond(
        x.sum() > 0, lambda: x + y, lambda: x * y), (X, V)),
    Row("cond(shapes differ)", lambda p, x: _cond(
        p, lambda x: x, lambda x: x[:1], x), (PRED, X), dynamic=True),
    Row("cond(tuple)", lambda p, x: _cond(
        p, lambda x: (x, x.sum()), lambda x: (x[::-1], x.prod()), x), (PRED, X)),
    Row("while_loop", lambda n, x: _while_loop(
        lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] + x), (np.int64(0), x)),
        (S(lo=0, hi=3, dtype="int64"), X)),
    Row("while_loop(grows)", lambda n, x: _while_loop(
        lambda s: s[0] < n, lambda s: (s[0] + 1, np.concatenate([s[1], x])), (np.int64(0), x)),
        (S(lo=0, hi=3, dtype="int64"), X), dynamic=True),
    Row("py_function", lambda x: ag.py_function(
        np.sort, x, out=ag.TensorSpec(x.shape, x.dtype))),
    Row("py_function(cast)", lambda x: ag.py_function(
        lambda a: [float(a.sum())], x, out=[ag.TensorSpec((), x.dtype)]),
        oracle=lambda x: [np.asarray(float(x.sum()), x.dtype)]),
    Row("py_function(tuple)", lambda x: ag.py_function(
        lambda a: (a + a, a.sum()), x, out=(ag.TensorSpec(x.shape, x.dtype),
                                            ag.TensorSpec((), np.sum(x).dtype)))),
    Row("call", lambda x: _inner(x) - x),
    Row("dynamic_shape", lambda x: np.stack(runtime.dynamic_shape(x))),
    Row("print", lambda x: (effects.print_("x =", x, x.sum(), sep="|"), x)[1]),
    Row("assert", lambda x: (effects.assert_(x.sum() > -100, "too small"), x)[1]),
    Row("assert(fails)", lambda x: (effects.assert_(x.sum() > 100, x.sum()), x)[1],
        error=True, dtypes=tuple(d for d in ALL_DTYPES if d != "uint8")),   # uint8 wraps
]

def _autodiff_primitives(x):
    """The primitives gradients use: stacks, sum_to_shape, reshape_like, scatter_add."""
    saved = stack.push(stack.new_stack(), x, x * 2)
    _, (a, b) = stack.pop(saved, [x.aval, x.aval])
    total = runtime.bind(reshape_like_p, np.ravel(runtime.bind(sum_to_shape_p, b[None], x)), x)
    return a + runtime.bind(scatter_add_p, total[0], x, index=(0,))


def _autodiff_oracle(x):
    out = x.copy()
    out[0] += 2 * x[0]
    return out


AUTODIFF = [
    Row("autodiff", _autodiff_primitives, oracle=_autodiff_oracle, dtypes=("float32", "float64")),
]

ROWS = (INDEXING + METHODS + REDUCTIONS + PRODUCTS + SHAPES + CONTROL + AUTODIFF)


@pytest.mark.parametrize("row, dtype, mode", cases(ROWS))
def test_op(row, dtype, mode):
    check_row(row, dtype, mode)


# Stateful primitives: a table row's function must be pure (it runs eagerly and as a graph).
TESTED_ELSEWHERE = {
    "read_variable": "tests/test_variables.py",
    "assign_variable": "tests/test_variables.py",
    "python_op": "tests/test_weak_types.py",
    "from_python": "tests/test_weak_types.py",
    "errstate": "tests/test_staged_exceptions.py",
    "element_cast": "tests/test_item_writes.py",
    "overlap_sources": "tests/test_item_writes.py",
    "scalar": "tests/test_scalar_lowering.py",
    "as_layout": "tests/test_conversions.py",
    "short_sum": "tests/test_passes_short_sums.py",   # made by a pass, never traced
    "python_block": "tests/test_try_kernel_errors.py",  # a converted `try` statement
    "numpy_call": "tests/test_numpy_calls.py",   # NumPy's own, for what has no row
    "python_sorted": "tests/test_ordering_builtins.py",
    "format_text": "tests/test_fstrings.py",   # a returned text of traced values
    "python_argsort": "tests/test_ordering_builtins.py",
}


def test_every_primitive_and_function_has_a_row(monkeypatch):
    """Each primitive is used by some row, and has a kernel and an abstract-eval rule; each
    NumPy function and ufunc with a handler (docs/numpy.md's "staged" rows that NumPy
    dispatches) is called by some row."""
    called = set()
    noted = runtime.dispatch._noted
    monkeypatch.setattr(runtime.dispatch, "_noted", lambda name, handler, *args, **kwargs: (
        called.add(name), noted(name, handler, *args, **kwargs))[1])
    used, wrong = trace_rows(ROWS + OPERATOR_ROWS + UFUNC_ROWS + NUMBERS_ROWS + LINALG_ROWS
                             + BUILDING_ROWS + SIZES_ROWS + METHODS_ROWS + MORE_ROWS)
    assert not wrong, f"rows whose error flag disagrees with what NumPy does: {wrong}"
    handled = {runtime.dispatch.public_name(f) for f in runtime.dispatch.array_function_handlers}
    handled |= {f"numpy.{u.__name__}" for u, method in runtime.dispatch.ufunc_handlers
                if method == "__call__"}
    assert not sorted(handled - called), \
        f"NumPy functions no row of the table calls: {sorted(handled - called)}"
    unused = sorted(set(primitives.registry) - used - set(TESTED_ELSEWHERE))
    assert not unused, f"primitives no row of the table exercises: {unused}"
    incomplete = sorted(name for name, p in primitives.registry.items()
                        if p not in primitives.kernels or p not in primitives.abstract_eval)
    assert not incomplete, f"primitives without a kernel or an abstract-eval rule: {incomplete}"


# -- errors: NumPy's exception types, with a note naming the user's line ----------------------
BAD_INPUT = [
    pytest.param(lambda x: x + np.ones(4), ValueError, id="broadcast"),
    pytest.param(lambda x: x @ x, ValueError, id="matmul-core-dims"),
    pytest.param(lambda x: x.reshape(4, 2), ValueError, id="reshape-size"),
    pytest.param(lambda x: np.sum(x, axis=2), np.exceptions.AxisError, id="sum-axis"),
    pytest.param(lambda x: np.concatenate([x, x], axis=-3), np.exceptions.AxisError,
                 id="concatenate-axis"),
    pytest.param(lambda x: np.squeeze(x, axis=(0, 0)), ValueError, id="squeeze-repeated-axis"),
    pytest.param(lambda x: x[0, 0, 0], IndexError, id="too-many-indices"),
    pytest.param(lambda x: x[:, 3], IndexError, id="index-out-of-bounds"),
    pytest.param(lambda x: x[np.array([True, False, True])], IndexError, id="mask-shape"),
]


def _line_of(fn) -> str:
    return f"{fn.__code__.co_filename}:{fn.__code__.co_firstlineno}"


def _assert_noted(error, fn):
    notes = getattr(error, "__notes__", [])
    assert any(_line_of(fn) in note for note in notes), f"no note names {_line_of(fn)}: {notes}"


@pytest.mark.parametrize("fn, kind", BAD_INPUT)
def test_bad_input_raises_like_numpy(fn, kind):
    x = np.ones((2, 3))
    with pytest.raises(kind):
        fn(x)
    with pytest.raises(kind) as info:
        ag.convert(fn, autograph=False)(x)
    assert type(info.value) is kind
    _assert_noted(info.value, fn)


def test_run_time_error_keeps_its_type_and_names_the_line():
    """With unknown dims a broadcast mismatch is found when the graph runs."""
    def add(x, y): return x + y  # noqa: E704  (the note must name this line)
    spec = ag.TensorSpec((None,), np.float64)
    concrete = ag.convert(add, autograph=False).get_concrete_function(spec, spec)
    x, y = np.ones(3), np.ones(4)
    with pytest.raises(ValueError) as info:
        concrete(x, y)
    _assert_noted(info.value, add)
    with pytest.raises(ValueError) as info:
        Executor(concrete.graph).run(x, y)
    _assert_noted(info.value, add)


@pytest.mark.parametrize("fn", [np.lexsort, np.trapezoid, np.subtract.reduce, np.sort_complex,
                                np.fft.fft2, np.linalg.cond],
                         ids=["lexsort", "trapezoid", "subtract.reduce", "sort_complex", "fft2",
                              "linalg.cond"])
def test_a_function_without_a_staged_form_runs_as_numpys_own(fn):
    got = ag.convert(lambda x: fn(x), autograph=False)(np.eye(3))
    want = fn(np.eye(3))
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fn, name", [
    pytest.param(functools.partial(np.einsum_path, "ij->i"), "numpy.einsum_path",
                 id="einsum_path"),
    pytest.param(np.linalg.matrix_transpose, "numpy.linalg.matrix_transpose", id="view"),
])
def test_unsupported_function_raises_tracing_error(fn, name):
    def use(x): return fn(x)  # noqa: E704  (the message must name this line)
    fn(np.eye(3))  # NumPy itself takes it
    with pytest.raises(ag.TracingError) as info:
        ag.convert(use, autograph=False)(np.eye(3))
    message = str(info.value)
    assert f"{name} is not supported" in message and _line_of(use) in message, message
