"""A graph function (or `ag.grad`) called while another traces, closing over its values.

The inner function's graph takes the caller's traced values it reads as inputs of
its own (`GraphBuilder.closure`), which the caller's `call` passes, as JAX and TF
capture a closed-over tracer. Such a graph belongs to that one trace: it is not
cached, and tracing it again at each call is not a retrace.
"""
import logging
import re
import types
import warnings

import numpy as np
import pytest

import autograph as ag


def closes_over(x):
    y = x * 2

    @ag.convert
    def inner(z):
        return z + y
    return inner(x)


def grad_closes_over(x):
    w = x + 1
    return ag.grad(lambda v: np.sum((v * w) ** 2))(x)


def in_a_staged_loop(x):
    s = x
    i = 0
    while i < 3 and s.sum() < 1e6:   # a staged loop
        @ag.convert
        def inner(z):
            return z * s
        s = inner(x) + 1
        i += 1
    return s


def in_a_staged_branch(x):
    y = np.sin(x)
    if x.sum() > 0:   # a staged branch
        @ag.convert
        def inner(z):
            return z - y
        y = inner(x)
    return y


def two_levels(x):
    y = x + 1

    @ag.convert
    def middle(z):
        @ag.convert
        def low(w):
            return w * y
        return low(z) + 1
    return middle(x)


def called_many_times(x):
    y = x + 1

    @ag.convert
    def inner(z):
        return z * y
    for _ in range(8):
        x = inner(x)
    return x


@pytest.mark.parametrize("fn", [closes_over, grad_closes_over, in_a_staged_loop,
                                in_a_staged_branch, two_levels, called_many_times])
@pytest.mark.parametrize("x", [np.arange(3.0), -np.arange(4.0) - 0.5])
def test_the_graph_gives_what_eager_numpy_gives(fn, x):
    graph_function = ag.convert(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # tracing the inner function at each call is no retrace
        np.testing.assert_allclose(graph_function(x), fn(x), rtol=1e-13)
        np.testing.assert_allclose(graph_function(x + 1), fn(x + 1), rtol=1e-13)
    assert graph_function.trace_count == 1


def test_eager_python_is_the_oracle_for_the_gradient_too():
    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(ag.convert(grad_closes_over)(x), 2 * x * (x + 1) ** 2)


def test_gradients_flow_through_the_closed_over_value():
    x = np.array([0.5, -1.0, 2.0])
    g = ag.grad(lambda x: np.sum(ag.convert(two_levels)(x)))(x)   # (x + 1) * x + 1
    np.testing.assert_allclose(g, 2 * x + 1)


def _calls(graph):
    for eqn in graph.eqns:
        yield from [eqn] if eqn.primitive.name == "call" else ()
        for sub in eqn.params.values():
            yield from _calls(sub) if hasattr(sub, "eqns") else ()


@pytest.mark.parametrize("fn", [in_a_staged_loop, in_a_staged_branch])
def test_the_block_is_staged_and_its_call_reads_the_blocks_value(fn):
    graph = ag.convert(fn).get_concrete_function(np.ones(3)).graph
    assert not [e for e in graph.eqns if e.primitive.name == "call"]
    [call] = _calls(graph)
    assert len(call.inputs) == 2


def test_the_inner_graph_reads_the_value_as_an_input():
    graph = ag.convert(closes_over).get_concrete_function(np.ones(3)).graph
    call = next(e for e in graph.eqns if e.primitive.name == "call")
    inner = call.params["graph"]
    assert [v.name for v in inner.inputs] == ["z", "y"]
    assert [a.name for a in call.inputs] == ["x", "y"]


def test_each_call_traces_the_inner_function_and_says_why(caplog):
    ag.set_verbosity(1)
    try:
        with caplog.at_level(logging.INFO, logger="autograph"):
            ag.convert(called_many_times)(np.ones(2))
    finally:
        ag.set_verbosity(0)
    reasons = [r.getMessage() for r in caplog.records if "inner" in r.getMessage()]
    assert len(reasons) == 8
    assert all("reads traced values of the function calling it" in m for m in reasons[1:])


def test_writing_the_callers_value_in_place_is_refused_naming_the_line():
    def writes(x):
        y = x * 2

        @ag.convert
        def inner(z):
            y[0] = 5.0
            return z + y
        return inner(x)

    with pytest.raises(ag.TracingError) as caught:
        ag.convert(writes)(np.ones(3))
    line = writes.__code__.co_firstlineno + 5
    assert re.search(rf"`y\[\.\.\.\] = \.\.\.` writes in place y, a traced value of the function "
                     rf"calling 'inner' \(at .*test_nested_graph_functions.py:{line} in inner\): "
                     rf".*return the new value instead", str(caught.value))


def test_a_write_in_place_through_numpy_is_refused_too():
    def fills(x):
        y = x * 2

        @ag.convert
        def inner(z):
            np.add(y, 1, out=y)
            return z + y
        return inner(x)

    with pytest.raises(ag.TracingError, match=r"writes in place y, a traced value of the "
                                              r"function calling 'inner'"):
        ag.convert(fills)(np.ones(3))


def test_a_traced_value_left_in_a_closure_s_list_is_refused_and_taken_back():
    kept = []

    @ag.convert
    def keeps(x):
        kept.append(x * 2)   # would escape the trace that computed it
        return x

    with pytest.raises(ag.TracingError, match=r"puts a traced value in the enclosing list "
                                              r"'kept'"):
        keeps(np.ones(2))
    assert kept == []


def test_a_value_of_a_finished_trace_still_escapes():
    kept = types.SimpleNamespace()   # not a plain object: its attributes are not watched

    @ag.convert
    def keeps(x):
        kept.value = x * 2
        return x

    @ag.convert
    def reads(x):
        return x + kept.value

    keeps(np.ones(2))
    with pytest.raises(ag.TracingError, match=r"a traced value \(.*\) escaped the function "
                                              r"that computed it \(graph 'keeps'\)"):
        reads(np.ones(2))


def test_an_error_in_a_converted_inner_def_names_the_users_line_and_function():
    def outer(x):
        @ag.convert
        def inner(z):
            return z @ np.ones((5, 5))
        return inner(x)

    with pytest.raises(ValueError) as caught:
        ag.convert(outer)(np.ones(3))
    line = outer.__code__.co_firstlineno + 3
    assert any(f"test_nested_graph_functions.py:{line} in inner" in note
               for note in caught.value.__notes__)
