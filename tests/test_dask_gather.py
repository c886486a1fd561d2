"""What has no chunked form on Dask (docs/dask.md): rechunked along the axes its kernel
needs only, the other axes keeping their chunks, or gathered into one chunk no larger
than the device's `max_gather`; each result against eager NumPy's, bit for bit."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import autograph as ag

dask = pytest.importorskip("dask", reason="Dask is not installed (pip install '.[dask]')")
da = pytest.importorskip("dask.array", reason="dask.array is not installed")

from autograph_runtime.backend import get_backend  # noqa: E402

THIS_FILE = re.escape(__file__.rsplit("/", 1)[-1])


@pytest.fixture(autouse=True)
def _synchronous():
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("error", ag.OneChunkWarning)   # none unless a test expects it
        yield


SHAPE = (6, 5, 4)
CHUNKINGS = {"one chunk": -1, "many chunks": 1, "uneven chunks": (4, 2, 3)}


def _run(fn, *arrays, chunks, **device):
    """`fn` converted, on Dask arrays of `chunks` (lazy results, and their chunks)."""
    with ag.device("dask", **device):
        return ag.convert(fn)(*(da.from_array(a, chunks=chunks) for a in arrays))


def _input_chunks(shape, chunks):
    return da.empty(shape, chunks=chunks).chunks


AXIS_WISE = {
    "sort": lambda x, axis: np.sort(x, axis=axis),
    "argsort": lambda x, axis: np.argsort(x, axis=axis, kind="stable"),
    "fft": lambda x, axis: np.fft.fft(x, axis=axis),
    "ifft": lambda x, axis: np.fft.ifft(x, n=7, axis=axis, norm="ortho"),
    "rfft": lambda x, axis: np.fft.rfft(x, axis=axis),
    "irfft": lambda x, axis: np.fft.irfft(x, axis=axis),
}


@pytest.mark.parametrize("chunks", list(CHUNKINGS.values()), ids=list(CHUNKINGS))
@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("name", list(AXIS_WISE))
def test_axis_wise_primitives_rechunk_only_their_axis(name, axis, chunks):
    fn = AXIS_WISE[name]
    rng = np.random.default_rng(axis)
    x = rng.integers(-4, 5, SHAPE) if name in ("sort", "argsort") else rng.normal(size=SHAPE)
    got = _run(lambda x: fn(x, axis), x, chunks=chunks)
    expected = fn(x, axis)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.compute(), expected, strict=True)
    before = _input_chunks(SHAPE, chunks)
    for other in {0, 1, 2} - {axis}:
        assert got.chunks[other] == before[other], (other, got.chunks, before)
    assert len(got.chunks[axis]) == 1


def test_a_sort_across_the_chunked_axis_moves_nothing():
    x = np.random.default_rng(0).normal(size=(1000, 8))
    got = _run(lambda x: np.sort(x, axis=1), x, chunks=(250, 8))
    assert got.chunks == ((250,) * 4, (8,))
    graph = dict(got.__dask_graph__())
    assert not any("rechunk" in str(key) for key in graph), "no data moved between chunks"
    np.testing.assert_array_equal(got.compute(), np.sort(x, axis=1))


def test_an_axis_a_mask_left_unknown_is_rechunked_the_rest_kept():
    def f(x):
        rows = x[x[:, 0] > 0]   # its length unknown while tracing
        return np.sort(rows, axis=0), np.fft.rfft(rows, axis=0)
    x = np.random.default_rng(8).normal(size=(9, 4))
    got = _run(f, x, chunks=(3, 2))
    for e, r in zip(f(x), got):
        assert r.chunks[1] == (2, 2), r.chunks
        np.testing.assert_array_equal(r.compute(), e, strict=True)


def test_sorting_flattened_gathers_with_a_warning_unless_one_chunk():
    x = np.random.default_rng(1).integers(0, 50, (6, 4))
    with pytest.warns(ag.OneChunkWarning, match=rf"sort \(traced from .*{THIS_FILE}:\d+.*"
                                                r"operand 0 gathered from several chunks"):
        got = _run(lambda x: np.sort(x, axis=None), x, chunks=2)
    np.testing.assert_array_equal(got.compute(), np.sort(x, axis=None))
    got = _run(lambda x: np.sort(x, axis=None), x, chunks=-1)   # one chunk: no warning
    np.testing.assert_array_equal(got.compute(), np.sort(x, axis=None))


STACKS = {
    "det": lambda a, b: np.linalg.det(a),
    "slogdet": lambda a, b: tuple(np.linalg.slogdet(a)),
    "inv": lambda a, b: np.linalg.inv(a),
    "cholesky": lambda a, b: np.linalg.cholesky(a),
    "eigh": lambda a, b: tuple(np.linalg.eigh(a)),
    "svd": lambda a, b: tuple(np.linalg.svd(a)),
    "svdvals": lambda a, b: np.linalg.svd(a, compute_uv=False),
    "qr": lambda a, b: tuple(np.linalg.qr(a)),
    "qr r": lambda a, b: np.linalg.qr(a, mode="r"),
    "pinv": lambda a, b: np.linalg.pinv(a),
    "solve": lambda a, b: np.linalg.solve(a, b),
    "solve vector": lambda a, b: np.linalg.solve(a, b[0, :, 0]),
}


@pytest.mark.parametrize("chunks", [-1, (2, 3, 3), (4, 1, 2)], ids=["one", "many", "uneven"])
@pytest.mark.parametrize("name", list(STACKS))
def test_linear_algebra_of_a_stack_keeps_the_stack_chunked(name, chunks):
    fn = STACKS[name]
    rng = np.random.default_rng(2)
    m, b = rng.normal(size=(6, 3, 3)), rng.normal(size=(6, 3, 2))
    a = m @ np.swapaxes(m, -1, -2) + 3 * np.eye(3)   # symmetric, positive definite
    expected = fn(a, b)
    with warnings.catch_warnings():   # solve's vector, of several chunks, is gathered
        warnings.simplefilter("ignore", ag.OneChunkWarning)
        got = _run(fn, a, b, chunks=chunks)
    expected, got = ((expected, got) if isinstance(expected, tuple) else ((expected,), (got,)))
    stack = _input_chunks(a.shape, chunks)[0]
    for e, r in zip(expected, got):
        assert r.chunks[0] == stack, r.chunks
        np.testing.assert_array_equal(r.compute(), e, strict=True)


@pytest.mark.parametrize("batch", [6, 1], ids=["same stack", "broadcast stack"])
def test_solve_aligns_stacks_chunked_otherwise(batch):
    rng = np.random.default_rng(9)
    m = rng.normal(size=(6, 3, 3))
    a, b = m @ np.swapaxes(m, -1, -2) + 3 * np.eye(3), rng.normal(size=(batch, 3, 2))
    with ag.device("dask"):
        got = ag.convert(np.linalg.solve)(da.from_array(a, chunks=(2, 3, 3)),
                                          da.from_array(b, chunks=(3, 1, 1)))
    assert got.chunks == ((2, 2, 2), (3,), (2,))
    np.testing.assert_array_equal(got.compute(), np.linalg.solve(a, b), strict=True)


def test_lookups_gather_the_table_and_keep_the_queries_chunked():
    table = np.sort(np.random.default_rng(3).normal(size=10))
    queries = np.random.default_rng(4).normal(size=(6, 4))

    def f(table, queries):
        return np.searchsorted(table, queries, side="right"), np.interp(queries, table, table ** 2)
    with ag.device("dask"), pytest.warns(ag.OneChunkWarning) as caught:
        got = ag.convert(f)(da.from_array(table, chunks=3), da.from_array(queries, chunks=(2, 3)))
    assert [str(w.message).split(" (")[0] for w in caught] == ["searchsorted", "interp"]
    assert "operand 0 gathered" in str(caught[0].message)
    assert "operands 1, 2 gathered" in str(caught[1].message)
    for e, r in zip(f(table, queries), got):
        assert r.chunks == ((2, 2, 2), (3, 1))
        np.testing.assert_array_equal(r.compute(), e, strict=True)


@pytest.mark.parametrize("keepdims", [False, True])
def test_nan_arg_extrema_along_an_axis(keepdims):
    x = np.random.default_rng(5).normal(size=(4, 6))
    x[1, 2] = x[3, :] = np.nan
    x[3, 4] = 1.0

    def f(x):
        return (np.nanargmax(x, axis=1, keepdims=keepdims),
                np.nanargmin(x, axis=0, keepdims=keepdims))
    got = _run(f, x, chunks=(2, 4))
    for e, r in zip(f(x), got):
        np.testing.assert_array_equal(r.compute(), e, strict=True)
    assert got[0].chunks[0] == (2, 2) and got[1].chunks[-1] == (4, 2)


# -- the limit ----------------------------------------------------------------------------
def _sort_columns(x):
    return np.sort(x, axis=0) * 2


def test_a_gather_over_the_limit_raises_naming_the_primitive_and_line():
    x = np.arange(4000.0)[::-1].reshape(1000, 4)
    g = ag.convert(_sort_columns)
    with ag.device("dask", max_gather="16 KiB"), pytest.raises(ag.DaskGatherError) as info:
        g(da.from_array(x, chunks=(100, 4)))
    message = str(info.value)
    line = _sort_columns.__code__.co_firstlineno + 1
    assert re.search(rf"sort \(traced from .*{THIS_FILE}:{line} in _sort_columns\)", message)
    for part in ("float64[1000, 4]", "10 chunks of up to 100", "whole along axis 0",
                 "31.25 KiB", "max_gather of 16 KiB", "chunk axis 1 smaller",
                 "max_gather=", "ag.device('cpu')"):
        assert part in message, (part, message)
    assert isinstance(info.value, ag.AutographError)
    # the same graph serves the next call, within the limit: blocks of 1000 x 1 float64
    with ag.device("dask", max_gather="16 KiB"):
        got = g(da.from_array(x, chunks=(100, 1)))
        small = g(da.from_array(x[:10], chunks=5))
    np.testing.assert_array_equal(got.compute(), _sort_columns(x))
    np.testing.assert_array_equal(small.compute(), _sort_columns(x[:10]))
    assert g.trace_count == 2   # two shapes; the error left no partial trace behind


def test_the_limit_is_an_option_of_the_device():
    x = np.random.default_rng(6).normal(size=(512, 4))
    g = ag.convert(lambda x: np.fft.fft(x, axis=0))
    with ag.device("dask", max_gather=8192), pytest.raises(ag.DaskGatherError,
                                                           match="max_gather of 8 KiB"):
        g(da.from_array(x, chunks=(64, 4)))
    for limit in (None, 16384, "1 MiB"):   # blocks of 512 x 2 float64: 8 KiB
        with ag.device("dask", max_gather=limit):
            np.testing.assert_array_equal(g(da.from_array(x, chunks=(64, 2))).compute(),
                                          np.fft.fft(x, axis=0))
    with ag.device("dask", max_gather="1 KiB"):
        assert get_backend("dask[max_gather=1024]").max_gather == 1024
    with ag.device("dask", max_gather=256 * 2**20):   # the default: the plain device
        assert get_backend("dask").max_gather == 256 * 2**20
    with pytest.raises(TypeError, match="max_gather"):
        with ag.device("dask", max_gather=-1):
            pass
    with pytest.raises(ValueError, match="max_gather"):
        with ag.device("dask", max_gather="lots"):
            pass
    with pytest.raises(ValueError, match="max_gather are options of a Dask device"):
        with ag.device("cpu", max_gather=10):
            pass


def test_a_whole_gather_checks_unknown_sizes_first():
    def f(x):
        return np.unique(x[x > 0])   # unique: whole; the mask leaves the size unknown
    x = np.arange(-100, 1000)
    with ag.device("dask", max_gather=4000), warnings.catch_warnings(), \
            pytest.raises(ag.DaskGatherError, match=r"unique .*int64\[999\].*gathered whole"):
        warnings.simplefilter("ignore", ag.OneChunkWarning)
        ag.convert(f)(da.from_array(x, chunks=100))
    with ag.device("dask", max_gather=4000), pytest.warns(ag.OneChunkWarning, match="unique"):
        got = ag.convert(f)(da.from_array(x[:400], chunks=100))
    np.testing.assert_array_equal(got.compute(), f(x[:400]))


def test_the_fallback_of_a_failing_chunked_kernel_is_guarded_too():
    def f(a, i):
        return a[i, :, i]   # n-d fancy indexing: dask.array refuses it
    a, i = np.arange(4000).reshape(10, 20, 20), np.array([0, 1])
    with ag.device("dask", max_gather=1000), pytest.raises(ag.DaskGatherError,
                                                           match=r"getitem .*gathered whole"):
        ag.convert(f)(da.from_array(a, chunks=5), i)


def test_variables_and_results_after_the_error_are_consistent():
    total = ag.Variable(np.zeros(()))

    def f(x):
        y = np.sort(x, axis=0)
        total.assign_add(y[0].sum())
        return y
    g = ag.convert(f)
    big = np.random.default_rng(7).normal(size=(300, 3))
    with ag.device("dask", max_gather=2000, compute=True):
        with pytest.raises(ag.DaskGatherError):
            g(da.from_array(big, chunks=(30, 3)))
        assert total.numpy() == 0.0   # the error came before the write
        got = g(da.from_array(big[:20], chunks=(5, 3)))
    np.testing.assert_array_equal(got, np.sort(big[:20], axis=0))
    assert total.numpy() == np.sort(big[:20], axis=0)[0].sum()
