"""Run-time sizes and random draws against NumPy: the table.

Rows run through `oracle.check_row` (every dtype of the row, known and unknown
dimensions) like `test_ops_table.py`, whose `test_every_primitive_and_function_has_a_row`
counts `SIZES_ROWS` too. NumPy never dispatches `np.zeros(k)` or `np.random.rand(3)`
to a traced value, so rows call them as converted code does (`call`: staged where
a size is traced, or always for a draw, while a graph is traced). Random rows seed
NumPy's generator first (a staged `np.random.seed`), so the graph draws what NumPy
draws, bit for bit. Loops, branches, saving and Generator arguments are in
`test_random.py` and `test_run_time_sizes.py`.
"""
from __future__ import annotations

import numpy as np
import pytest
from oracle import A, Row, S, cases, check_row

import autograph as ag
from autograph_runtime.ops.staged_calls import call

ALL = ("bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex128")
INTS = ("int8", "uint8", "int32", "int64")
X, N = A((2, 3)), S(lo=0, hi=4, dtype="int64")


def D(id, fn, *args, **kwargs) -> Row:
    """A row whose size is a traced scalar: its result's dims are unknown (`dynamic`)."""
    return Row(id, fn, *args, dynamic=True, **kwargs)


def n_of(x):
    """A size from `x`: a Python int where x's first dim is known, else traced (`ag.shape`)."""
    return ag.shape(x)[0] + 1


# -- zeros, ones, empty, full ------------------------------------------------------------
FULL = [
    D("zeros(n)", lambda n: call(np.zeros, n), (S(lo=0, hi=4),), dtypes=ALL),
    D("zeros(-n)", lambda n: call(np.zeros, -n), (S(lo=1, hi=4),), dtypes=INTS),
    Row("zeros((n,2),int8)", lambda x: call(np.zeros, (n_of(x), 2), np.int8), (X,)),
    D("ones((n,3))", lambda n: call(np.ones, (n, 3)), (S(lo=0, hi=4),), dtypes=INTS),
    Row("ones((2,n),dtype)", lambda x: call(np.ones, (2, n_of(x)), dtype=x.dtype), (X,),
        dtypes=ALL),
    D("empty(n)", lambda n: call(np.empty, (n, 2)), (N,), dtypes=("int64",),
      oracle=lambda n: np.zeros((n, 2))),  # contents unspecified: the graph's are zeros
    D("full((n,2),v)", lambda n, v: call(np.full, (n, 2), v), (N, S()), dtypes=ALL),
    Row("full(n,x0)", lambda x: call(np.full, n_of(x), x[0, 0]), (X,), dtypes=ALL),
    Row("full((n,3),row)", lambda x: call(np.full, (n_of(x), 3), x[0], dtype=np.float32),
        (X,), dtypes=ALL),
    Row("full((2,3),v)", lambda v: call(np.full, (2, 3), v), (S(),), dtypes=ALL),
    Row("zeros(n)+x", lambda x: call(np.zeros, ag.shape(x)[0])[:, None] + x, (X,), dtypes=ALL),
]

# -- arange, linspace, eye ------------------------------------------------------------------
RANGES = [
    D("arange(n)", lambda n: call(np.arange, n), (S(lo=0, hi=5),), dtypes=ALL),
    D("arange(1,n,2)", lambda n: call(np.arange, 1, n, 2), (N,)),
    D("arange(n,0,-1)", lambda n: call(np.arange, n, 0, -1), (S(lo=0, hi=5),), dtypes=INTS),
    Row("arange(0.5,n)", lambda x: call(np.arange, 0.5, n_of(x)), (X,)),
    Row("arange(n,dtype)", lambda x: call(np.arange, n_of(x), dtype=np.float32), (X,)),
    D("arange(a,b)", lambda a, b: call(np.arange, a, b), (S(lo=-3, hi=0), S(lo=0, hi=4)),
        dtypes=("int8", "int32", "int64", "float32", "float64")),
    Row("arange(n)*x", lambda x: call(np.arange, ag.shape(x)[1]) * x, (X,), dtypes=ALL),
    D("linspace(0,1,n)", lambda n: call(np.linspace, 0, 1, n), (S(lo=0, hi=5),),
        dtypes=ALL),
    D("linspace(a,b,n)", lambda a, b, n: call(np.linspace, a, b, n), (S(), S(), N),
        dtypes=("int8", "int32", "float32", "float64", "complex128")),
    Row("linspace(n,endpoint)", lambda x: call(np.linspace, -1, 2, n_of(x), endpoint=False),
        (X,)),
    Row("linspace(rows,axis=1)", lambda x: call(np.linspace, x[0], x[1], n_of(x), axis=1),
        (X,), dtypes=("int32", "float32", "float64")),
    Row("linspace(n,dtype)", lambda x: call(np.linspace, 0, 10, n_of(x), dtype=np.int32),
        (X,)),
    D("linspace(-n)", lambda n: call(np.linspace, 0, 1, -n), (S(lo=1, hi=3),),
        dtypes=INTS),
    D("eye(n)", lambda n: call(np.eye, n), (S(lo=0, hi=4),), dtypes=ALL),
    Row("eye(n,3,k=1)", lambda x: call(np.eye, n_of(x), 3, k=1, dtype=np.int8), (X,)),
    D("eye(-n)", lambda n: call(np.eye, -n), (S(lo=1, hi=3),), dtypes=INTS),
]

# -- indices of nonzero elements ------------------------------------------------------------
NONZERO = [
    Row("flatnonzero", np.flatnonzero, (X,), dtypes=ALL, dynamic=True),
    Row("argwhere", np.argwhere, (X,), dtypes=ALL, dynamic=True),
    Row("argwhere(3d)", np.argwhere, (A((2, 2, 3)),), dynamic=True),
    Row("argwhere(0d)", np.argwhere, (S(),), dtypes=ALL, dynamic=True),
    Row("x[argwhere]", lambda x: x[tuple(np.argwhere(x > 0).T)], (X,), dynamic=True),
]


# -- random draws: seeded, so that the graph draws what NumPy draws ----------------------
def seeded(f, seed=7):
    """`f` after `np.random.seed(seed)` (staged too: the seed runs with the graph)."""
    def run(*args):
        call(np.random.seed, seed)
        return f(*args)
    return run


def from_generator(method, **kwargs):
    """`method` of a Generator made in the function (`default_rng(5)`), with `kwargs`."""
    def run(x):
        rng = call(np.random.default_rng, 5)
        return call(getattr(rng, method), **kwargs) + 0 * x[0, 0]
    return run


RANDOM = [
    Row("random.rand", seeded(lambda x: x + call(np.random.rand, *ag.shape(x))), (X,), dtypes=ALL),
    Row("random.randn", seeded(lambda x: call(np.random.randn, 3) + 0 * x[0]), (X,)),
    Row("random.random", seeded(lambda x: call(np.random.random, ag.shape(x)) * x), (X,),
        dtypes=ALL),
    Row("random.uniform", seeded(lambda x: call(np.random.uniform, x, x + 1)), (X,)),
    Row("random.normal(loc)", seeded(lambda x: call(np.random.normal, x, 2.0)), (X,)),
    Row("random.normal(size)", seeded(lambda x: call(np.random.normal, size=(2, ag.shape(x)[1]))),
        (X,)),
    Row("random.randint", seeded(lambda x: call(np.random.randint, 0, 9, size=ag.shape(x))), (X,)),
    Row("random.choice", seeded(lambda x: call(np.random.choice, x.ravel(), 4)), (X,),
        dtypes=ALL),
    Row("random.choice(n)", seeded(lambda x: call(np.random.choice, 6, ag.shape(x))), (X,)),
    Row("random.permutation(x)", seeded(lambda x: call(np.random.permutation, x)), (X,),
        dtypes=ALL),
    Row("random.permutation(n)", seeded(lambda x: call(np.random.permutation, ag.shape(x)[1])),
        (X,)),
    Row("random.shuffle", seeded(lambda x: (y := x * 1, call(np.random.shuffle, y), y)[2]),
        (X,), dtypes=ALL),
    Row("random.exponential", seeded(lambda x: call(np.random.exponential, size=ag.shape(x))),
        (X,)),
    Row("rng.normal", from_generator("normal", size=(3,)), (X,)),
    Row("rng.integers", from_generator("integers", low=0, high=5, size=(2, 2)), (X,)),
]

SIZES_ROWS = FULL + RANGES + NONZERO + RANDOM


@pytest.mark.parametrize("row,dtype,mode", cases(SIZES_ROWS))
def test_row(row, dtype, mode):
    check_row(row, dtype, mode)
