"""Gradients with respect to Variables of functions with no array arguments (issue #12).

A graph function called while tracing with no traced argument ran its graph at
once, so the Variables it read came out as constants and every gradient with
respect to them was silently zero. Each gradient here is checked against
central differences of the eager function.
"""
import numpy as np
import pytest

import autograph as ag
from gradcheck import numerical_grad

X = np.array([[1.0, 2.0], [3.0, 4.0]])
W0 = np.array([1.0, -1.0])


def _numerical(loss, w, *args):
    """d loss(*args) / d w by central differences, `w` set eagerly."""
    start = w.numpy()

    def at(value, *rest):
        w.assign(value)
        return loss(*rest)
    try:
        return numerical_grad(at, [start, *args], 0)
    finally:
        w.assign(start)


def test_grad_of_a_function_with_no_arguments_is_the_true_gradient():
    w = ag.Variable(W0)

    def loss():
        return ((X @ w) ** 2).sum()
    (g,) = ag.grad(loss, wrt=[w])()
    np.testing.assert_allclose(g, 2 * X.T @ X @ W0)
    np.testing.assert_allclose(g, _numerical(loss, w), rtol=1e-6)


def test_value_and_grad_with_no_arguments():
    w = ag.Variable(W0)

    def loss():
        return np.sum(np.tanh(X @ w) ** 2)
    value, (g,) = ag.value_and_grad(loss, wrt=[w])()
    np.testing.assert_allclose(value, loss())
    np.testing.assert_allclose(g, _numerical(loss, w), rtol=1e-6)


def test_has_aux_with_no_arguments():
    w = ag.Variable(W0)

    def loss():
        y = X @ w
        return (y ** 2).sum(), y
    (g,), aux = ag.grad(loss, wrt=[w], has_aux=True)()
    np.testing.assert_allclose(aux, X @ W0)
    np.testing.assert_allclose(g, _numerical(lambda: loss()[0], w), rtol=1e-6)


@pytest.mark.parametrize("scale", [0.5, 3])
def test_grad_of_a_function_of_python_values_only(scale):
    w = ag.Variable(W0)

    def loss(scale):
        return scale * np.sum(np.sin(X @ w))
    (g,) = ag.grad(loss, wrt=[w])(scale)
    np.testing.assert_allclose(g, _numerical(loss, w, scale), rtol=1e-6)


def test_grad_with_no_arguments_inside_a_graph_function_sees_the_current_value():
    w = ag.Variable(W0)

    def loss():
        return ((X @ w) ** 2).sum()
    step = ag.convert(lambda: ag.grad(loss, wrt=[w])()[0])
    np.testing.assert_allclose(step(), 2 * X.T @ X @ W0)
    w.assign(np.array([2.0, 0.5]))
    np.testing.assert_allclose(step(), 2 * X.T @ X @ np.array([2.0, 0.5]))
    assert step.trace_count == 1


def test_a_graph_function_with_no_arguments_called_while_tracing_is_staged():
    """Its Variable reads happen when the outer graph runs, not while it is traced."""
    w = ag.Variable(W0)
    inner = ag.convert(lambda: (X @ w).sum())
    outer = ag.convert(lambda x: inner() * x)
    np.testing.assert_allclose(outer(np.float64(2.0)), 2 * (X @ W0).sum())
    w.assign(np.array([0.0, 1.0]))
    np.testing.assert_allclose(outer(np.float64(2.0)), 2 * (X @ np.array([0.0, 1.0])).sum())


def test_second_order_with_no_arguments():
    w = ag.Variable(W0)

    def loss():
        return np.sum((X @ w) ** 3)

    def grad_norm():
        (g,) = ag.grad(loss, wrt=[w])()
        return np.sum(g ** 2)
    (h,) = ag.grad(grad_norm, wrt=[w])()
    np.testing.assert_allclose(h, _numerical(grad_norm, w), rtol=1e-5)
