"""The Dask backend on a `LocalCluster` of processes (loopback only): `ag.device(client)`,
a computation over twice a worker's memory, and the k-means example.

One cluster of two workers, each of one thread and a 200 MB memory limit,
serves the file: started once, stopped at the end.
"""
from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

import autograph as ag

pytest.importorskip("dask.array", reason="Dask is not installed (pip install '.[dask]')")
distributed = pytest.importorskip(
    "dask.distributed", reason="dask.distributed is not installed (pip install '.[dask]')")
import dask.array as da  # noqa: E402

WORKER_MEMORY = 200 * 2**20
EXAMPLE = pathlib.Path(__file__).resolve().parent.parent / "examples" / "kmeans_dask.py"


@pytest.fixture(scope="session")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, memory_limit=WORKER_MEMORY, silence_logs=50)
    with cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield client
    assert cluster.status.name == "closed"


def _settle(x, tol):
    steps = 0
    while np.abs(x).max() > tol:
        x = x * 0.5
        steps += 1
    return x, steps


def test_staged_loop_on_the_cluster(client):
    f = ag.convert(_settle)
    x = np.linspace(-40.0, 40.0, 101)
    expected = _settle(x, 1e-3)
    with ag.device(client, chunks=17, compute=True):
        got, steps = f(x, 1e-3)
    assert int(steps) == expected[1]
    np.testing.assert_allclose(got, expected[0], rtol=1e-12)
    with ag.device(client):
        lazy, _ = f(da.from_array(x, chunks=30), 1e-3)
    assert isinstance(lazy, da.Array)
    np.testing.assert_allclose(client.compute(lazy, sync=True), expected[0], rtol=1e-12)


def _moments(x):
    y = np.tanh(x * 1e-7) * 3.0 + 1.0
    return y.sum(), (y * y).sum(), y.max(), y.min()


def test_twice_a_workers_memory_chunk_by_chunk(client):
    """400 MB of float64 (made on the workers, chunk by chunk) against a NumPy reference
    computed chunk by chunk: no worker ever holds it, nor does this process."""
    n, chunk = 2 * WORKER_MEMORY // 8, 2**20
    x = da.arange(n, chunks=chunk, dtype=np.float64)
    assert x.nbytes == 2 * WORKER_MEMORY
    with ag.device(client, compute=True):
        total, squares, high, low = ag.convert(_moments)(x)
    parts = [_moments(np.arange(lo, min(lo + chunk, n), dtype=np.float64))
             for lo in range(0, n, chunk)]
    np.testing.assert_allclose(total, sum(p[0] for p in parts), rtol=1e-9)
    np.testing.assert_allclose(squares, sum(p[1] for p in parts), rtol=1e-9)
    assert high == max(p[2] for p in parts) and low == min(p[3] for p in parts)


def _row_order(x):
    return np.sort(x, axis=1)[:, 0].sum(), np.sort(x, axis=0)[0].sum()


def test_sorts_beyond_a_workers_memory_rechunk_their_axis_or_fail_at_once(client):
    """Each row of 400 MB sorted where its chunks lie (no data moves); a sort along the
    long axis would gather a block of 400 MB: the default limit refuses it, computing
    nothing."""
    n, rows = 2 * WORKER_MEMORY // 8, 2**17
    x = (da.arange(n, chunks=rows * 8, dtype=np.int64) * 7919 % 1000).reshape(n // 8, 8)
    g = ag.convert(lambda x: np.sort(x, axis=1)[:, 0].sum())
    with ag.device(client, compute=True):
        total = g(x)
    parts = [np.sort((np.arange(lo, lo + rows * 8, dtype=np.int64) * 7919 % 1000)
                     .reshape(rows, 8), axis=1)[:, 0].sum() for lo in range(0, n, rows * 8)]
    assert total == sum(parts)
    with ag.device(client, compute=True), pytest.raises(ag.DaskGatherError,
                                                        match=r"max_gather of 256 MiB"):
        ag.convert(_row_order)(x)

def test_kmeans_example_matches_numpy_on_a_sample(client):
    spec = importlib.util.spec_from_file_location("kmeans_dask", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    lines = []
    centroids, on_dask, on_numpy, same = example.run(client, 20_000, 4_000, 5_000,
                                                     max_iter=15, out=lines.append)
    assert same, lines
    assert centroids.shape == (5, 8) and np.isfinite(centroids).all()
    np.testing.assert_allclose(on_dask, on_numpy, rtol=1e-9)
