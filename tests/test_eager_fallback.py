"""Eager fallback (autograph/eager_fallback.py): a call whose trace is refused runs the
function as plain Python, with eager NumPy's answer and one `FallbackWarning` per
signature; where a graph is asked for, the refusal is still an error.

The suite runs with the fallback off (tests/conftest.py); these tests turn it on, as it
is for users."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag
from autograph.testing import assert_graph_equivalent


@pytest.fixture(autouse=True)
def fallback_on():
    before = ag.set_eager_fallback(True)
    yield
    ag.set_eager_fallback(before)


def bfs(adj, start):
    n = adj.shape[0]
    seen = np.zeros(n, bool)
    seen[start] = True
    queue, order = [start], []
    while queue:                       # a queue whose length traced values decide
        v = queue.pop(0)
        order.append(v)
        for u in range(n):
            if adj[v, u] and not seen[u]:
                seen[u] = True
                queue.append(u)
    return order


ADJ = np.array([[0, 1, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0]])


def test_a_refused_call_runs_eagerly_warning_once_per_signature(monkeypatch):
    converted = ag.convert(bfs)
    traces = []
    trace = converted._trace
    monkeypatch.setattr(converted, "_trace", lambda *a, **k: (traces.append(1), trace(*a, **k))[1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for adj in (ADJ, ADJ.T.copy(), ADJ):
            assert converted(adj, 0) == bfs(adj, 0)
    fallbacks = [w for w in caught if w.category is ag.FallbackWarning]
    assert len(fallbacks) == 1 and len(traces) == 1   # the signature is remembered
    message = str(fallbacks[0].message)
    assert message.startswith("bfs runs as plain Python") and "test_eager_fallback.py" in message
    assert fallbacks[0].filename == __file__           # the warning points at the call
    assert converted.trace_count == 0


def test_eager_fallback_false_and_graph_requests_raise_the_refusal():
    with pytest.raises(ag.TracingError, match="queue"):
        ag.convert(bfs, eager_fallback=False)(ADJ, 0)
    before = ag.set_eager_fallback(False)
    try:
        with pytest.raises(ag.TracingError, match="queue"):
            ag.convert(bfs)(ADJ, 0)
    finally:
        ag.set_eager_fallback(before)
    converted = ag.convert(bfs)
    with pytest.warns(ag.FallbackWarning):
        converted(ADJ, 0)
    with pytest.raises(ag.TracingError, match="queue"):
        converted.get_concrete_function(ADJ, 0)
    with pytest.raises(AssertionError, match="queue"):
        assert_graph_equivalent(bfs, ADJ, 0)


def spread(x):
    counts = {}
    for v in x:
        counts[v] = counts.get(v, 0) + 1   # a dict keyed by traced values
    return max(counts.values()) * x.sum()


def test_a_caller_traced_with_a_refused_callee_falls_back_as_a_whole():
    inner = ag.convert(spread)

    @ag.convert
    def outer(x):
        return inner(x) + x.mean()
    x = np.array([1.0, 2.0, 2.0, 5.0])
    with pytest.warns(ag.FallbackWarning, match="outer"):
        got = outer(x)
    assert got == spread(x) + x.mean()


def test_gradients_need_the_graph():
    def loss(x):
        return spread(x) * 1.0
    with pytest.raises(ag.TracingError):
        ag.grad(loss)(np.array([1.0, 2.0, 2.0]))


def test_errors_the_function_raises_are_not_swallowed():
    @ag.convert
    def checked(x):
        if x.shape[0] < 2:
            raise ValueError("need two values")
        return x
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.FallbackWarning)   # no fallback happens
        with pytest.raises(ValueError, match="need two values"):
            checked(np.ones(1))


def test_a_method_keeps_its_instance_s_fallback_setting():
    class Counter:
        def __init__(self):
            self.seen = set()

        @ag.convert(eager_fallback=False)
        def strict(self, x):
            return spread(x)

        @ag.convert
        def lenient(self, x):
            return spread(x)
    c, x = Counter(), np.array([3.0, 3.0])
    with pytest.raises(ag.TracingError):
        c.strict(x)
    with pytest.warns(ag.FallbackWarning):
        assert c.lenient(x) == spread(x)


def first_positive(x):
    for i in range(x.shape[0]):
        if x[i] > 0:
            return i
    # None where no element is positive


def announced(x):
    print("called")
    if x[0] > 0:
        return x
    return None


def test_a_path_returning_none_runs_eagerly_where_the_graph_has_no_effects(capsys):
    converted = ag.convert(first_positive)
    assert converted(np.array([-1.0, 2.0])) == 1
    with pytest.warns(ag.FallbackWarning, match="its graph cannot give eager's answer"):
        assert converted(np.array([-1.0, -2.0])) is None
    assert converted(np.array([-3.0, -2.0])) is None and converted.trace_count == 1
    printing = ag.convert(announced)
    printing(np.array([1.0]))
    with pytest.raises(TypeError, match="returns None on this path"):
        printing(np.array([-1.0]))      # its print ran: running it again would print twice
    assert capsys.readouterr().out == "called\ncalled\n"
    with pytest.raises(TypeError, match="returns None on this path"):
        ag.convert(first_positive, eager_fallback=False)(np.array([-1.0]))


def test_an_ndarray_attribute_with_no_traced_version_falls_back():
    def contiguous_sum(x):
        if x.flags.c_contiguous:     # no traced version: AttributeError, and a refusal
            return x.sum()
        return -x.sum()
    x = np.arange(6.0).reshape(2, 3)
    with pytest.raises(AttributeError, match="ndarray.flags is not supported"):
        ag.convert(contiguous_sum, eager_fallback=False)(x)
    with pytest.warns(ag.FallbackWarning, match="flags"):
        assert ag.convert(contiguous_sum)(x.T) == contiguous_sum(x.T)


def _tracer_fault(monkeypatch):
    """Makes `~x` of a traced value fail inside the runtime's own code while tracing, as a
    bug of the tracer's would (eager code never meets it)."""
    from autograph_runtime import Tracer
    from autograph_runtime.abstract import python_aval
    monkeypatch.setattr(Tracer, "__invert__", lambda self: python_aval(object()))


def guarded_flip(x, flags):
    assert np.all(x >= 0), "x must be non-negative"
    return np.where(~flags, x, -x)


def flip_where_positive(x, flags):
    if x.sum() > 0:
        return np.where(~flags, x, -x)
    return x


@pytest.mark.parametrize("fn", [guarded_flip, flip_where_positive])
def test_an_error_of_the_tracers_own_in_code_that_may_not_run_is_a_refusal(monkeypatch, fn):
    # staged (deferred), it would be raised when the graph ran, where eager returns
    _tracer_fault(monkeypatch)
    x, flags = np.array([1.0, 2.0, 3.0]), np.array([True, False, True])
    converted = ag.convert(fn)
    with pytest.warns(ag.FallbackWarning, match="tracing raised KeyError"):
        np.testing.assert_array_equal(converted(x, flags), fn(x, flags))
    if fn is guarded_flip:
        with pytest.raises(AssertionError, match="non-negative"):   # eager's own error
            converted(-x, flags)
    graph = ag.convert(fn, eager_fallback=False)   # no fallback: staged, as before
    with pytest.raises(KeyError):
        graph(x, flags)


def test_the_users_own_raise_in_a_staged_branch_is_still_staged():
    def checked(x):
        if np.any(np.isnan(x)):
            raise ValueError("x has NaN")
        return x * 2

    converted = ag.convert(checked)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.FallbackWarning)   # a graph, not plain Python
        np.testing.assert_array_equal(converted(np.ones(3)), np.full(3, 2.0))
        with pytest.raises(ValueError, match="x has NaN"):
            converted(np.array([1.0, np.nan, 3.0]))
    assert converted.trace_count == 1
