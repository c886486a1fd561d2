"""Tracing scales linearly: an unrolled loop of 10,000 steps costs ten times 1,000 steps.

  (k) trace_unrolled_10000   tracing a Python loop that runs while tracing (the graph
                             holds a copy of the body per step), 10,000 steps against
                             1,000: the time of the first, target ratio <= 15x

A loop over `range(steps)` with `steps` a Python int runs in Python while
tracing, so each step adds its equations (`multiply`, `add`, `tanh`) and
re-binds `h` (named `h`, `h_1`, ... `h_9999`). The time is that of
`ag.convert(unrolled).get_concrete_function(x)`: tracing, naming, pruning and
compiling the graph, with a new graph function each repetition. Linear tracing
gives a ratio near 10; a cost per step that grows with the graph (a name search
from `h_1` each time) gives one near 100.

Run:  python bench/tracing_scale.py [--quick]
"""
from __future__ import annotations

import os
import statistics
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from common import Row, parse_args, report  # noqa: E402

import autograph as ag  # noqa: E402

NAME = "trace_unrolled_10000"
STEPS = (1_000, 10_000)
QUICK_STEPS = (100, 1_000)   # a smoke run: the same ratio at a tenth of the size
# Linear is 10x; CPython's `compile` of one 10,000-line function and the cyclic
# garbage collector, walking a graph that grows, add up to about 1.4x per step
# here; a per-step cost that grows with the graph would give about 100x.
TARGET = 15.0


def unrolled(steps: int):
    """A function whose loop of `steps` steps runs while tracing."""
    def loop(x):
        h = x
        for _ in range(steps):
            h = np.tanh(h * 0.5 + x)
        return h
    return loop


def trace_seconds(steps: int, x) -> float:
    """Seconds to trace and compile `unrolled(steps)` for `x`, with a new graph function."""
    function = ag.convert(unrolled(steps))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the UnrolledLoopWarning this loop is about
        start = time.perf_counter()
        function.get_concrete_function(x)
        return time.perf_counter() - start


def bench(settings) -> Row:
    small, large = QUICK_STEPS if settings.quick else STEPS
    x = np.ones(3, np.float32)
    np.testing.assert_allclose(ag.convert(unrolled(10))(x), unrolled(10)(x), rtol=1e-6)
    trace_seconds(small, x)   # warm: imports, the converter's caches
    reps = 1 if settings.quick else settings.rounds(3)
    small_s = statistics.median(trace_seconds(small, x) for _ in range(reps))
    large_s = statistics.median(trace_seconds(large, x) for _ in range(reps))
    ratio = large_s / small_s
    note = (f"median of {reps}: {small:,} steps {small_s * 1e3:.0f} ms "
            f"({small_s / small * 1e6:.1f} µs/step), {large:,} steps {large_s * 1e3:.0f} ms "
            f"({large_s / large * 1e6:.1f} µs/step); trace + name + compile, "
            f"linear = {large // small}x")
    return Row(NAME, None, large_s * 1e6, f"{ratio:.1f}x", f"<= {TARGET:g}x",
               ratio <= TARGET, note)


def run(settings) -> list[Row]:
    return [bench(settings)]


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    start = time.perf_counter()
    rows = run(settings)
    report("Tracing an unrolled loop: 10,000 steps vs 1,000", rows, settings,
           time.perf_counter() - start)


if __name__ == "__main__":
    main()
