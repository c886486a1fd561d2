"""Runs every benchmark and prints one table: (a) LSTM step 10 units, (b) LSTM step 512
units, (c) call overhead of `x + 1`, (d) first-call cost of the small LSTM step,
(e) converting a 50-line function, (f) a staged scalar while loop of 1,000 steps,
(g) the small LSTM cell over a staged loop of 100 steps, (h) the gradient of (g) by `ag.grad`
against hand-written backpropagation through time, (i) and (j) the first call of (g)'s loop and
of (e)'s function, never converted before, each in a fresh process, (k) tracing an
unrolled loop of 10,000 steps against 1,000. A full run then prints `scaling.py`'s
tables (the cell by hidden size, its staged loop by length, on both tiers and
against the peers; about a minute more); `--quick` leaves them out.

Run:  python bench/run_all.py [--quick]
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import call_overhead  # noqa: E402
import control_flow  # noqa: E402
import fresh_first_call  # noqa: E402
import grad_lstm  # noqa: E402
import lstm  # noqa: E402
import tracing_scale  # noqa: E402
from common import parse_args, report  # noqa: E402

SCALING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scaling.py")


def main(argv=None):
    settings = parse_args("Runs every autograph benchmark; prints one table.", argv)
    t0 = time.perf_counter()
    rows = [
        lstm.bench_small(settings),            # (a)
        lstm.bench_large(settings),            # (b)
        call_overhead.bench_add_one(settings), # (c)
        lstm.bench_first_call(settings),       # (d)
        *control_flow.run(settings),           # (e), (f), (g)
        *grad_lstm.run(settings),              # (h)
        *fresh_first_call.run(settings),       # (i), (j)
        *tracing_scale.run(settings),          # (k)
    ]
    report("autograph benchmarks: hand-written NumPy vs ag.convert, medians of interleaved "
           "rounds", rows, settings, time.perf_counter() - t0)
    if not settings.quick:   # tests/test_bench_smoke.py runs `scaling.py --quick` alone
        print(flush=True)    # a process of its own: it sets BLAS to one thread first
        subprocess.run([sys.executable, SCALING, *(sys.argv[1:] if argv is None else argv)],
                       check=True)


if __name__ == "__main__":
    main()
