"""The Dask backend (`ag.device("dask")`): its options, inputs, results and control flow,
each against eager NumPy (docs/dask.md)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag

dask = pytest.importorskip("dask", reason="Dask is not installed (pip install '.[dask]')")
da = pytest.importorskip("dask.array", reason="dask.array is not installed")

from autograph_runtime.backend import get_backend
from autograph_runtime.dask_gather import OneChunkWarning  # noqa: E402


@pytest.fixture(autouse=True)
def _synchronous():
    with dask.config.set(scheduler="synchronous"):   # small arrays: no thread pool
        yield


def _decay(x, n):
    i = 0
    while i < n:
        x = np.tanh(x) * 0.9 + x.mean()
        i += 1
    if x.sum() > 0:
        x = x * 2
    return x, x.std()


def test_numpy_inputs_are_chunked_and_results_stay_lazy():
    f = ag.convert(_decay)
    x = np.linspace(-1, 1, 10)
    expected = _decay(x, np.int64(4))
    with ag.device("dask", chunks=3):
        got, std = f(x, np.int64(4))
    assert isinstance(got, da.Array) and got.chunks == ((3, 3, 3, 1),)
    np.testing.assert_allclose(got.compute(), expected[0], rtol=1e-12)
    np.testing.assert_allclose(std.compute(), expected[1], rtol=1e-12)


def test_dask_inputs_keep_their_chunks_and_compute_gives_numpy():
    f = ag.convert(_decay)
    x = np.linspace(-1, 1, 10)
    expected = _decay(x, np.int64(4))
    with ag.device("dask"):
        lazy = f(da.from_array(x, chunks=4), np.int64(4))[0]
    assert lazy.chunks == ((4, 4, 2),)
    with ag.device("dask", compute=True):
        got, std = f(da.from_array(x, chunks=4), np.int64(4))
    assert type(got) is np.ndarray and type(std) is np.ndarray and std.shape == ()
    np.testing.assert_allclose(got, expected[0], rtol=1e-12)


def test_tuple_chunks_apply_to_arrays_of_their_rank():
    def f(m, v):
        return m @ v + np.arange(4.0)   # a constant of rank 1
    m, v = np.arange(12.0).reshape(4, 3), np.arange(3.0)
    with ag.device("dask", chunks=(2, 3)):
        got = ag.convert(f)(m, v)
    assert got.chunks == ((2, 2),)
    np.testing.assert_allclose(got.compute(), f(m, v))


def test_dask_arrays_outside_a_device_block_run_on_dask():
    f = ag.convert(lambda x: x * 2)
    got = f(da.arange(6, chunks=2))
    assert isinstance(got, da.Array)
    np.testing.assert_array_equal(got.compute(), np.arange(6) * 2)


def test_device_is_part_of_the_cache_key():
    f = ag.convert(lambda x: x + 1)
    x = np.ones(4)
    f(x)
    with ag.device("dask"):
        f(x)
        f(x)
    with ag.device("dask", compute=True):
        f(x)
    assert f.trace_count == 3


def test_device_names_and_option_errors():
    with ag.device("dask", chunks=2, compute=True, persist_every=5):
        assert ag.device.__module__ and get_backend("dask[chunks=2, compute=True, "
                                                     "persist_every=5]").persist_every == 5
    with pytest.raises(ValueError, match="options of a Dask device"):
        with ag.device("cpu", chunks=2):
            pass
    with pytest.raises(ValueError, match="persist_every"):
        with ag.device("dask", persist_every=0):
            pass
    with pytest.raises(TypeError, match="Client"):
        with ag.device(42):
            pass


def test_missing_dask_names_the_extra(monkeypatch):
    import builtins
    from autograph_runtime import dask_arrays
    real_import = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name == "dask" or name.startswith("dask."):
            raise ImportError("No module named 'dask'")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_dask)
    with pytest.raises(RuntimeError, match=r"pip install '\.\[dask\]'"):
        dask_arrays.import_dask()


def test_staged_tests_are_computed_and_carries_persisted():
    f = ag.convert(_decay)
    with ag.device("dask"):
        source = f.get_concrete_function(np.ones(3), np.int64(2)).source
    assert "__truth" in source and "__carry" in source
    with ag.device("dask", persist_every=10):
        source = f.get_concrete_function(np.ones(3), np.int64(2)).source
    assert "% 10 == 0" in source
    source = f.get_concrete_function(np.ones(3), np.int64(2)).source   # NumPy: unchanged
    assert "__truth" not in source and "__carry" not in source


def _halve_until_small(x, steps):
    for _ in range(steps):   # a traced count: one staged loop
        x = x * 0.5 + 1.0
    return x


@pytest.mark.parametrize("every", [1, 4])
def test_task_graph_stays_bounded_over_iterations(every):
    f = ag.convert(_halve_until_small)
    x = np.arange(8.0)
    sizes = []
    with ag.device("dask", chunks=2, persist_every=every):
        for steps in (8, 64, 256):
            out = f(x, np.int64(steps))
            sizes.append(len(out.__dask_graph__()))
            np.testing.assert_allclose(out.compute(), _halve_until_small(x, steps))
    assert sizes[0] == sizes[1] == sizes[2] <= 4 * (every + 1), sizes


def test_print_and_assert_keep_their_meaning(capsys):
    def f(x):
        print("total", x.sum())
        assert x.min() > -10, "too small"
        return x * 2
    g = ag.convert(f)
    x = np.arange(4.0)
    f(x)
    eager = capsys.readouterr().out
    with ag.device("dask", chunks=1, compute=True):
        g(x)
    assert capsys.readouterr().out == eager == "total 6.0\n"
    with ag.device("dask", chunks=1, compute=True), pytest.raises(AssertionError, match="too small"):
        g(x - 20)



def _sort_columns(x):
    return np.sort(x, axis=0)   # rechunked along axis 0 on Dask


def _grow(x, n):
    i = 0
    while i < n:
        x = _sort_columns(x * -1.5)
        print("step", i, x[0], x.sum())
        assert np.abs(x).max() < 10, "grew too large"
        i += 1
    return x


def test_print_and_assert_in_a_staged_loop_on_lazy_dask_arrays(capsys):
    g = ag.convert(_grow)
    x = np.arange(6.0).reshape(3, 2) - 2.5
    expected = _grow(x, np.int64(3))
    eager = capsys.readouterr().out
    with ag.device("dask"):   # lazy results: print and assert compute what they read
        got = g(da.from_array(x, chunks=(1, 1)), np.int64(3))
        assert capsys.readouterr().out == eager and eager.count("step") == 3
        np.testing.assert_array_equal(got.compute(), expected)
    with pytest.raises(AssertionError, match="grew too large"):
        _grow(x, np.int64(5))   # fails on its fourth trip, after printing it
    eager = capsys.readouterr().out
    with ag.device("dask"), pytest.raises(AssertionError, match="grew too large"):
        g(da.from_array(x, chunks=(2, 1)), np.int64(5))
    assert capsys.readouterr().out == eager and eager.count("step") == 4

# -- where Dask's answer could differ from NumPy's -----------------------------------------
DIFFERENCES = {
    "int32 matmul keeps int32": (lambda a, b: a @ b, (np.arange(6, dtype=np.int32).reshape(2, 3),
                                                       np.arange(6, dtype=np.int32).reshape(3, 2))),
    "bool matmul": (lambda a, b: a @ b, (np.eye(3, dtype=bool), np.ones((3, 2), bool))),
    "floor division of negatives": (lambda a, b: (a // b, a % b),
                                    (np.arange(-6, 6), np.full(12, 4))),
    "integer true division": (lambda a: a / 3, (np.arange(-5, 7, dtype=np.int16),)),
    "division by zero": (lambda a, b: (a / b, a // b), (np.array([1.0, -1.0, 0.0, 2.0]),
                                                        np.array([0.0, 0.0, 0.0, 1.0]))),
    "nan reductions": (lambda a: (a.sum(), np.nansum(a), np.nanmax(a), a.max(), np.nanmean(a)),
                       (np.array([1.0, np.nan, 3.0, -2.0, 5.0]),)),
    "argmax ties over chunks": (lambda a: (np.argmax(a), np.argmin(a)),
                                (np.array([[2, 5, 5], [5, 1, 1]]),)),
    "uint8 wraps": (lambda a: a * np.uint8(100) + a, (np.arange(10, dtype=np.uint8),)),
    "float32 stays float32": (lambda a: (a.mean(), a * 2.5), (np.linspace(0, 1, 7, dtype=np.float32),)),
    "sort along a chunked axis": (lambda a: (np.sort(a, axis=0), np.argsort(a, axis=1)),
                                  (np.array([[3, 1, 2], [0, 5, 4], [9, 7, 8]]),)),
    "cumsum of a mask's selection": (lambda a: np.cumsum(a[a < 0]),
                                     (np.array([3, -1, 2, -4, 5, -6]),)),
    "advanced index across a slice": (lambda a, i: a[1, :, i],
                                      (np.arange(24.0).reshape(2, 3, 4), np.array([0, 3]))),
    "inverse": (lambda a: np.linalg.inv(a), (np.array([[4.0, 1.0], [2.0, 3.0]], np.float32),)),
}


@pytest.mark.parametrize("name", list(DIFFERENCES))
@pytest.mark.parametrize("chunks", [1, 2])
def test_dask_gives_numpys_dtypes_and_values(name, chunks):
    fn, args = DIFFERENCES[name]
    with np.errstate(all="ignore"):
        expected = fn(*args)
    g = ag.convert(fn)
    with np.errstate(all="ignore"), warnings.catch_warnings(), \
            ag.device("dask", chunks=chunks, compute=True):
        warnings.simplefilter("ignore", OneChunkWarning)
        got = g(*args)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for e, r in zip(expected, got):
        e = np.asarray(e)
        assert type(r) is np.ndarray and r.dtype == e.dtype and r.shape == e.shape, (r, e)
        np.testing.assert_allclose(r, e, rtol=1e-6 if e.dtype == np.float32 else 1e-12,
                                   equal_nan=True)


def test_no_chunked_form_warns_and_gives_numpys_answer():
    def f(a, i):
        return a[i, :, i]   # n-d fancy indexing: dask.array refuses it
    a, i = np.arange(24).reshape(2, 3, 4), np.array([0, 1])
    with ag.device("dask", chunks=1, compute=True), \
            pytest.warns(OneChunkWarning, match=r"getitem \(traced from .*test_dask_backend.py:"):
        got = ag.convert(f)(a, i)
    np.testing.assert_array_equal(got, f(a, i))


def test_the_interpreter_runs_loops_and_branches_on_dask():
    import autograph_runtime as runtime
    from autograph_runtime.executor import Executor

    def f(x):
        while x.sum() > 1.0:
            x = x * 0.5
        return x if x.max() > 0.1 else -x
    x = np.arange(6.0)
    graph = ag.convert(f).get_concrete_function(x).graph
    backend = runtime.get_backend("dask")
    (got,) = Executor(graph, backend).run(backend.asarray(x))
    assert isinstance(got, da.Array)
    np.testing.assert_allclose(got.compute(), f(x))


def test_gradients_run_on_dask():
    def loss(w, x):
        h = np.tanh(x @ w)
        while np.sum(h * h) > 1.0:
            h = h * 0.5
        return np.mean(h ** 2)
    w = np.random.default_rng(0).normal(size=(3, 2))
    x = np.random.default_rng(1).normal(size=(8, 3))
    grad = ag.grad(loss)
    expected = grad(w, x)
    with ag.device("dask", chunks=2, compute=True):
        got = grad(w, x)
    np.testing.assert_allclose(got, expected, rtol=1e-10)
    with ag.device("dask"):
        lazy = grad(da.from_array(w, chunks=1), da.from_array(x, chunks=3))
    assert isinstance(lazy, da.Array)
    np.testing.assert_allclose(lazy.compute(), expected, rtol=1e-10)
