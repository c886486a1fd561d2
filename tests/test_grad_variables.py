"""Gradients with respect to `Variable`s (`wrt=`), and the training example built on them."""
import os
import sys

import numpy as np
import pytest

import autograph as ag


def numeric_grad(fn, variable, eps=1e-6):
    """Central finite differences of `fn()` in each element of `variable`."""
    base = variable.numpy()
    out = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        step = np.zeros_like(base)
        step[index] = eps
        variable.assign(base + step)
        plus = fn()
        variable.assign(base - step)
        minus = fn()
        out[index] = (plus - minus) / (2 * eps)
    variable.assign(base)
    return out


W = ag.Variable(np.array([[0.5, -1.0], [1.5, 0.25]]), name="W")
B = ag.Variable(np.array([0.1, -0.2]), name="B")
UNUSED = ag.Variable(np.ones(3), name="unused")
X = np.array([[0.3, -0.7], [1.1, 0.4]])


def loss_with_control_flow(x):
    h = np.tanh(x @ W + B)
    total = 0.0
    i = 0
    while i < 3:                               # a staged loop reading B each trip
        if h.sum() > 0:                        # a staged branch
            total = total + np.sum(h * B) * (i + 1)
        else:
            total = total - np.sum(h ** 2)
        i += 1
    return total


def read_twice(x):
    return np.sum(W * W) + np.sum(x @ W)


inner = ag.convert(lambda x: np.sum(np.sin(x @ W)))


def through_a_call(x):
    return inner(x) * 2 + np.sum(B)


@pytest.mark.parametrize("fn", [loss_with_control_flow, read_twice, through_a_call])
def test_variable_gradients_match_finite_differences(fn):
    grads = ag.grad(fn, wrt=[W, B, UNUSED])(X)
    assert isinstance(grads, list) and len(grads) == 3
    np.testing.assert_allclose(grads[0], numeric_grad(lambda: fn(X), W), rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(grads[1], numeric_grad(lambda: fn(X), B), rtol=1e-5, atol=1e-8)
    np.testing.assert_array_equal(grads[2], np.zeros(3))          # not read: zero


def test_arguments_and_variables_together():
    (value, (g_x, g_vars)) = ag.value_and_grad(read_twice, argnums=0, wrt=[W])(X)
    assert value == pytest.approx(read_twice(X))
    np.testing.assert_allclose(g_x, np.ones((2, 2)) @ W.numpy().T)
    np.testing.assert_allclose(g_vars[0], 2 * W.numpy() + X.T @ np.ones((2, 2)))


def test_has_aux_with_variables():
    def fn(x):
        return np.sum(x @ W), {"mean": np.mean(W)}
    grads, aux = ag.grad(fn, wrt=[W], has_aux=True)(X)
    np.testing.assert_allclose(grads[0], X.T @ np.ones((2, 2)))
    assert aux["mean"] == pytest.approx(W.numpy().mean())


def test_float32_variables_get_float32_gradients():
    v = ag.Variable(np.ones(3, np.float32))
    [g] = ag.grad(lambda x: np.sum(v * x), wrt=[v])(np.arange(3, dtype=np.float32))
    assert g.dtype == np.float32
    np.testing.assert_array_equal(g, [0, 1, 2])


def test_the_gradient_function_is_cached_and_follows_new_values():
    f = ag.grad(read_twice, wrt=[W])
    before = f(X)[0]
    W.assign(W.numpy() * 2)
    try:
        after = f(X)[0]
    finally:
        W.assign(W.numpy() / 2)
    np.testing.assert_allclose(after - before, 2 * W.numpy())     # read at run time
    assert f.trace_count == 1


def test_gradients_with_respect_to_a_written_variable_are_refused():
    v = ag.Variable(np.ones(2), name="state")

    def fn(x):
        v.assign_add(x)
        return np.sum(v * v)
    with pytest.raises(ag.TracingError, match="Variable 'state', which .* writes"):
        ag.grad(fn, wrt=[v])(np.ones(2))
    np.testing.assert_array_equal(v.numpy(), [1, 1])


@pytest.mark.parametrize("wrt, error, message", [
    ([np.ones(2)], TypeError, "takes a list of ag.Variable"),
    ([ag.Variable(np.ones(2, np.int64))], TypeError, "only floating-point"),
    ([W, W], ValueError, "lists a variable twice"),
])
def test_bad_wrt_lists(wrt, error, message):
    with pytest.raises(error, match=message):
        ag.grad(read_twice, wrt=wrt)


# -- the training example -----------------------------------------------------------

def test_the_training_example_learns():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
    try:
        import train_mlp
    finally:
        sys.path.pop(0)
    printed = []
    losses = train_mlp.train(steps=300, report_every=100, out=printed.append)
    assert losses[-1] < 0.03 and losses[-1] < losses[0] / 20
    assert printed[0] == ("training loss (mean squared error on 128 points of y = sin(3x)), "
                          "every 100 steps")     # the chart says what it shows, axes too
    assert printed[1].split() == ["step", "loss", "bar:", "log", "scale,", "none", "at",
                                  "1e-04,", "60", "#", "at", "the", "first", "loss",
                                  f"({losses[0]:.2e})"]
    rows = [line.split() for line in printed[2:-1]]
    assert [int(row[0]) for row in rows] == [0, 100, 200, 299]
    assert [float(row[1]) for row in rows] == [round(losses[s], 5) for s in (0, 100, 200, 299)]
    assert rows[0][2] == "#" * 60 and len(rows[-1][2]) < 60
    assert "traced 1 time(s)" in printed[-1]
