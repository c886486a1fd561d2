"""K-means with a convergence `while`, one converted function on a Dask cluster and on NumPy.

    python examples/kmeans_dask.py             # 2 GB of points on a LocalCluster of 2 processes
    python examples/kmeans_dask.py --small     # 2 MB, a few seconds

The points are generated chunk by chunk on the workers (`make_points`: each
chunk from its own seed), so no process ever holds them all. `kmeans` is
ordinary NumPy code; under `ag.device(client)` its staged `while` computes
only the convergence test's boolean on the cluster each trip and persists
the carried centroids there, so the task graph stays one iteration deep. The
same function then runs on NumPy over a sample of the points, from the same
start, and both give the same centroids.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import autograph as ag


@ag.convert
def kmeans(points, centroids, tol, max_iter):
    k = centroids.shape[0]
    shift = np.inf
    steps = 0
    while shift > tol and steps < max_iter:
        distances = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=-1)
        nearest = np.argmin(distances, axis=1)
        members = (nearest[:, None] == np.arange(k)[None, :]).astype(points.dtype)
        counts = members.sum(axis=0)
        means = (members.T @ points) / np.maximum(counts, 1.0)[:, None]
        shift = np.abs(means - centroids).max()
        centroids = means
        steps += 1
    return centroids, steps


def make_points(n, dims=8, k=5, chunk=250_000, seed=0):
    """`n` points around `k` centers as a Dask array, each chunk drawn from its own seed."""
    import dask.array as da
    centers = np.random.default_rng(seed).normal(scale=4.0, size=(k, dims))

    def block(block_info=None):
        lo, hi = block_info[None]["array-location"][0]
        rng = np.random.default_rng([seed, lo])
        return centers[rng.integers(0, k, hi - lo)] + rng.normal(size=(hi - lo, dims))

    sizes = (chunk,) * (n // chunk) + ((n % chunk,) if n % chunk else ())
    return da.map_blocks(block, chunks=(sizes, (dims,)), dtype=np.float64)


def run(client, n, sample, chunk, tol=1e-8, max_iter=100, out=print):
    """Fits on `n` points on the cluster, then on NumPy over the first `sample` of them."""
    points = make_points(n, chunk=chunk)
    start = points[:5].compute()   # the first points as the starting centroids
    t0 = time.perf_counter()
    with ag.device(client, compute=True):
        centroids, steps = kmeans(points, start, tol, max_iter)
    took = time.perf_counter() - t0
    ended = "converged in" if steps < max_iter else "stopped at max_iter after"
    out(f"Dask: {n:,} points ({points.nbytes / 2**30:.2f} GiB) {ended} {steps} "
        f"steps, {took:.1f} s ({took / max(steps, 1) * 1e3:.0f} ms a step)")
    head = points[:sample].compute()
    with ag.device(client, compute=True):
        on_dask, dask_steps = kmeans(head, start, tol, max_iter)
    on_numpy, numpy_steps = kmeans(head, start, tol, max_iter)
    same = bool(np.allclose(on_dask, on_numpy, rtol=1e-9, atol=1e-12)) and dask_steps == numpy_steps
    out(f"sample of {sample:,}: NumPy and Dask give the same centroids: {same}")
    return centroids, on_dask, on_numpy, same


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="a few MB of points")
    parser.add_argument("--points", type=int, default=32_000_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    from dask.distributed import Client, LocalCluster
    n, sample, chunk = ((40_000, 10_000, 5_000) if args.small
                        else (args.points, 200_000, 500_000))
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None) as cluster, \
            Client(cluster) as client:
        *_, same = run(client, n, sample, chunk)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
