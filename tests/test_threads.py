"""Graph functions called from many threads at once.

A barrier releases all threads together; no sleeps. Each thread records its
result and any exception; the main thread checks them against the eager oracle.
"""
import threading

import numpy as np

import autograph as ag
import autograph_runtime as runtime
from autograph_runtime import AbstractValue, GraphBuilder

N_THREADS = 8


def run_threads(n, work):
    """Runs `work(i)` in `n` threads released together; returns results, re-raises errors."""
    barrier = threading.Barrier(n)
    results, errors = [None] * n, []

    def target(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except BaseException as error:  # noqa: BLE001  (reported below)
            errors.append(error)
    threads = [threading.Thread(target=target, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def model(x, w):
    hidden = np.tanh(x @ w)
    return hidden.sum(axis=0) * 2 + hidden.max()


def test_one_signature_from_many_threads_traces_once():
    traced = []

    def f(x, w):
        traced.append(threading.get_ident())
        return model(x, w)
    g = ag.convert(f)
    rng = np.random.default_rng(5)
    inputs = [(rng.standard_normal((4, 3)), rng.standard_normal((3, 2))) for _ in range(N_THREADS)]
    results = run_threads(N_THREADS, lambda i: g(*inputs[i]))
    assert g.trace_count == 1 and len(traced) == 1
    for (x, w), got in zip(inputs, results):
        np.testing.assert_allclose(got, model(x, w), rtol=1e-12)


def test_four_signatures_from_many_threads_trace_once_each():
    g = ag.convert(model)
    shapes = [(1, 3), (2, 3), (5, 3), (7, 3)]
    rng = np.random.default_rng(6)
    w = rng.standard_normal((3, 2))
    inputs = [rng.standard_normal(shapes[i % 4]) for i in range(N_THREADS)]

    def work(i):
        return [g(inputs[i] * k, w) for k in range(5)]
    results = run_threads(N_THREADS, work)
    assert g.trace_count == 4
    for x, got in zip(inputs, results):
        for k, out in enumerate(got):
            np.testing.assert_allclose(out, model(x * k, w), rtol=1e-12)


def test_dtype_signatures_from_many_threads():
    g = ag.convert(lambda x: (x * 3).sum())
    dtypes = [np.float32, np.float64, np.int32, np.int64]
    inputs = [np.arange(6, dtype=dtypes[i % 4]) + i for i in range(N_THREADS)]
    results = run_threads(N_THREADS, lambda i: g(inputs[i]))
    assert g.trace_count == 4
    for x, got in zip(inputs, results):
        want = (x * 3).sum()
        assert got.dtype == want.dtype and got == want


def test_different_functions_trace_concurrently_with_correct_names():
    def make(k):
        def f(x):
            scaled = x * k
            return np.sin(scaled) + k
        return ag.convert(f)
    functions = [make(k) for k in range(N_THREADS)]

    def work(i):
        outs = [functions[i](np.arange(n, dtype=np.float64)) for n in range(1, 6)]
        return outs, str(functions[i].get_concrete_function(np.ones(1)).graph)
    results = run_threads(N_THREADS, work)
    for k, (outs, text) in enumerate(results):
        assert functions[k].trace_count == 5
        for n, out in enumerate(outs, start=1):
            x = np.arange(n, dtype=np.float64)
            np.testing.assert_allclose(out, np.sin(x * k) + k, rtol=1e-12)
        assert "scaled:f64[1] = multiply" in text


def test_graph_functions_calling_each_other_from_threads():
    inner = ag.convert(lambda x: np.exp(-x * x))
    outer = ag.convert(lambda x: inner(x) + inner(x + 1))
    inputs = [np.linspace(-2, 2, 3 + i % 2) for i in range(N_THREADS)]
    results = run_threads(N_THREADS, lambda i: outer(inputs[i]))
    for x, got in zip(inputs, results):
        np.testing.assert_allclose(got, np.exp(-x * x) + np.exp(-(x + 1) ** 2), rtol=1e-12)
    assert outer.trace_count == 2
    assert inner.trace_count == 2


def test_errors_in_one_thread_do_not_disturb_the_others():
    g = ag.convert(lambda x, n: np.reshape(x, (n, -1)).sum(axis=1))

    def work(i):
        if i % 2:
            try:
                g(np.ones(7), 2)  # 7 elements do not split into 2 rows
            except ValueError:
                return "failed"
            return "no error"
        return g(np.arange(8.0), 2)
    results = run_threads(N_THREADS, work)
    for i, got in enumerate(results):
        if i % 2:
            assert got == "failed"
        else:
            np.testing.assert_array_equal(got, [6.0, 22.0])


def test_graphs_compiled_and_dropped_in_many_threads():
    """Each compiled graph's source leaves linecache after the graph dies, whichever
    thread compiles next; threads doing so together must not trip over each other."""
    with GraphBuilder("tiny") as builder:
        x = builder.new_input(AbstractValue((2,), np.float64), "x")
        y = x + 1.0
    graph = builder.build([y])

    def work(i):
        for _ in range(300):
            fn = runtime.compile_graph(graph, runtime.get_backend("cpu"))
            del fn
        return i
    assert run_threads(N_THREADS, work) == list(range(N_THREADS))
