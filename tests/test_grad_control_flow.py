"""Gradients through staged control flow, the API's options and its errors.

Every gradient is checked against central finite differences of the plain
NumPy function (float64), and every graph traced passes the verifier.
"""
from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_grad, numerical_grad

import autograph as ag
from autograph_runtime.autodiff.stack import stack_pop_p, stack_push_p

X = np.array([0.3, -0.7, 1.1])


def branch(x):
    if x.sum() > 0:
        y = np.sin(x) * x
    else:
        y = x ** 3 - x
    return y.sum()


def loop(x, n):
    i = 0
    while i < n:
        x = np.tanh(x) * 1.5 + 0.1
        i += 1
    return np.sum(x * x)


def branch_in_loop(x, n):
    s = x
    for _ in range(n):
        if s.sum() > 1.0:
            s = s * 0.5
        else:
            s = np.sin(s) + x
    return (s ** 2).sum()


def nested_loops(x, n):
    total = 0.0
    i = 0
    while i < n:
        j = 0
        while j < i:
            total = total + np.sum(np.cos(x * j))
            j += 1
        x = x * 0.9
        i += 1
    return total


def loop_in_branch(x, n):
    if x[0] > 0:
        while n > 0:
            x = x * np.exp(-x)
            n -= 1
    else:
        x = x * 2
    return x.sum()


def with_break(x, n):
    i = 0
    while i < n:
        x = x * 1.3 - 0.2
        if np.max(x) > 2.0:
            break
        i += 1
    return x.sum()


def with_continue(x, n):
    acc = x * 0
    for i in range(n):
        if i % 2 == 0:
            continue
        acc = acc + np.sin(x * i)
    return acc.sum()


def early_return(x, n):
    i = 0
    while i < n:
        x = np.sqrt(x * x + 1.0)
        if x[0] > 3.0:
            return x.sum() * 2
        i += 1
    return x.sum()


def loop_captures_weights(w, x, n):
    h = x
    for _ in range(n):
        h = np.tanh(h @ w)
    return np.sum(h)


def growing(x, n):
    out = x
    for _ in range(n):
        out = np.concatenate([out, np.sin(out[-1:])])
    return np.sum(out * out)


CASES = [
    pytest.param(branch, (X,), id="cond-true"),
    pytest.param(branch, (-X - 1,), id="cond-false"),
    pytest.param(loop, (X, np.int64(4)), id="while"),
    pytest.param(loop, (X, np.int64(0)), id="while-zero-trips"),
    pytest.param(branch_in_loop, (X * 0.1, np.int64(5)), id="cond-in-loop"),
    pytest.param(nested_loops, (X, np.int64(4)), id="nested-loops"),
    pytest.param(loop_in_branch, (np.abs(X), np.int64(3)), id="loop-in-branch"),
    pytest.param(loop_in_branch, (-np.abs(X), np.int64(3)), id="loop-in-branch-not-taken"),
    pytest.param(with_break, (X, np.int64(10)), id="break"),
    pytest.param(with_continue, (X, np.int64(6)), id="continue"),
    pytest.param(early_return, (X, np.int64(9)), id="early-return"),
    pytest.param(early_return, (X * 0.1, np.int64(2)), id="no-early-return"),
    pytest.param(loop_captures_weights, (np.eye(3) * 0.8 + 0.1, X, np.int64(3)),
                 id="loop-captures"),
    pytest.param(growing, (X, np.int64(3)), id="growing-state"),
]


@pytest.mark.parametrize("fn, args", CASES)
def test_gradient_through_control_flow(fn, args):
    check_grad(fn, *args, autograph=True)


def test_one_trace_serves_every_trip_count():
    g = ag.grad(loop)
    for n in range(4):
        np.testing.assert_allclose(g(X, np.int64(n)),
                                   numerical_grad(loop, (X, np.int64(n)), 0), rtol=1e-6)
    assert g.trace_count == 1


def test_loop_saves_per_iteration_values_on_a_stack():
    graph = ag.grad(loop).get_concrete_function(X, np.int64(3)).graph
    names = [e.primitive for e in graph.all_eqns()]
    assert names.count(stack_push_p) == 1 and names.count(stack_pop_p) == 1


def test_float32_in_float32_out():
    x = X.astype(np.float32)
    w = (np.eye(3) * 0.5).astype(np.float32)
    gw, gx = ag.grad(loop_captures_weights, argnums=(0, 1))(w, x, np.int64(3))
    assert gw.dtype == gx.dtype == np.float32
    want = numerical_grad(loop_captures_weights, (w.astype(np.float64), X, np.int64(3)), 0)
    np.testing.assert_allclose(gw, want, rtol=1e-4, atol=1e-5)


# -- the API --------------------------------------------------------------------------------
def test_value_and_grad_has_aux_argnums():
    def f(w, x):
        y = np.tanh(x @ w)
        return np.sum(y ** 2), {"y": y, "label": "fit"}

    w, x = np.ones((3, 2)) * 0.1, np.arange(6.0).reshape(2, 3) / 6
    (value, aux), (gw, gx) = ag.value_and_grad(f, argnums=(0, 1), has_aux=True)(w, x)
    np.testing.assert_allclose(value, f(w, x)[0])
    np.testing.assert_allclose(aux["y"], f(w, x)[1]["y"])
    assert aux["label"] == "fit"
    np.testing.assert_allclose(gw, numerical_grad(lambda w, x: f(w, x)[0], (w, x), 0), rtol=1e-6)
    np.testing.assert_allclose(gx, numerical_grad(lambda w, x: f(w, x)[0], (w, x), 1), rtol=1e-6)
    grads, aux = ag.grad(f, has_aux=True)(w, x)
    np.testing.assert_allclose(grads, gw)


def test_nested_structures_get_gradients_of_the_same_structure():
    def f(params, x):
        return np.sum(np.tanh(x @ params["w"] + params["b"]))

    params = {"w": np.ones((3, 2)) * 0.2, "b": np.array([0.1, -0.1])}
    g = ag.grad(f)(params, X)
    assert set(g) == {"w", "b"}
    for key in g:
        def by_key(v, key=key):
            return f({**params, key: v}, X)
        np.testing.assert_allclose(g[key], numerical_grad(by_key, (params[key],), 0), rtol=1e-6)


def test_cached_per_signature():
    g = ag.grad(branch)
    g(X)
    g(X + 1)
    g(X.astype(np.float32))
    assert g.trace_count == 2


def test_grad_inside_a_converted_function_and_second_derivatives():
    def f(x):
        return np.sum(np.sin(x) * x ** 2)

    @ag.convert
    def step(x):
        return x - 0.1 * ag.grad(f)(x)

    np.testing.assert_allclose(step(X), X - 0.1 * numerical_grad(f, (X,), 0), rtol=1e-6)
    second = ag.grad(lambda x: np.sum(ag.grad(f)(x)))
    want = numerical_grad(lambda x: np.sum(ag.grad(f)(x)), (X,), 0)
    np.testing.assert_allclose(second(X), want, rtol=1e-5)


def test_second_derivative_through_cond():
    def f(x):
        if x > 0:
            y = x ** 3
        else:
            y = np.sin(x)
        return y

    d2 = ag.grad(ag.grad(f))
    assert np.isclose(d2(np.float64(2.0)), 12.0)
    assert np.isclose(d2(np.float64(-1.0)), -np.sin(-1.0))


def test_second_derivative_through_while():
    """More in tests/test_grad_second_order.py."""
    first = ag.grad(loop)
    d2 = ag.grad(lambda x, n: np.sum(first(x, n)))
    want = numerical_grad(lambda x, n: np.sum(first(x, n)), (X, np.int64(3)), 0)
    np.testing.assert_allclose(d2(X, np.int64(3)), want, rtol=1e-5, atol=1e-6)


def test_print_and_assert_run_in_the_forward_pass(capsys):
    def f(x):
        print("x =", x)
        assert np.all(x > -5), "too small"
        return np.sum(x * x)

    np.testing.assert_allclose(ag.grad(f)(X), 2 * X)
    assert capsys.readouterr().out == f"x = {X}\n"


# -- errors ---------------------------------------------------------------------------------
def test_non_scalar_output_is_an_error():
    with pytest.raises(TypeError, match=r"one floating-point scalar.*f64\[3\]"):
        ag.grad(lambda x: x * 2)(X)


def test_integer_input_is_an_error():
    with pytest.raises(TypeError, match="only floating-point arrays have gradients"):
        ag.grad(lambda n: np.sum(n * 2.0))(np.arange(3))


def test_python_float_argument_is_an_error():
    with pytest.raises(TypeError, match="a Python float"):
        ag.grad(lambda x, y: np.sum(x * y), argnums=1)(X, 2.0)


def test_argnums_out_of_range():
    with pytest.raises(ValueError, match="argnums 2 is out of range"):
        ag.grad(lambda x: np.sum(x), argnums=2)(X)


def test_no_gradient_through_py_function():
    def f(x):
        y = ag.py_function(np.sort, x, out=ag.TensorSpec((3,), np.float64))
        return np.sum(y * x)

    with pytest.raises(ag.TracingError, match="py_function 'sort' has no gradient"):
        ag.grad(f)(X)
