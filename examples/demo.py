"""A tour in one run: convert Python control flow, show the graph, time it.

    python examples/demo.py
"""
import time

import numpy as np
import train_mlp  # examples/train_mlp.py, beside this file

import autograph as ag


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def lstm_cell(x, h, c, w, u, b):
    gates = x @ w + h @ u + b
    i, f, o, g = np.split(gates, 4, axis=1)
    c_next = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h_next = sigmoid(o) * np.tanh(c_next)
    return h_next, c_next


def run_lstm(xs, h, c, w, u, b, steps):
    for t in range(steps):
        h, c = lstm_cell(xs[t], h, c, w, u, b)
    return h


def median_us(fn, args, repeat=300):
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        fn(*args)
        times.append(time.perf_counter_ns() - start)
    return np.median(times) / 1e3


def main():
    print("== collatz, as autograph rewrites it (ag.to_code) ==")
    print(ag.to_code(collatz))
    graph_collatz = ag.convert(collatz)
    for n in (27, 97, 871):
        print(f"collatz({n}) = {graph_collatz(np.int64(n))}  (Python: {collatz(n)})")
    print(f"traced {graph_collatz.trace_count} time: the loop and the branch are staged")
    print("\n== its graph ==")
    print(graph_collatz.get_concrete_function(np.int64(27)).graph)

    rng = np.random.default_rng(0)
    units, steps = 10, 100
    xs = rng.standard_normal((steps, 1, units)).astype(np.float32)
    h = np.zeros((1, units), np.float32)
    c = np.zeros((1, units), np.float32)
    w, u = (rng.standard_normal((units, 4 * units)).astype(np.float32) * 0.3 for _ in range(2))
    b = np.zeros(4 * units, np.float32)
    args = (xs, h, c, w, u, b, np.int64(steps))

    graph_lstm = ag.convert(run_lstm)
    same = np.allclose(graph_lstm(*args), run_lstm(xs, h, c, w, u, b, steps), atol=1e-6)
    eager, graph = median_us(run_lstm, (xs, h, c, w, u, b, steps)), median_us(graph_lstm, args)
    print(f"\n== an LSTM cell over a staged loop of {steps} steps ==")
    print(f"same as eager NumPy: {same}; median per call: eager {eager:.0f} µs, "
          f"graph {graph:.0f} µs (ratio {graph / eager:.2f}); traced {graph_lstm.trace_count}x")

    print("\n== training an MLP: one converted train step, ag.value_and_grad(wrt=Variables) ==")
    train_mlp.train(steps=300, report_every=50)


if __name__ == "__main__":
    main()
