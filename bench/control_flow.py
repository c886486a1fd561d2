"""Control-flow benchmarks: converted Python loops against the same loops in Python.

  (e) convert_50_lines       converting a 50-line function with loops and branches
                             (parse, analyses, ten converters, load); target <= 20 ms
  (f) while_1000_scalar      a staged `while` of 1,000 steps of scalar arithmetic vs
                             the same Python loop on NumPy scalars; target ratio <= 2
  (g) lstm_for_100_steps     the 10-unit LSTM cell run over a staged `for` of 100 steps
                             vs the Python loop calling the hand-written cell; <= 1.5

Run:  python bench/control_flow.py [--quick]
"""
from __future__ import annotations

import inspect
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from common import Row, compare, parse_args, report  # noqa: E402
from lstm import lstm_cell, make_inputs  # noqa: E402

import autograph as ag  # noqa: E402
from autograph.conversion import transformed  # noqa: E402

NAMES = ("convert_50_lines", "while_1000_scalar", "lstm_for_100_steps")


def fifty_lines(x, n, limit):
    """Fifty lines of typical control flow: what one conversion has to chew through."""
    total = 0.0
    count = 0
    best = x[0]
    for i in range(n):
        value = x[i % 4]
        if value > best:
            best = value
        elif value < -best:
            best = -value
        else:
            count += 1
        if total > limit:
            break
        total += value * 0.5
    while count < 10 and total < limit:
        count += 1
        if count % 3 == 0:
            continue
        total = total + 1.0
    steps = []
    for j in range(3):
        steps.append(total * j)
    scale = 1.0 if total > 0 else -1.0
    flag = total > 0 and count > 2 or best < 0
    k = 0
    while True:
        k += 1
        if k > 5:
            break
    if flag:
        total = total * scale
    else:
        total = total - scale
    for a, b in zip(x, x):
        total = total + a * b
    smallest = x[0]
    for v in x:
        if v < smallest:
            smallest = v
    while smallest < 0 and count < 20:
        smallest = smallest + 1.0
        count += 1
    total = total + smallest
    if total > 1e6:
        return total, count
    result = np.stack(steps).sum() + total
    assert result == result, "not a number"
    return result, count + k


def scalar_loop(x, n):
    i = 0
    while i < n:
        x = x * 0.999 + 0.5
        i += 1
    return x


def lstm_sequence(xs, h, c, w, u, b):
    for t in range(xs.shape[0]):
        h, c = lstm_cell(xs[t], h, c, w, u, b)
    return h, c


def lstm_sequence_staged(xs, h, c, w, u, b, steps):
    for t in range(steps):
        h, c = lstm_cell(xs[t], h, c, w, u, b)
    return h, c


def bench_convert(settings) -> Row:
    times = []
    for _ in range(settings.rounds(30)):
        start = time.perf_counter_ns()
        transformed(fifty_lines)
        times.append(time.perf_counter_ns() - start)
    ms = statistics.median(times) / 1e6
    lines = len(inspect.getsource(fifty_lines).splitlines())
    return Row(NAMES[0], None, ms * 1e3, f"{ms:.2f} ms", "<= 20 ms", ms <= 20,
               f"median of {len(times)} conversions of a {lines}-line function (parse, "
               f"analyses, converters; the loaded function is not cached by transformed())")


def bench_scalar_loop(settings) -> Row:
    graph = ag.convert(scalar_loop)
    x, n = np.float64(1.0), np.int64(1000)
    assert np.isclose(graph(x, n), scalar_loop(x, n))
    result = compare({"numpy": (scalar_loop, (x, n)), "graph": (graph, (x, n))},
                     rounds=settings.rounds(40), round_ms=settings.round_ms)
    ratio = result.median_ratio("graph", "numpy")
    return Row(NAMES[1], result["numpy"].median_us, result["graph"].median_us,
               f"{ratio:.3f}x", "<= 2x", ratio <= 2,
               f"Python loop on NumPy scalars vs one staged while_loop; {result.spread_text()}")


def bench_lstm_loop(settings) -> Row:
    x, h, c, w, u, b = make_inputs(10, 1)
    xs = np.repeat(x[None], 100, axis=0)
    graph = ag.convert(lstm_sequence_staged)
    steps = np.int64(100)
    for got, want in zip(graph(xs, h, c, w, u, b, steps), lstm_sequence(xs, h, c, w, u, b)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    result = compare({"numpy": (lstm_sequence, (xs, h, c, w, u, b)),
                      "graph": (graph, (xs, h, c, w, u, b, steps))},
                     rounds=settings.rounds(40), round_ms=settings.round_ms)
    ratio = result.median_ratio("graph", "numpy")
    note = f"100 steps, one trace (traced {graph.trace_count}x); {result.spread_text()}"
    return Row(NAMES[2], result["numpy"].median_us, result["graph"].median_us,
               f"{ratio:.3f}x", "<= 1.5x", ratio <= 1.5, note)


def run(settings) -> list[Row]:
    return [bench_convert(settings), bench_scalar_loop(settings), bench_lstm_loop(settings)]


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    start = time.perf_counter()
    rows = run(settings)
    report("Control flow: Python loops vs converted graphs", rows, settings,
           time.perf_counter() - start)


if __name__ == "__main__":
    main()
