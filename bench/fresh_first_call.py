"""First call of a function never converted before, in a fresh process: what a user waits for.

  (i) fresh_first_call_lstm_loop   `ag.convert` of the 100-step LSTM loop of (g) and its
                                   first call (convert, trace, compile, run), target <= 20 ms
  (j) fresh_first_call_50_lines    the same for the 50-line function of (e), target <= 40 ms

Each repetition is a new Python process (`--child`): the library is imported, the
function and its arguments are made, then `ag.convert(fn)(*args)` is timed, so
conversion, tracing, compiling and the first run all count, with every cache
cold. The numpy column is the first eager call, timed in the same process.

Run:  python bench/fresh_first_call.py [--quick]
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import Row, parse_args, report  # noqa: E402

NAMES = {"lstm": "fresh_first_call_lstm_loop", "fifty": "fresh_first_call_50_lines"}
TARGET_MS = {"lstm": 20.0, "fifty": 40.0}
QUICK_REPS = 2


def _child(which: str) -> None:
    """In a fresh process: prints `graph_ns numpy_ns` for one first call of each."""
    import numpy as np

    import autograph as ag
    from control_flow import fifty_lines, lstm_sequence, lstm_sequence_staged
    from lstm import make_inputs

    if which == "lstm":
        x, h, c, w, u, b = make_inputs(10, 1)
        xs = np.repeat(x[None], 100, axis=0)
        fn, args = lstm_sequence_staged, (xs, h, c, w, u, b, np.int64(100))
        eager, eager_args = lstm_sequence, (xs, h, c, w, u, b)
    else:
        fn, args = fifty_lines, (np.array([1.0, -2.0, 3.0, 0.5]), np.int64(7), np.float64(100.0))
        eager, eager_args = fifty_lines, args
    start = time.perf_counter_ns()
    graph_fn = ag.convert(fn)
    got = graph_fn(*args)
    graph_ns = time.perf_counter_ns() - start
    start = time.perf_counter_ns()
    want = eager(*eager_args)
    numpy_ns = time.perf_counter_ns() - start
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    print(graph_ns, numpy_ns)


def _fresh_process(which: str) -> tuple[int, int]:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join([root] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", which],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": path}).stdout
    graph_ns, numpy_ns = out.split()[-2:]
    return int(graph_ns), int(numpy_ns)


def bench(which: str, settings, full_reps: int = 15) -> Row:
    reps = QUICK_REPS if settings.quick else settings.rounds(full_reps)
    runs = [_fresh_process(which) for _ in range(reps)]
    graph_ms = statistics.median(g for g, _ in runs) / 1e6
    numpy_us = statistics.median(n for _, n in runs) / 1e3
    target = TARGET_MS[which]
    note = (f"{reps} fresh processes; min {min(g for g, _ in runs) / 1e6:.2f} ms, "
            f"max {max(g for g, _ in runs) / 1e6:.2f} ms; convert + trace + compile + first "
            f"run; numpy column = the first eager call")
    return Row(NAMES[which], numpy_us, graph_ms * 1e3, f"{graph_ms:.2f} ms",
               f"<= {target:g} ms", graph_ms <= target, note)


def run(settings) -> list[Row]:
    return [bench("lstm", settings), bench("fifty", settings)]


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    start = time.perf_counter()
    rows = run(settings)
    report("First call in a fresh process: ag.convert(fn)(*args) vs the eager first call",
           rows, settings, time.perf_counter() - start)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2])
    else:
        main()
