"""Gradient benchmark: backpropagation through time of the LSTM cell.

  (h) grad_lstm_100_steps   the gradient (weights W, U, b) of sum(h) after the 10-unit
                            LSTM cell of (a) ran over a staged loop of 100 steps, by
                            `ag.grad`, vs hand-written NumPy backpropagation through
                            time (forward loop keeping a cache, backward loop);
                            target ratio <= 2

Run:  python bench/grad_lstm.py [--quick]
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from common import Row, compare, parse_args, report  # noqa: E402
from lstm import lstm_cell, make_inputs  # noqa: E402

import autograph as ag  # noqa: E402

NAME = "grad_lstm_100_steps"
TARGET_RATIO = 2.0
STEPS = 100


def lstm_loss(xs, h, c, w, u, b, steps):
    """sum(h) after `steps` steps of the cell: what `ag.grad` differentiates."""
    for t in range(steps):
        h, c = lstm_cell(xs[t], h, c, w, u, b)
    return np.sum(h)


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def lstm_bptt(xs, h, c, w, u, b):
    """Hand-written backpropagation through time: d sum(h_T) / d (w, u, b)."""
    cache = []
    for x in xs:
        i, f, g, o = np.split(x @ w + h @ u + b, 4, axis=1)
        i, f, o, g = sigmoid(i), sigmoid(f), sigmoid(o), np.tanh(g)
        c_new = f * c + i * g
        tanh_c = np.tanh(c_new)
        cache.append((x, h, c, i, f, g, o, tanh_c))
        h, c = o * tanh_c, c_new
    dh, dc = np.ones_like(h), np.zeros_like(c)
    dw, du, db = np.zeros_like(w), np.zeros_like(u), np.zeros_like(b)
    for x, h_prev, c_prev, i, f, g, o, tanh_c in reversed(cache):
        do = dh * tanh_c
        dc = dc + dh * o * (1 - tanh_c * tanh_c)
        dz = np.concatenate([dc * g * i * (1 - i), dc * c_prev * f * (1 - f),
                             dc * i * (1 - g * g), do * o * (1 - o)], axis=1)
        dc = dc * f
        dw += x.T @ dz
        du += h_prev.T @ dz
        db += dz.sum(axis=0)
        dh = dz @ u.T
    return dw, du, db


def make_args():
    x, h, c, w, u, b = make_inputs(10, 1)
    xs = np.random.default_rng(1).standard_normal((STEPS,) + x.shape).astype(np.float32)
    return xs, h, c, w, u, b


def bench_grad_lstm(settings) -> Row:
    args = make_args()
    gradient = ag.grad(lstm_loss, argnums=(3, 4, 5))
    steps = np.int64(STEPS)
    for got, want in zip(gradient(*args, steps), lstm_bptt(*args)):
        assert got.dtype == want.dtype == np.float32, (got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    result = compare({"numpy": (lstm_bptt, args), "graph": (gradient, args + (steps,))},
                     rounds=settings.rounds(40), round_ms=settings.round_ms)
    ratio = result.median_ratio("graph", "numpy")
    note = (f"{STEPS} steps, gradients of W, U, b; one trace (traced {gradient.trace_count}x); "
            f"{result.spread_text()}")
    return Row(NAME, result["numpy"].median_us, result["graph"].median_us, f"{ratio:.3f}x",
               f"<= {TARGET_RATIO:g}x", ratio <= TARGET_RATIO, note)


def run(settings) -> list[Row]:
    return [bench_grad_lstm(settings)]


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    start = time.perf_counter()
    rows = run(settings)
    report("Gradients: hand-written backpropagation through time vs ag.grad", rows, settings,
           time.perf_counter() - start)


if __name__ == "__main__":
    main()
