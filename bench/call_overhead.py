"""Call overhead: `x + 1` on a float32 array of shape (4,), graph function vs plain NumPy.

  (c) call_overhead_add1   steady-state call of `ag.convert(add_one)` vs `add_one`;
                           reports both times, the difference (target <= 2 µs) and the ratio

The work (one tiny ufunc call) is negligible, so the difference is what the graph
function's call path (cache lookup, compiled graph, output packing) costs per call.

Run:  python bench/call_overhead.py [--quick]
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from common import Row, compare, parse_args, report  # noqa: E402

import autograph as ag  # noqa: E402

NAME = "call_overhead_add1"
TARGET_DIFF_US = 2.0


def add_one(x):
    return x + 1


def bench_add_one(settings, full_rounds: int = 200) -> Row:
    x = np.arange(4, dtype=np.float32)
    graph_add_one = ag.convert(add_one)
    want, got = add_one(x), graph_add_one(x)
    assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape, got
    np.testing.assert_array_equal(got, want)
    result = compare({"numpy": (add_one, (x,)), "graph": (graph_add_one, (x,))},
                     rounds=settings.rounds(full_rounds), round_ms=settings.round_ms)
    diff = result.median_diff_us("graph", "numpy")
    ratio = result.median_ratio("graph", "numpy")
    note = (f"{result.rounds} rounds x {result.calls_per_round} calls; diff and ratio = medians "
            f"of per-round values; {result.spread_text()}")
    if graph_add_one.trace_count != 1:
        note += f"; UNEXPECTED: traced {graph_add_one.trace_count} times"
    return Row(NAME, result["numpy"].median_us, result["graph"].median_us,
               f"{diff:+.2f} µs ({ratio:.2f}x)", f"<= {TARGET_DIFF_US:g} µs",
               diff <= TARGET_DIFF_US, note)


def run(settings) -> list[Row]:
    return [bench_add_one(settings)]


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    t0 = time.perf_counter()
    rows = run(settings)
    report("Call overhead: hand-written NumPy vs ag.convert", rows, settings,
           time.perf_counter() - t0)


if __name__ == "__main__":
    main()
