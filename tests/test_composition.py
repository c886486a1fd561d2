"""Graph functions calling graph functions: `call` equations and shared caches."""
import numpy as np
import pytest

import autograph as ag
from autograph_runtime import cond, while_loop
from autograph_runtime.verify import verify


def dense(x, w, b):
    hidden = x @ w + b
    return np.maximum(hidden, 0)


def two_layers(x, p):
    h = dense_g(x, p["w1"], p["b1"])
    return dense_g(h, p["w2"], p["b2"]).sum(axis=1)


dense_g = ag.convert(dense)


def params(rng):
    return {"w1": rng.standard_normal((4, 8)), "b1": rng.standard_normal(8),
            "w2": rng.standard_normal((8, 3)), "b2": rng.standard_normal(3)}


def eager_two_layers(x, p):
    return dense(dense(x, p["w1"], p["b1"]), p["w2"], p["b2"]).sum(axis=1)


def test_inner_graph_function_is_a_call_equation():
    outer = ag.convert(two_layers)
    rng = np.random.default_rng(7)
    p, x = params(rng), rng.standard_normal((5, 4))
    np.testing.assert_allclose(outer(x, p), eager_two_layers(x, p), rtol=1e-12)
    graph = outer.get_concrete_function(x, p).graph
    verify(graph)
    text = str(graph)
    assert text.count("= call ") == 2, text
    assert "matmul" in text  # the callee's body is printed under its call


def test_inner_cache_is_used_and_shared_with_eager_calls():
    inner = ag.convert(lambda x: np.tanh(x) * 3)
    outer = ag.convert(lambda x: inner(inner(x) + 1))
    x = np.linspace(-1, 1, 4)
    np.testing.assert_allclose(outer(x), np.tanh(np.tanh(x) * 3 + 1) * 3, rtol=1e-12)
    assert inner.trace_count == 1  # both calls have the signature f64[4]
    np.testing.assert_allclose(inner(x), np.tanh(x) * 3, rtol=1e-12)
    assert inner.trace_count == 1
    outer(x * 2)
    assert (inner.trace_count, outer.trace_count) == (1, 1)
    outer(np.ones(5))
    assert (inner.trace_count, outer.trace_count) == (2, 2)


def test_inner_traced_before_outer_is_not_retraced():
    inner = ag.convert(lambda x, k: x * k)
    inner(np.ones(3, np.float32), 2)
    outer = ag.convert(lambda x: inner(x, 2) - inner(x, 3))
    np.testing.assert_array_equal(outer(np.arange(3, dtype=np.float32)),
                                  np.arange(3, dtype=np.float32) * -1)
    assert inner.trace_count == 2  # k=2 reused, k=3 is new


def test_inner_with_python_and_structured_results():
    inner = ag.convert(lambda x: {"y": x * 2, "n": x.ndim, "tag": "inner"})

    def outer_fn(x):
        out = inner(x)
        return out["y"] + out["n"], out["tag"]
    outer = ag.convert(outer_fn)
    x = np.ones((2, 2), np.float32)
    got, tag = outer(x)
    want, want_tag = outer_fn(x)
    assert tag == want_tag == "inner"
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_array_equal(got, want)


def test_three_levels_of_calls():
    a = ag.convert(lambda x: x + 1)
    b = ag.convert(lambda x: a(x) * 2)
    c = ag.convert(lambda x: b(x) - a(x))
    x = np.arange(4.0)
    np.testing.assert_array_equal(c(x), (x + 1) * 2 - (x + 1))
    graph = c.get_concrete_function(x).graph
    verify(graph)
    assert str(graph).count("= call ") == 3
    assert a.trace_count == b.trace_count == c.trace_count == 1


def test_inner_with_input_signature_called_in_trace():
    inner = ag.convert(lambda x: x.sum(axis=1),
                       input_signature=[ag.TensorSpec((None, 2), np.float64)])
    outer = ag.convert(lambda x: inner(x) * 10)
    for n in (1, 3):
        x = np.arange(2.0 * n).reshape(n, 2)
        np.testing.assert_array_equal(outer(x), x.sum(axis=1) * 10)
    assert inner.trace_count == 1 and outer.trace_count == 2
    with pytest.raises(ValueError, match="'x'"):
        outer(np.ones((2, 3)))


def test_method_called_inside_another_graph_function():
    class Layer:
        def __init__(self, w):
            self.w = w

        @ag.convert
        def __call__(self, x):
            return x @ self.w

    layer = Layer(np.eye(3) * 2)
    outer = ag.convert(lambda x: layer(x) + 1)
    x = np.arange(3.0)
    np.testing.assert_array_equal(outer(x), x @ (np.eye(3) * 2) + 1)
    assert "= call " in str(outer.get_concrete_function(x).graph)


def test_calls_inside_cond_branches():
    inner = ag.convert(lambda x: np.sqrt(np.abs(x)))

    def f(x):
        return cond(x.sum() > 0, lambda v: inner(v) * 2, lambda v: -inner(v), x)

    def eager(x):
        return np.sqrt(np.abs(x)) * 2 if x.sum() > 0 else -np.sqrt(np.abs(x))
    g = ag.convert(f)
    for x in (np.array([1.0, 4.0]), np.array([-9.0, 1.0])):
        np.testing.assert_allclose(g(x), eager(x), rtol=1e-12)
    assert g.trace_count == 1
    graph = g.get_concrete_function(np.ones(2)).graph
    verify(graph)
    text = str(graph)
    assert "= cond " in text and text.count("= call ") == 2


def test_calls_inside_a_while_loop():
    step = ag.convert(lambda v: v * 0.5 + 1)

    def f(x, n):
        _, out = while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, step(s[1])),
                            (np.int64(0), x))
        return out

    def eager(x, n):
        for _ in range(int(n)):
            x = x * 0.5 + 1
        return x
    g = ag.convert(f)
    x = np.array([0.0, 8.0])
    for n in (0, 1, 5):
        np.testing.assert_allclose(g(x, np.int64(n)), eager(x, n), rtol=1e-12)
    assert g.trace_count == 1
    verify(g.get_concrete_function(x, np.int64(3)).graph)
