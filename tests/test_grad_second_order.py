"""Second derivatives through staged loops: the gradient of a gradient.

The first gradient's backward loop pops what its forward loop pushed; a
stack's cotangent is a stack of cotangents (`runtime/autodiff/stack.py`).
Each second derivative is checked against central finite differences of the
first gradient (float64), and every graph traced passes the verifier.
"""
from __future__ import annotations

import numpy as np
import pytest
from gradcheck import float_positions, numerical_grad
from test_grad_control_flow import (
    X,
    branch_in_loop,
    early_return,
    growing,
    loop,
    loop_captures_weights,
    loop_in_branch,
    nested_loops,
    with_break,
    with_continue,
)

import autograph as ag


def until_large(x):
    """A loop whose trip count depends on the data."""
    while np.sum(x * x) < 20.0:
        x = x * 1.3 + np.sin(x)
    return np.sum(np.cos(x))


def nested_for(w, x, n):
    h = x
    for i in range(n):
        for _ in range(i + 1):
            h = np.tanh(h @ w + x)
        h = h * 0.9
    return np.sum(h * h)


def loop_in_branch_in_loop(x, n):
    s = x
    for k in range(n):
        if np.sum(s) > 0.5:
            j = 0
            while j < k:
                s = np.sin(s) * 1.1
                j += 1
        else:
            s = s * s + 0.3
    return np.sum(s ** 3)


def break_when_large(x, n):
    i = 0
    while i < n:
        x = x * np.cos(x) + 0.5
        if np.max(x) > 1.0:
            break
        i += 1
    return np.sum(x ** 3)


W = np.eye(3) * 0.6 + 0.1

CASES = [
    pytest.param(loop, (X, np.int64(4)), id="while"),
    pytest.param(loop, (X, np.int64(0)), id="while-zero-trips"),
    pytest.param(until_large, (X,), id="data-dependent-trips"),
    pytest.param(branch_in_loop, (X * 0.1, np.int64(5)), id="cond-in-loop"),
    pytest.param(nested_loops, (X, np.int64(4)), id="nested-loops"),
    pytest.param(nested_for, (W, X, np.int64(3)), id="nested-for-captures"),
    pytest.param(loop_in_branch_in_loop, (X, np.int64(4)), id="loop-in-branch-in-loop"),
    pytest.param(loop_in_branch_in_loop, (X * 0.1, np.int64(4)), id="branch-in-loop-other"),
    pytest.param(loop_in_branch, (np.abs(X), np.int64(3)), id="loop-in-branch"),
    pytest.param(loop_in_branch, (-np.abs(X), np.int64(3)), id="loop-in-branch-not-taken"),
    pytest.param(with_break, (X, np.int64(10)), id="break"),
    pytest.param(break_when_large, (X, np.int64(10)), id="break-nonlinear"),
    pytest.param(break_when_large, (X * 0.1, np.int64(2)), id="no-break"),
    pytest.param(with_continue, (X, np.int64(6)), id="continue"),
    pytest.param(early_return, (X, np.int64(9)), id="early-return"),
    pytest.param(loop_captures_weights, (W, X, np.int64(3)), id="loop-captures"),
    pytest.param(growing, (X, np.int64(3)), id="growing-state"),
]


def weighted_gradient(fn, args, argnums, seed=1):
    """`sum(grad(fn)(*args)[i] * weights_i)`, summed over `argnums`, as a plain function."""
    rng = np.random.default_rng(seed)
    weights = [rng.uniform(0.5, 1.5, np.shape(args[i])) for i in argnums]
    first = ag.grad(fn, argnums=argnums)

    def total(*a):
        return sum(np.sum(g * w) for g, w in zip(first(*a), weights))
    return total


def check_second(fn, args, argnums=None, rtol=1e-5, atol=1e-6):
    argnums = float_positions(args) if argnums is None else tuple(argnums)
    total = weighted_gradient(fn, args, argnums)
    second = ag.grad(total, argnums=argnums)(*args)
    for i, got in zip(argnums, second):
        want = numerical_grad(total, args, i)
        assert got.shape == np.shape(args[i])
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                   err_msg=f"second derivative, argument {i}")


@pytest.mark.parametrize("fn, args", CASES)
def test_second_derivative_through_loops(fn, args):
    check_second(fn, args)


def test_only_part_of_the_first_gradient_is_differentiated():
    check_second(loop_captures_weights, (W, X, np.int64(3)), argnums=(0,))
    first = ag.grad(loop_captures_weights, argnums=(0, 1))
    second = ag.grad(lambda w, x, n: np.sum(first(w, x, n)[0]), argnums=1)
    want = numerical_grad(lambda w, x, n: np.sum(first(w, x, n)[0]), (W, X, np.int64(3)), 1)
    np.testing.assert_allclose(second(W, X, np.int64(3)), want, rtol=1e-5, atol=1e-6)


def test_hessian_of_a_scalar_loop_and_third_derivative():
    def cube_steps(x, n):
        i = 0
        while i < n:
            x = x * x * 0.5 + x
            i += 1
        return x

    d1 = ag.grad(cube_steps)
    d2 = ag.grad(d1)
    d3 = ag.grad(d2)
    x, n = np.float64(0.7), np.int64(3)
    np.testing.assert_allclose(d2(x, n), numerical_grad(d1, (x, n), 0), rtol=1e-6)
    np.testing.assert_allclose(d3(x, n), numerical_grad(d2, (x, n), 0), rtol=1e-5)


def test_one_trace_serves_every_trip_count():
    d2 = ag.grad(weighted_gradient(loop, (X, np.int64(0)), (0,)))
    for n in range(4):
        total = weighted_gradient(loop, (X, np.int64(n)), (0,))
        np.testing.assert_allclose(d2(X, np.int64(n)), numerical_grad(total, (X, np.int64(n)), 0),
                                   rtol=1e-5, atol=1e-6)
    assert d2.trace_count == 1


def test_value_and_gradient_mixed():
    """The loss reads the first gradient's value too (its loop's stack gets no cotangent)."""
    def only_value(x, n):
        return ag.value_and_grad(loop)(x, n)[0]

    def both(x, n):
        value, g = ag.value_and_grad(loop)(x, n)
        return value * np.sum(g * g)

    args = (X, np.int64(3))
    np.testing.assert_allclose(ag.grad(only_value)(*args), ag.grad(loop)(*args), rtol=1e-12)
    np.testing.assert_allclose(ag.grad(both)(*args), numerical_grad(both, args, 0),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", [loop, growing], ids=["while", "growing-state"])
def test_unknown_shapes(fn):
    """Traced for an unknown length: zeros of unknown shapes are made like their values."""
    args = (X, np.int64(3))
    total = weighted_gradient(fn, args, (0,))
    d2 = ag.grad(total).get_concrete_function(ag.TensorSpec((None,), np.float64),
                                              ag.TensorSpec((), np.int64))
    np.testing.assert_allclose(d2(*args), numerical_grad(total, args, 0), rtol=1e-5, atol=1e-6)
