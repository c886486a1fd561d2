"""The k-means example on Dask: time a step on 1 and 2 workers beside NumPy, and graph sizes.

    python bench/dask_kmeans.py                 # 2M points of 8 dims (128 MB), 10 steps
    python bench/dask_kmeans.py --points 200000 --steps 5

Rows: NumPy in memory (the same converted function under the NumPy device,
the points computed first), then a `LocalCluster` of 1 and of 2 worker
processes (one thread each, loopback; the points persisted in the workers'
memory first), each the time per step of the staged
`while` (convergence never reached: `tol=-1`, `max_iter=steps`); then the
task graph of the result after 5, 20 and 80 steps with `compute=False`
(tasks: bounded, since the loop persists its carry each step, not growing
with the step count). Timing is reported, never enforced.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "examples")]

import autograph as ag  # noqa: E402
from kmeans_dask import kmeans, make_points  # noqa: E402


def per_step(run, steps) -> float:
    run(1)   # traced, warmed
    t0 = time.perf_counter()
    run(steps)
    return (time.perf_counter() - t0) / steps


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=2_000_000)
    parser.add_argument("--chunk", type=int, default=250_000)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args(argv)
    from dask.distributed import Client, LocalCluster

    points = make_points(args.points, chunk=args.chunk)
    start = points[:5].compute()
    in_memory = points.compute()
    rows = [("NumPy, in memory", per_step(lambda s: kmeans(in_memory, start, -1.0, np.int64(s)),
                                          args.steps))]
    sizes = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None, silence_logs=50) as cluster, \
                Client(cluster, set_as_default=False) as client:
            held = client.persist(points)   # in the workers' memory, as NumPy's is in ours

            def on_dask(steps, client=client, held=held):
                with ag.device(client, compute=True):
                    return kmeans(held, start, -1.0, np.int64(steps))
            rows.append((f"Dask, {workers} worker{'s' * (workers > 1)}",
                         per_step(on_dask, args.steps)))
            if workers == 2:
                with ag.device(client):
                    for steps in (5, 20, 80):
                        centroids, _ = kmeans(held, start, -1.0, np.int64(steps))
                        sizes[steps] = len(centroids.__dask_graph__())
    print(f"k-means, {args.points:,} points x 8 dims ({points.nbytes / 2**20:.0f} MiB), "
          f"chunks of {args.chunk:,}, 5 centroids, {args.steps} steps")
    print("| where | ms per step | vs NumPy |")
    print("| --- | --- | --- |")
    for name, seconds in rows:
        print(f"| {name} | {seconds * 1e3:.1f} | {seconds / rows[0][1]:.2f}x |")
    print("task graph of the result after N steps (compute=False): "
          + ", ".join(f"{n} steps: {size} tasks" for n, size in sizes.items())
          + (" (bounded)" if len(set(sizes.values())) == 1 else " (GROWS)"))


if __name__ == "__main__":
    main()
