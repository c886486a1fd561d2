"""Scaling tables: the LSTM cell by hidden size and batch, its staged loop by length.

Each row times, interleaved in one process (`common.compare`), hand-written NumPy
(the baseline: its median µs, ratio 1), the same function under
`ag.convert(tier="numpy")` and `ag.convert(tier="native")`, and, where installed,
the same Python compiled by hand with `numba.njit`, `jax.jit` of its jax.numpy
twin, and `tf.function` of its TensorFlow twin without and with XLA (`native_tier.py`'s
`PEERS`; "-" where the library is missing). Ratios are medians of per-round ratios
to NumPy; lower is faster.

- cell: `lstm.lstm_cell` (float32) at hidden size 10, 32, 128 and 512, batch 1 and 64;
- loop: the 10-unit batch-1 cell over a staged loop (`control_flow.lstm_sequence_staged`,
  one graph whatever the length) of 10, 100, 1,000 and 10,000 steps, against the
  Python loop calling the hand-written cell.

Every tier's result is checked against NumPy's first. Rows of larger work run fewer
rounds, so a full run takes about a minute on 2 cores (each native row waits for
Numba once: seconds, about 1 s with a warm disk cache); `--quick` runs the smallest
two rows of each table. Run: `python bench/scaling.py [--quick]`.

BLAS runs one thread (`OPENBLAS_NUM_THREADS=1` and the like, unless set): on the
2-core machine of bench/RESULTS.md, shared with other work, OpenBLAS's second thread
made hand-written NumPy's 128-unit batch-64 cell take anywhere from 0.5 to 30 ms
from one process to the next, against 0.25-0.3 ms on one thread. TensorFlow's
thread pools get the same count (`tf_peer.py`).
"""
from __future__ import annotations

import os
import sys
import time
import warnings

for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")   # before NumPy loads its BLAS

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import autograph as ag  # noqa: E402
from common import compare, machine_line, parse_args  # noqa: E402
from control_flow import lstm_sequence, lstm_sequence_staged  # noqa: E402
from lstm import lstm_cell, make_inputs  # noqa: E402
from native_tier import PEERS, check, columns, missing_note, peer_contenders, peers  # noqa: E402

HIDDEN = (10, 32, 128, 512)
BATCHES = (1, 64)
LENGTHS = (10, 100, 1_000, 10_000)
HEADER = ["numpy µs", "numpy tier", "native", *PEERS]


def cell_cases():
    """(row name, rounds of a full run, eager args, staged args) of the cell table."""
    for units in HIDDEN:
        for batch in BATCHES:
            args = make_inputs(units, batch)
            yield f"{units}u batch {batch}", 50 if units < 512 else 20, args, args


def loop_cases():
    x, h, c, w, u, b = make_inputs(10, 1)
    for steps in LENGTHS:
        xs = np.repeat(x[None], steps, axis=0)
        rounds = {10: 50, 100: 50, 1_000: 25}.get(steps, 9)
        yield (f"{steps:,} steps", rounds, (xs, h, c, w, u, b),
               (xs, h, c, w, u, b, np.int64(steps)))


def table(settings, title, eager, staged, cases, peer_key, peers_) -> str:
    numpy_tier = ag.convert(staged, tier="numpy")
    native = ag.convert(staged, tier="native")
    rows, notes = [], []
    for k, (name, rounds, eager_args, args) in enumerate(cases):
        if settings.quick and k >= 2:
            break
        want = eager(*eager_args)
        contenders = {"numpy": (eager, eager_args), "numpy tier": (numpy_tier, args),
                      "native": (native, args), **peer_contenders(peers_, peer_key, eager_args)}
        for label, (fn, fn_args) in contenders.items():   # each one checked, and warm
            check(f"{title} {name}: {label}", fn(*fn_args), want)
        result = compare(contenders, rounds=settings.rounds(rounds), round_ms=settings.round_ms)
        concrete = native.get_concrete_function(*args)
        cells = [name, f"{result['numpy'].median_us:,.1f}"]
        for contender in HEADER[1:]:
            cells.append(f"{result.median_ratio(contender, 'numpy'):.3f}x"
                         if contender in contenders else "-")
        if concrete.tier != "native":
            cells[3] += " *"
            notes.append(f"  * {name}: runs on the NumPy tier: {concrete.tier_reason}")
        rows.append(cells)
    return "\n".join([columns([title, *HEADER], rows), *notes])


def run(settings) -> str:
    warnings.simplefilter("ignore", ag.RetracingWarning)   # one graph per size, on purpose
    peers_ = peers()
    cells = table(settings, "cell (float32)", lstm_cell, lstm_cell, cell_cases(), "cell", peers_)
    loops = table(settings, "10u cell, staged loop", lstm_sequence, lstm_sequence_staged,
                  loop_cases(), "loop", peers_)
    return "\n\n".join([cells, loops, *missing_note(peers_)])


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    start = time.perf_counter()
    print("scaling: ratios to hand-written NumPy (median of interleaved rounds; lower is "
          "faster)" + (" (--quick: smoke run, numbers not meaningful)" if settings.quick else "")
          + "\n")
    print(run(settings))
    print(f"\n{machine_line()}\ntotal benchmark time: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
