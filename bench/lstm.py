"""LSTM cell benchmarks: one step of a hand-written NumPy LSTM cell vs the same function
under `ag.convert`.

  (a) lstm_step_10u_b1     10 units, batch 1, float32: steady-state call, target ratio <= 1.5
  (b) lstm_step_512u_b64   512 units, batch 64, float32: steady-state call, target ratio <= 1.05
  (d) first_call_10u_b1    a fresh `ag.convert(cell)` each repetition; time of its first call
                           (trace + compile + first run), target <= 5 ms

Run:  python bench/lstm.py [--quick]
"""
from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from common import Row, compare, parse_args, report, time_once_ns  # noqa: E402

import autograph as ag  # noqa: E402

NAME_SMALL = "lstm_step_10u_b1"
NAME_LARGE = "lstm_step_512u_b64"
NAME_FIRST = "first_call_10u_b1"

TARGET_SMALL_RATIO = 1.5
TARGET_LARGE_RATIO = 1.05
TARGET_FIRST_MS = 5.0


def lstm_cell(x, h, c, W, U, b):
    """One LSTM step, plain NumPy. Gates in the order input, forget, cell, output."""
    z = x @ W + h @ U + b
    i, f, g, o = np.split(z, 4, axis=1)
    i = 1 / (1 + np.exp(-i))
    f = 1 / (1 + np.exp(-f))
    o = 1 / (1 + np.exp(-o))
    g = np.tanh(g)
    c_new = f * c + i * g
    h_new = o * np.tanh(c_new)
    return h_new, c_new


def make_inputs(units: int, batch: int, seed: int = 0):
    """(x, h, c, W, U, b), float32, input size = units; weights scaled so gates don't saturate."""
    rng = np.random.default_rng(seed)
    f32 = np.float32
    scale = 1 / np.sqrt(units)
    x = rng.standard_normal((batch, units)).astype(f32)
    h = rng.standard_normal((batch, units)).astype(f32)
    c = rng.standard_normal((batch, units)).astype(f32)
    W = (rng.standard_normal((units, 4 * units)) * scale).astype(f32)
    U = (rng.standard_normal((units, 4 * units)) * scale).astype(f32)
    b = (rng.standard_normal(4 * units) * 0.1).astype(f32)
    return x, h, c, W, U, b


def check_same(graph_fn, args):
    """The graph function must return what the NumPy cell returns (else timing is moot)."""
    want = lstm_cell(*args)
    got = graph_fn(*args)
    assert isinstance(got, tuple) and len(got) == 2, f"graph returned {type(got).__name__}"
    for w, g in zip(want, got):
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def bench_step(name, units, batch, target_ratio, settings, full_rounds) -> Row:
    args = make_inputs(units, batch)
    graph_cell = ag.convert(lstm_cell)
    check_same(graph_cell, args)
    result = compare({"numpy": (lstm_cell, args), "graph": (graph_cell, args)},
                     rounds=settings.rounds(full_rounds), round_ms=settings.round_ms)
    ratio = result.median_ratio("graph", "numpy")
    note = (f"{result.rounds} rounds x {result.calls_per_round} calls; ratio = median of "
            f"per-round ratios; {result.spread_text()}")
    if graph_cell.trace_count != 1:
        note += f"; UNEXPECTED: traced {graph_cell.trace_count} times"
    return Row(name, result["numpy"].median_us, result["graph"].median_us,
               f"{ratio:.3f}x", f"<= {target_ratio:g}x", ratio <= target_ratio, note)


def bench_small(settings) -> Row:
    return bench_step(NAME_SMALL, 10, 1, TARGET_SMALL_RATIO, settings, full_rounds=200)


def bench_large(settings) -> Row:
    return bench_step(NAME_LARGE, 512, 64, TARGET_LARGE_RATIO, settings, full_rounds=100)


def bench_first_call(settings, full_reps: int = 200) -> Row:
    """Each repetition: a fresh ag.convert(lstm_cell), its first call timed (trace + run).

    Interleaved with one timed call of the NumPy cell (which has no first-call cost),
    so both columns come from the same moments. The process is warm (library
    imported, the cell already traced by the GraphFunctions of (a) and (b)), so
    the median is the cost a user sees for a new function or a new signature in a
    running program; the first repetition is reported in the note.
    """
    args = make_inputs(10, 1)
    reps = settings.rounds(full_reps)
    lstm_cell(*args)
    first_ns, numpy_ns, convert_ns = [], [], []
    for r in range(reps):
        t0 = time.perf_counter_ns()
        graph_cell = ag.convert(lstm_cell)
        convert_ns.append(time.perf_counter_ns() - t0)
        if r % 2:       # alternate the order, as compare() does
            numpy_ns.append(time_once_ns(lstm_cell, *args))
            first_ns.append(time_once_ns(graph_cell, *args))
        else:
            first_ns.append(time_once_ns(graph_cell, *args))
            numpy_ns.append(time_once_ns(lstm_cell, *args))
        if graph_cell.trace_count != 1:
            raise AssertionError(f"first call traced {graph_cell.trace_count} times, expected 1")
        del graph_cell
    check_same(ag.convert(lstm_cell), args)
    first_ms = statistics.median(first_ns) / 1e6
    q1, _, q3 = statistics.quantiles(first_ns, n=4) if reps > 1 else (first_ns[0],) * 3
    note = (f"{reps} repetitions; first repetition {first_ns[0] / 1e6:.2f} ms; "
            f"IQR {q1 / 1e6:.2f}-{q3 / 1e6:.2f} ms; ag.convert() itself (not included) "
            f"{statistics.median(convert_ns) / 1e3:.1f} µs; numpy column = one eager call")
    return Row(NAME_FIRST, statistics.median(numpy_ns) / 1e3, first_ms * 1e3,
               f"{first_ms:.2f} ms", f"<= {TARGET_FIRST_MS:g} ms", first_ms <= TARGET_FIRST_MS,
               note)


def run(settings) -> list[Row]:
    return [bench_small(settings), bench_large(settings), bench_first_call(settings)]


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    t0 = time.perf_counter()
    rows = run(settings)
    report("LSTM cell: hand-written NumPy vs ag.convert", rows, settings,
           time.perf_counter() - t0)


if __name__ == "__main__":
    main()
