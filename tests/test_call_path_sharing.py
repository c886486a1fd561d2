"""Graph functions of one Python function share its graphs (`autograph/shared_traces.py`).

`ag.convert(f)` or `ag.grad(f)` re-created in a loop traces once; each graph
function still counts, logs and warns as if it were the only one. A Python
side effect in the function (run while tracing only) counts the real traces.
"""
import logging

import numpy as np
import pytest

import autograph as ag
from autograph import shared_traces


def counted():
    """A fresh function (own closure cells) that counts its real traces in `.traces`."""
    traces = []

    def loss(w, x):
        traces.append(1)
        return np.sum(np.tanh(x @ w) ** 2)
    loss.traces = traces
    return loss


def test_convert_in_a_loop_traces_once():
    loss = counted()
    w, x = np.ones((3, 2)), np.full((4, 3), 0.1)
    for _ in range(5):
        f = ag.convert(loss)
        assert f(w, x) == loss(w, x)
        assert f.trace_count == 1            # each counts as if it were the only one
    assert len(loss.traces) == 1 + 5         # one trace, and the five eager calls above


def test_grad_in_a_loop_traces_once():
    loss = counted()
    w, x = np.ones((3, 2)), np.full((4, 3), 0.1)
    graphs = set()
    for _ in range(5):
        grad = ag.grad(loss)
        np.testing.assert_array_equal(grad(w, x), ag.grad(ag.convert(loss))(w, x))
        value, grads = ag.value_and_grad(loss)(w, x)
        np.testing.assert_array_equal(grads, grad(w, x))
        graphs.add(id(grad.get_concrete_function(w, x)))
        assert grad.trace_count == 1
    assert len(loss.traces) == 1 and len(graphs) == 1   # loss traced once, its gradient too
    other = ag.grad(loss, argnums=1)                     # another argument: another gradient
    assert id(other.get_concrete_function(w, x)) not in graphs


def test_a_lambda_re_created_in_a_loop_is_a_new_function_and_warns_once():
    traces = []

    def step(x, n):
        traces.append(1)
        return x * n
    x = np.ones(2)
    with pytest.warns(ag.RetracingWarning, match="new function objects") as caught:
        for n in range(8):                  # the cell of `n` is the same; what it holds is not
            again = lambda x: step(x, n)    # noqa: E731
            np.testing.assert_array_equal(ag.convert(again)(x), x * n)
    assert len(traces) == 8
    assert sum("new function objects" in str(w.message) for w in caught) == 1


def test_a_grad_of_a_lambda_re_created_in_a_loop_sees_each_value():
    a = np.arange(1.0, 4.0)
    for n in (2.0, 3.0):
        np.testing.assert_allclose(ag.grad(lambda a: np.sum(a ** n))(a), n * a ** (n - 1))


def test_different_closures_do_not_share():
    a, b = counted(), counted()
    w, x = np.ones((3, 2)), np.ones((4, 3))
    ag.convert(a)(w, x)
    ag.convert(b)(w, x)
    assert len(a.traces) == 1 and len(b.traces) == 1


def test_different_options_do_not_share():
    loss = counted()
    w, x = np.ones((3, 2)), np.ones((4, 3))
    ag.convert(loss)(w, x)
    ag.convert(loss, autograph=False)(w, x)
    ag.convert(loss, reduce_retracing=True)(w, x)
    ag.convert(loss, input_signature=[ag.TensorSpec((3, 2), np.float64),
                                      ag.TensorSpec((None, 3), np.float64)])(w, x)
    assert len(loss.traces) == 4


def test_each_graph_function_still_warns_and_logs_as_if_alone(caplog):
    def f(x, n):
        return x * n
    x = np.ones(2)
    for _ in range(2):
        g = ag.convert(f)
        with caplog.at_level(logging.INFO, logger="autograph"):
            caplog.clear()
            with pytest.warns(ag.RetracingWarning):
                for n in range(7):
                    g(x, n)
        assert g.trace_count == 7
        assert sum("traced" in r.getMessage() for r in caplog.records) == 7


def test_a_function_that_creates_variables_shares_nothing():
    made = []

    def f(x):
        if not made:
            made.append(ag.Variable(np.zeros(2), name="v"))
        made[0].assign_add(x)
        return made[0].read_value()
    x = np.ones(2)
    np.testing.assert_array_equal(ag.convert(f)(x), [1, 1])
    np.testing.assert_array_equal(ag.convert(f)(x), [2, 2])   # traced anew, the same variable
    assert len(made) == 1


def test_a_function_whose_code_is_replaced_converts_anew():
    def f(x):
        return x + 1

    def g(x):
        return x * 10
    x = np.ones(2)
    ag.convert(f)(x)
    h = ag.convert(f)
    f.__code__ = g.__code__
    np.testing.assert_array_equal(h(x), [10, 10])


def test_autograph_switched_off_on_one_graph_function_leaves_the_others():
    def f(x):
        return x * 2 if x > 0 else -x
    g = ag.convert(f)
    assert g(np.float64(3.0)) == 6.0
    h = ag.convert(f)
    h.autograph = False
    with pytest.raises(ag.TracingError):    # an `if` on a traced value, unconverted
        h(np.float64(3.0))
    assert ag.convert(f)(np.float64(-3.0)) == 3.0


def test_the_registry_forgets_functions_no_graph_function_uses():
    keep = shared_traces.RECENT
    for _ in range(keep + 3):
        ag.convert(counted())(np.ones(2), np.ones((1, 2)))
    assert len(shared_traces._recent) <= keep
