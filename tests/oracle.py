"""The eager NumPy oracle: runs a function every way the project can and compares.

`run_every_way(fn, *args)` runs `fn` eagerly on NumPy (the oracle), as
`ag.convert(fn, autograph=False)` (the graph's compiled code), and through
`runtime.executor.Executor` on the traced graph, which it first checks with
`runtime.verify.verify`. Results must match the oracle: same nested structure,
dtype, shape and values (exact for integers and booleans, `rtol` for floats,
NaNs equal), and what they print must be what the oracle prints. Graph outputs
are arrays, so a NumPy scalar from the oracle matches a 0-d array of its dtype.
Where NumPy raises, every way must raise an exception of the same type.

`run_with_specs(fn, args, specs)` traces with `ag.TensorSpec`s whose dimensions
may be None, checks that the traced output types fit NumPy's results (known
dimensions equal, unknown ones None), then runs the graph on the real arrays.

>>> import numpy as np
>>> x = np.arange(6.0).reshape(2, 3)
>>> graphs = run_every_way(lambda x: x.sum(axis=0) * 2, x, specs=unknown_dims([x]))
>>> print(graphs[0])
graph <lambda>(x:f64[2,3]) {
  t0:f64[3] = sum[axis=(0,), keepdims=False] x
  t1:f64[3] = multiply t0 2
  return t1
}
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import warnings
import zlib
from typing import Callable

import numpy as np
import pytest

import autograph as ag
from autograph_runtime.executor import Executor
from autograph_runtime.tree import flatten
from autograph_runtime.verify import verify

ARRAYS = (np.ndarray, np.generic)


@contextlib.contextmanager
def quiet():
    """NumPy's floating-point warnings off: the oracle and the graph both see them."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", ag.RetracingWarning)  # rows share graph functions
        yield


@contextlib.contextmanager
def printed():
    """Collects what is printed to stdout meanwhile (in the StringIO it yields)."""
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        yield text


def array_leaves(args) -> list:
    """The leaves of `args` that become graph inputs (NumPy arrays and scalars)."""
    return [x for x in flatten(args)[0] if isinstance(x, ARRAYS)]


def unknown_dims(args, which: str = "all") -> list:
    """Specs for `args`: array dims None (`which` "all" or "first"), other leaves as they are."""
    def spec(x):
        if not isinstance(x, ARRAYS):
            return x
        shape = [None if which == "all" or i == 0 else d for i, d in enumerate(np.shape(x))]
        return ag.TensorSpec(tuple(shape), x.dtype)
    return [spec(x) for x in args]


def primitives_used(graph) -> set[str]:
    """The names of the primitives in `graph`, its subgraphs included."""
    return {eqn.primitive.name for eqn in graph.all_eqns()}


def run_every_way(fn, *args, specs=None, rtol=1e-6, atol=0.0, oracle=None,
                  exact_types=True) -> list:
    """Checks `fn(*args)` as a graph against `(oracle or fn)(*args)` on NumPy.

    The graph's output types must be NumPy's result types (with `exact_types`
    False, only fit them: a shape that depends on values may be unknown).
    Returns the graphs traced (none where NumPy raises). `specs`, where given,
    adds the unknown-dimension check of `run_with_specs`.
    """
    try:
        with quiet(), printed() as eager_text:
            expected = (oracle or fn)(*args)
    except Exception as error:
        assert_raises_like(error, fn, args, specs)
        return []
    f = ag.convert(fn, autograph=False)
    with quiet(), printed() as text:
        got = f(*args)
    assert_same(expected, got, rtol=rtol, atol=atol, way="compiled graph")
    assert text.getvalue() == eager_text.getvalue(), "the compiled graph printed other text"
    graph = f.get_concrete_function(*args).graph
    verify(graph)
    assert_output_types(graph, expected, got, exact_types)
    with quiet(), printed() as text:
        flat = Executor(graph).run(*array_leaves(args))
    assert_same_flat(expected, got, flat, rtol=rtol, atol=atol)
    assert text.getvalue() == eager_text.getvalue(), "the Executor printed other text"
    graphs = [graph]
    if specs is not None:
        graphs.append(run_with_specs(fn, args, specs, rtol=rtol, atol=atol, expected=expected))
    return graphs


def run_with_specs(fn, args, specs, rtol=1e-6, atol=0.0, expected=None, oracle=None):
    """Traces `fn` for `specs` (dims may be None), checks its types, runs it on `args`."""
    if expected is None:
        try:
            with quiet():
                expected = (oracle or fn)(*args)
        except Exception as error:
            assert_raises_like(error, fn, args, specs, known=False)
            return None
    with quiet():
        concrete = ag.convert(fn, autograph=False).get_concrete_function(*specs)
        verify(concrete.graph)
        got = concrete(*args)
    assert_same(expected, got, rtol=rtol, atol=atol, way="graph with unknown dims",
                unknown=True)
    assert_output_types(concrete.graph, expected, got, exact=False)
    return concrete.graph


def assert_output_types(graph, expected, got, exact: bool):
    """The graph's output types are (`exact`) or fit the oracle's results."""
    wanted = [np.asarray(e) for e, g in _pairs(expected, got) if isinstance(g, np.ndarray)]
    assert len(wanted) == len(graph.outputs)
    for i, (want, atom) in enumerate(zip(wanted, graph.outputs)):
        where = f"output {i} of graph {graph.name!r}"
        assert_type_fits(atom.aval, want, where)
        assert not exact or atom.aval.shape == want.shape, (
            f"{where}: traced type {atom.aval} where NumPy's shape {want.shape} is known")


def assert_raises_like(error, fn, args, specs=None, known=True):
    """Every way of running `fn(*args)` raises an exception of `error`'s type."""
    kind = type(error)
    note = f"NumPy raised {kind.__name__}: {error}"
    if known:
        with quiet(), pytest.raises(kind):
            ag.convert(fn, autograph=False)(*args)
            pytest.fail(f"the graph returned where {note}")
    if specs is not None:
        with quiet(), pytest.raises(kind):
            ag.convert(fn, autograph=False).get_concrete_function(*specs)(*args)
            pytest.fail(f"the graph traced with unknown dims returned where {note}")


def assert_type_fits(aval, expected: np.ndarray, where: str):
    """A traced type is consistent with NumPy's result: dtype, rank, known dims."""
    assert aval.dtype == expected.dtype, (
        f"{where}: traced dtype {aval.dtype}, NumPy's {expected.dtype}")
    assert aval.ndim == expected.ndim and all(
        d is None or d == n for d, n in zip(aval.shape, expected.shape)), (
        f"{where}: traced type {aval} does not fit NumPy's shape {expected.shape}")


def _pairs(expected, got, way="graph"):
    e_leaves, e_tree = flatten(expected)
    g_leaves, g_tree = flatten(got)
    assert e_tree == g_tree, f"{way}: structure {g_tree}, NumPy's {e_tree}"
    return list(zip(e_leaves, g_leaves))


def assert_same(expected, got, rtol=1e-6, atol=0.0, way="graph", unknown=False):
    """`got` has `expected`'s structure; arrays match it, Python leaves equal it.

    With `unknown`, a Python leaf that is None stands for any value (a shape's unknown dim).
    """
    for i, (e, g) in enumerate(_pairs(expected, got, way)):
        where = f"{way}, output leaf {i}"
        if isinstance(e, ARRAYS):
            assert isinstance(g, np.ndarray), f"{where}: {type(g).__name__}, NumPy gives an array"
            assert_array_same(e, g, rtol, atol, where)
        elif not (unknown and g is None and isinstance(e, int)):
            assert type(g) is type(e) and g == e, f"{where}: {g!r}, NumPy gives {e!r}"


def assert_same_flat(expected, got, flat, rtol=1e-6, atol=0.0):
    """The Executor's flat outputs match the oracle's leaves that are graph outputs."""
    pairs = [(e, g) for e, g in _pairs(expected, got) if isinstance(g, np.ndarray)]
    assert len(flat) == len(pairs), f"Executor: {len(flat)} outputs, expected {len(pairs)}"
    for i, ((e, _), value) in enumerate(zip(pairs, flat)):
        value = np.asarray(value) if isinstance(value, np.generic) else value
        assert isinstance(value, np.ndarray), f"Executor output {i}: {type(value).__name__}"
        assert_array_same(e, value, rtol, atol, f"Executor output {i}")


def assert_array_same(expected, got, rtol=1e-6, atol=0.0, where="graph"):
    """Same dtype and shape; values exactly equal, or close for inexact dtypes."""
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, f"{where}: dtype {got.dtype}, NumPy's {expected.dtype}"
    assert got.shape == expected.shape, f"{where}: shape {got.shape}, NumPy's {expected.shape}"
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=where)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=where, strict=True)


# -- table rows ----------------------------------------------------------------
DTYPES = ("float32", "float64", "int32", "int64", "bool")
ALL_DTYPES = DTYPES + ("int8", "uint8", "complex128")


@dataclasses.dataclass(frozen=True)
class A:
    """An argument made per dtype: an array of `shape` with values in [lo, hi].

    `dtype` fixes the dtype (else the row's); `signed` draws magnitudes in
    [lo, hi] with random signs; `scalar` makes a NumPy scalar instead.
    """

    shape: tuple = (2, 3)
    lo: float = -3
    hi: float = 3
    dtype: str | None = None
    signed: bool = False
    scalar: bool = False

    def make(self, rng, dtype):
        dtype = np.dtype(self.dtype or dtype)
        shape = () if self.scalar else self.shape
        if dtype == bool:
            value = rng.random(shape) < 0.5
        elif dtype.kind in "iu":
            value = rng.integers(int(np.ceil(self.lo)), int(np.floor(self.hi)) + 1, shape)
        elif dtype.kind == "M":
            value = rng.integers(0, 10**9, shape).astype(dtype)
            value[rng.random(shape) < 0.3] = np.datetime64("NaT")
        else:
            value = np.round(rng.uniform(self.lo, self.hi, shape), 3)
        if self.signed:
            value = value * rng.choice([-1, 1], shape)
        value = np.asarray(value).astype(dtype)
        return value[()] if self.scalar else value


def S(lo=-3, hi=3, dtype=None, signed=False) -> A:
    """A NumPy scalar argument (see `A`)."""
    return A((), lo, hi, dtype, signed, scalar=True)


@dataclasses.dataclass(frozen=True)
class Row:
    """One table row: `fn` on `args` (`A`s made per dtype, other values as they are).

    `unknown`: an exception type that tracing with unknown dims must raise
    (None: it must match NumPy). `dynamic`: the result shape depends on values,
    so known input dims may give unknown output dims. `error`: NumPy raises for every dtype (the
    row checks that the graph raises alike). `xfail` maps a case-id fragment (like
    "int32-known" or "unknown") to the reason of a known bug.
    """

    id: str
    fn: Callable
    args: tuple = (A(),)
    dtypes: tuple = DTYPES
    unknown: type | None = None
    rtol: float = 1e-6
    oracle: Callable | None = None
    error: bool = False
    dynamic: bool = False
    xfail: dict = dataclasses.field(default_factory=dict)

    def make_args(self, dtype) -> list:
        rng = np.random.default_rng(zlib.crc32(f"{self.id}/{dtype}".encode()))
        return [a.make(rng, dtype) if isinstance(a, A) else a for a in self.args]

    @property
    def has_dims(self) -> bool:
        return any(isinstance(a, A) and not a.scalar and a.shape for a in self.args)


def cases(rows) -> list:
    """pytest params `(row, dtype, mode)` with ids like `add-float32-known`."""
    ids = [row.id for row in rows]
    assert len(ids) == len(set(ids)), "row ids must be unique"
    params = []
    for row in rows:
        for dtype in row.dtypes:
            for mode in ("known", "unknown") if row.has_dims else ("known",):
                key = f"{dtype}-{mode}"
                marks = [pytest.mark.xfail(reason=why, strict=True)
                         for fragment, why in row.xfail.items() if fragment in key]
                params.append(pytest.param(row, dtype, mode, id=f"{row.id}-{key}", marks=marks))
    return params


def check_row(row: Row, dtype, mode: str) -> list:
    """Runs one case of a row; returns the graphs it traced."""
    args = row.make_args(dtype)
    if mode == "known":
        return run_every_way(row.fn, *args, rtol=row.rtol, oracle=row.oracle,
                             exact_types=not row.dynamic)
    graphs = []
    for specs in {repr(s): s for s in (unknown_dims(args), unknown_dims(args, "first"))}.values():
        if row.unknown is not None and _succeeds(row.oracle or row.fn, args):
            with quiet(), pytest.raises(row.unknown):
                ag.convert(row.fn, autograph=False).get_concrete_function(*specs)(*args)
        else:
            graphs.append(run_with_specs(row.fn, args, specs, rtol=row.rtol, oracle=row.oracle))
    return graphs


def _succeeds(fn, args) -> bool:
    try:
        with quiet():
            fn(*args)
    except Exception:
        return False
    return True


def trace_rows(rows) -> tuple[set, list]:
    """The primitives the rows' graphs use, and the ids of rows whose `error` flag is wrong."""
    used, wrong = set(), []
    for row in rows:
        numpy_ran = False
        for dtype in row.dtypes:
            args = row.make_args(dtype)
            if not _succeeds(row.oracle or row.fn, args):
                continue
            numpy_ran = True
            for specs in (args, unknown_dims(args)):
                try:
                    with quiet():
                        concrete = ag.convert(row.fn, autograph=False).get_concrete_function(*specs)
                except Exception:  # a TracingError with unknown dims: `unknown` rows
                    continue
                used |= primitives_used(concrete.graph)
        if numpy_ran == row.error:
            wrong.append(row.id)
    return used, wrong
