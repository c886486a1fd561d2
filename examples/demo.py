"""A tour in one run: convert an LSTM cell, show its graph and code, time it.

    python examples/demo.py
"""
import time

import numpy as np

import autograph as ag
import runtime


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def lstm_cell(x, h, c, w, u, b):
    gates = x @ w + h @ u + b
    i, f, o, g = np.split(gates, 4, axis=1)
    c_next = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h_next = sigmoid(o) * np.tanh(c_next)
    return h_next, c_next


def running_max(x, n):
    """`runtime.while_loop` directly: a staged loop, one trace for every n."""
    def body(state):
        i, best = state
        return i + 1, np.maximum(best, x[i])
    return runtime.while_loop(lambda s: s[0] < n, body, (0, x[0]))[1]


def median_us(fn, args, repeat=2000):
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        fn(*args)
        times.append(time.perf_counter_ns() - start)
    return np.median(times) / 1e3


def main():
    rng = np.random.default_rng(0)
    units = 10
    args = [rng.standard_normal(s).astype(np.float32) for s in
            [(1, units), (1, units), (1, units), (units, 4 * units), (units, 4 * units), (4 * units,)]]

    cell = ag.convert(lstm_cell)
    h, c = cell(*args)
    h_ref, c_ref = lstm_cell(*args)
    print("== the graph traced from lstm_cell (names are the function's own) ==")
    print(cell.get_concrete_function(*args).graph)
    print("\n== the Python it compiles to ==")
    print(cell.get_concrete_function(*args).source)
    print(f"same as eager NumPy: {np.allclose(h, h_ref) and np.allclose(c, c_ref)} "
          f"(dtype {h.dtype}); traced {cell.trace_count} time(s)")
    eager, graph = median_us(lstm_cell, args), median_us(cell, args)
    print(f"median per call: eager NumPy {eager:.1f} µs, graph {graph:.1f} µs "
          f"(ratio {graph / eager:.2f})")

    loop = ag.convert(running_max)
    x = rng.standard_normal(8)
    print("\n== a staged while_loop ==")
    print(loop.get_concrete_function(x, np.int64(5)).graph)
    for n in (3, 8):
        print(f"running_max(x, {n}) = {loop(x, np.int64(n)):.4f} "
              f"(NumPy: {x[:n].max():.4f}), traced {loop.trace_count} time(s)")


if __name__ == "__main__":
    main()
