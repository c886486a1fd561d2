"""A global, closure cell or attribute of `self` a trace read, rebound to another value: the
next call traces again with the value it holds now (`frozen_bindings.py`), on the short
path (array arguments) and the full path (a dict argument), the eager fallback on or
off; an equal new object, or an array written in place, keeps the graph."""
import logging
import warnings

import numpy as np
import pytest

import autograph as ag

W = np.ones(3)
SCALE = 3.0
DELETED_LATER = 2.0


def weighted(x):
    return x @ W * SCALE


def weighted_items(items):            # a dict argument: the full call path
    return items["x"] @ W * SCALE


def set_scale(value):
    global SCALE
    SCALE = value


def rebind_w(factor):
    global W
    W = W * factor


class Model:
    def __init__(self):
        self.w = np.array([1.0, 2.0])

    def predict(self, X):
        return X @ self.w

    def predict_items(self, items):
        return items["X"] @ self.w


def closure_of(k):
    def scaled(x):
        return x * k

    def scaled_items(items):
        return items["x"] * k

    def set_k(value):
        nonlocal k
        k = value
    return scaled, scaled_items, set_k


@pytest.fixture(autouse=True)
def fresh_globals(monkeypatch):
    from autograph import frozen_bindings
    monkeypatch.setattr(frozen_bindings, "_warned", set())
    for name, value in (("W", np.ones(3)), ("SCALE", 3.0)):
        monkeypatch.setitem(globals(), name, value)


@pytest.fixture(params=[False, True], ids=["fallback_off", "fallback_on"])
def fallback(request):
    before = ag.set_eager_fallback(request.param)
    yield request.param
    ag.set_eager_fallback(before)


def calls(graph, eager, arguments):
    """The graph's answers and eager's for each call; `arguments` yields (args, change)."""
    got, want = [], []
    for args, change in arguments:
        change()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ag.FrozenValueWarning)
            got.append(graph(*args))
        want.append(eager(*args))
    return got, want


def nothing():
    pass


x = np.arange(3.0)
items = {"x": np.arange(3.0)}


@pytest.mark.parametrize("fn, arg", [(weighted, x), (weighted_items, items)],
                         ids=["short_path", "full_path"])
def test_a_global_array_rebound_traces_again(fallback, fn, arg):
    graph = ag.convert(fn)
    got, want = calls(graph, fn, [((arg,), nothing), ((arg,), lambda: rebind_w(2.0)),
                                  ((arg,), nothing), ((arg,), lambda: rebind_w(-1.0))])
    np.testing.assert_allclose(got, want)
    assert want == [9.0, 18.0, 18.0, -18.0]
    assert graph.trace_count == 3          # one more per change, not otherwise


@pytest.mark.parametrize("fn, arg", [(weighted, x), (weighted_items, items)],
                         ids=["short_path", "full_path"])
def test_a_global_float_changed_by_a_global_statement_traces_again(fallback, fn, arg):
    graph = ag.convert(fn)
    got, want = calls(graph, fn, [((arg,), nothing), ((arg,), lambda: set_scale(4.0)),
                                  ((arg,), nothing), ((arg,), lambda: set_scale(4.0))])
    np.testing.assert_allclose(got, want)
    assert graph.trace_count == 2          # 4.0 again: an equal float, no trace


def test_keywords_take_the_check_too(fallback):
    graph = ag.convert(weighted)
    assert graph(x=x) == 9.0
    set_scale(5.0)
    with pytest.warns(ag.FrozenValueWarning, match="read the global SCALE"):
        assert graph(x=x) == 15.0
    assert graph.trace_count == 2


@pytest.mark.parametrize("method, arg", [("predict", np.ones((2, 2))),
                                         ("predict_items", {"X": np.ones((2, 2))})],
                         ids=["short_path", "full_path"])
def test_a_method_attribute_rebound_traces_again(fallback, method, arg):
    m = Model()
    graph, eager = ag.convert(getattr(m, method)), getattr(m, method)

    def rebind():
        m.w = np.array([10.0, 20.0])
    got, want = calls(graph, eager, [((arg,), nothing), ((arg,), rebind), ((arg,), nothing)])
    np.testing.assert_allclose(got, want)
    np.testing.assert_allclose(want[1], [30.0, 30.0])
    assert graph.trace_count == 2


@pytest.mark.parametrize("path", ["short_path", "full_path"])
def test_a_closure_cell_rebound_by_nonlocal_traces_again(fallback, path):
    scaled, scaled_items, set_k = closure_of(2.0)
    fn, arg = (scaled, x) if path == "short_path" else (scaled_items, {"x": x})
    graph = ag.convert(fn)
    got, want = calls(graph, fn, [((arg,), nothing), ((arg,), lambda: set_k(5.0)),
                                  ((arg,), nothing), ((arg,), lambda: set_k(-1.0))])
    np.testing.assert_allclose(got, want)
    np.testing.assert_allclose(want[1], x * 5.0)
    assert graph.trace_count == 3


def test_an_equal_new_object_does_not_trace_again(fallback):
    m = Model()
    predict, X = ag.convert(m.predict), np.ones((2, 2))
    predict(X)
    m.w = m.w.copy()
    rebind_w(1.0)                       # W * 1.0: a new array, equal
    set_scale(float("3.0"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.FrozenValueWarning)
        np.testing.assert_allclose(predict(X), m.predict(X))
        graph = ag.convert(weighted)
        graph(x)
        rebind_w(1.0)
        assert graph(x) == weighted(x)
    assert predict.trace_count == 1 and graph.trace_count == 1


def test_an_array_written_in_place_keeps_its_captured_value():
    graph = ag.convert(weighted)
    assert graph(x) == 9.0
    W[0] = 100.0                        # the same object: captured by value, as documented
    assert graph(x) == 9.0 and graph.trace_count == 1


@pytest.mark.parametrize("before, after", [(3.0, 3), (1, True), (0.0, -0.0),
                                           (np.float32(3.0), 3.0), (None, 2.0)])
def test_values_equal_by_eq_but_traced_differently_trace_again(before, after):
    def f(x):
        return x * SCALE if SCALE is not None else x
    set_scale(before)
    graph, xs = ag.convert(f), np.arange(3)
    first = graph(xs)
    set_scale(after)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FrozenValueWarning)
        got = graph(xs)
    assert got.dtype == f(xs).dtype
    np.testing.assert_array_equal(got, f(xs))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(f(xs)))
    assert graph.trace_count == 2 and first is not None


def test_a_deleted_global_raises_as_eager_code_does(monkeypatch):
    def f(x):
        return x * DELETED_LATER
    graph = ag.convert(f)
    graph(x)
    monkeypatch.delitem(globals(), "DELETED_LATER")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FrozenValueWarning)
        with pytest.raises(NameError):
            graph(x)


def test_the_trace_log_names_the_binding_and_retracing_warns_when_frequent(caplog):
    graph = ag.convert(weighted)
    with caplog.at_level(logging.INFO, logger="autograph"):
        graph(x)
        set_scale(4.0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            graph(x)
            for value in range(5, 12):
                set_scale(float(value))
                assert graph(x) == weighted(x)
    traced = [r.getMessage() for r in caplog.records if "traced weighted" in r.getMessage()]
    assert "the global SCALE, read while tracing, changed: it held 3.0 then and holds 4.0 " \
           "now" in traced[1]
    assert graph.trace_count == 9
    frozen = [w for w in caught if w.category is ag.FrozenValueWarning]
    retracing = [w for w in caught if w.category is ag.RetracingWarning]
    assert len(frozen) == 1             # once per binding and line
    assert "read the global SCALE" in str(frozen[0].message)
    assert "as an argument" in str(frozen[0].message)
    assert len(retracing) == 1 and "the global SCALE" in str(retracing[0].message)


def test_functions_reading_no_plain_binding_run_unguarded():
    graph = ag.convert(lambda a: np.sin(a) + 1)   # reads `np`, a module: not guarded
    graph(x)
    assert graph.get_concrete_function(x).bindings is None


def test_a_graph_function_made_anew_does_not_reuse_a_stale_shared_graph():
    for scale in (3.0, 4.0, 4.0):
        set_scale(scale)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ag.FrozenValueWarning)
            assert ag.convert(weighted)(x) == weighted(x)


def test_get_concrete_function_and_an_inner_graph_function_trace_again():
    inner = ag.convert(weighted)

    @ag.convert
    def outer(a):
        return inner(a) + 1.0
    assert outer(x) == 10.0
    set_scale(4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FrozenValueWarning)
        assert inner.get_concrete_function(x)(x) == 12.0
        assert ag.convert(lambda a: inner(a) * 2.0)(x) == 24.0   # inner, called in a trace
    assert outer(x) == 10.0   # outer's own code reads no SCALE: its graph keeps inner's then


def test_reduce_retracing_checks_its_relaxed_graph():
    graph = ag.convert(weighted_rows, reduce_retracing=True)
    graph(np.ones((2, 3)))
    graph(np.ones((4, 3)))             # a relaxed graph now serves every row count
    set_scale(2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FrozenValueWarning)
        np.testing.assert_allclose(graph(np.ones((5, 3))), weighted_rows(np.ones((5, 3))))


def weighted_rows(a):
    return a @ W * SCALE


def test_a_gradient_traces_again_for_a_global_its_function_reads():
    def loss(a):
        return (a * SCALE).sum()
    grad = ag.grad(loss)
    np.testing.assert_allclose(grad(x), np.full(3, 3.0))
    set_scale(5.0)
    with pytest.warns(ag.FrozenValueWarning, match="loss read the global SCALE"):
        np.testing.assert_allclose(grad(x), np.full(3, 5.0))
    assert grad.trace_count == 2


HELPER_OFFSET = 1.0


def _add_offset(x):
    return x + HELPER_OFFSET


def through_a_helper(x):
    return _add_offset(x) * 2


def test_a_global_a_helper_of_the_same_module_read_retraces_when_rebound():
    global HELPER_OFFSET
    f = ag.convert(through_a_helper)
    x = np.arange(3.0)
    np.testing.assert_array_equal(f(x), through_a_helper(x))
    try:
        HELPER_OFFSET = 5.0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ag.FrozenValueWarning)
            np.testing.assert_array_equal(f(x), through_a_helper(x))
        assert f.trace_count == 2
    finally:
        HELPER_OFFSET = 1.0
