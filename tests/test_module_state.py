"""Module-level state a trace changes (autograph/module_state.py): a global assigned, a
module-level list or dict changed, a traced value put in a module-level object. Such a
trace is refused and put back, so with the eager fallback every call changes the state
as eager code does; a module-level cache filled once gives a graph on the next call."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag

LOG: list = []
CALLS = 0
STATS: dict = {"n": 0}
WINDOWS: dict = {}
SCALE = 3.0
TABLE = {"double": 2.0, "half": 0.5}


class Monitor:
    pass


MONITOR = Monitor()


def log_sum(x):
    LOG.append(x.sum())
    return x * 2


def count_calls(x):
    global CALLS
    CALLS += 1
    return x + CALLS


def keep_stats(x):
    STATS["n"] += 1
    return x - STATS["n"]


def watch_max(x):
    MONITOR.last = x.max()
    return x


def windowed(x):
    n = x.shape[0]
    if n not in WINDOWS:
        WINDOWS[n] = np.hanning(n)
    return x * WINDOWS[n]


def scaled(x, how):
    return x * SCALE * TABLE[how]


def _reset():
    global CALLS
    LOG.clear()
    CALLS = 0
    STATS.clear()
    STATS["n"] = 0
    WINDOWS.clear()
    MONITOR.__dict__.clear()


@pytest.fixture(autouse=True)
def fresh_state():
    _reset()
    before = ag.set_eager_fallback(True)
    yield
    ag.set_eager_fallback(before)


def _state():
    return [float(v) for v in LOG], CALLS, dict(STATS), dict(MONITOR.__dict__)


@pytest.mark.parametrize("fn", [log_sum, count_calls, keep_stats, watch_max])
def test_a_trace_changing_module_state_runs_eagerly_as_eager_code_does(fn):
    x = np.arange(4.0)
    want = [fn(x + i) for i in range(3)]
    eager_state = _state()
    _reset()
    converted = ag.convert(fn)
    with pytest.warns(ag.FallbackWarning, match="module|global"):
        got = [converted(x + i) for i in range(3)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert _state() == eager_state   # changed once per call, as eagerly: not by the traces


def remember_peak(x):
    global PEAK
    PEAK = x.max()
    return x


PEAK = None


@pytest.mark.parametrize("fn, named", [(log_sum, "traced value in the module-level list 'LOG'"),
                                       (remember_peak, "assigns the global 'PEAK'"),
                                       (watch_max, "traced value in the module-level object "
                                                   "'MONITOR'")])
def test_a_traced_value_left_in_module_state_is_refused_even_without_the_fallback(fn, named):
    converted = ag.convert(fn, eager_fallback=False)
    with pytest.raises(ag.TracingError, match=named):
        converted(np.arange(4.0))
    assert _state() == ([], 0, {"n": 0}, {}) and PEAK is None   # as it was


@pytest.mark.parametrize("fn", [count_calls, keep_stats])
def test_without_the_fallback_python_values_change_module_state_while_tracing(fn):
    # a graph was asked for: as in tf.function, the change is the trace's, made once
    converted = ag.convert(fn, eager_fallback=False)
    first, second = converted(np.zeros(2)), converted(np.zeros(2))
    np.testing.assert_array_equal(first, second)
    assert (CALLS, STATS["n"]) == ((1, 0) if fn is count_calls else (0, 1))


def test_a_module_level_cache_the_eager_run_fills_gives_a_graph_on_the_next_call():
    converted = ag.convert(windowed)
    x = np.arange(5.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(3):
            np.testing.assert_array_equal(converted(x + i), (x + i) * np.hanning(5))
    assert [w.category for w in caught] == [ag.FallbackWarning]
    assert converted.trace_count == 1 and list(WINDOWS) == [5]


def test_reading_module_constants_and_tables_is_a_graph():
    converted = ag.convert(scaled)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.FallbackWarning)
        for how in ("double", "half"):
            np.testing.assert_array_equal(converted(np.ones(3), how), scaled(np.ones(3), how))
    assert converted.trace_count == 2


def test_a_python_value_set_on_a_module_level_object_is_kept_as_for_arguments():
    def remember_size(x):
        MONITOR.size = x.shape[0]   # a Python value: the trace's is every call's
        return x + 1

    converted = ag.convert(remember_size, eager_fallback=False)
    np.testing.assert_array_equal(converted(np.ones(2)), np.full(2, 2.0))
    assert MONITOR.size == 2


def make_counter():
    n = 0

    def bump(x):
        nonlocal n
        n += 1
        return x * n
    return bump


def make_running_mean():
    state = {"n": 0, "mean": 0.0}

    def update(x):
        state["n"] += 1
        state["mean"] += (x.mean() - state["mean"]) / state["n"]
        return state["mean"]
    return update


class Hits:
    count = 0

    def hit(self, x):
        Hits.count += 1
        return x * Hits.count


HELPER_CALLS = {"n": 0}


def _bump_helper():
    HELPER_CALLS["n"] += 1
    return HELPER_CALLS["n"]


def calls_a_helper(x):
    return x * _bump_helper()


@pytest.mark.parametrize("make", [
    lambda: make_counter(),                          # converted itself
    lambda: (lambda bump: lambda x: bump(x) + 1)(make_counter()),   # called by it
    lambda: make_running_mean(),                     # a dict in a closure cell
    lambda: Hits().hit,                              # a class attribute
    lambda: calls_a_helper,                          # a helper's module-level dict
])
def test_closure_class_and_helper_state_changes_at_every_call_as_eagerly(make):
    Hits.count, HELPER_CALLS["n"] = 0, 0
    eager = make()
    x = np.arange(3.0)
    want = [eager(x + i) for i in range(3)]
    Hits.count, HELPER_CALLS["n"] = 0, 0
    converted = ag.convert(make())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FallbackWarning)
        got = [converted(x + i) for i in range(3)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert Hits.count in (0, 3) and HELPER_CALLS["n"] in (0, 3)


def test_a_traced_value_left_in_a_closure_dict_is_refused_even_without_the_fallback():
    converted = ag.convert(make_running_mean(), eager_fallback=False)
    with pytest.raises(ag.TracingError, match="traced value in the enclosing dict 'state'"):
        converted(np.arange(3.0))


class Counter:
    n = 0


COUNTER = Counter()


def count_on_an_object(x):
    COUNTER.n += 1                 # a module-level object's attribute, a Python value
    return x * COUNTER.n


def test_an_attribute_of_a_module_level_object_changes_at_every_call_as_eagerly():
    COUNTER.__dict__.clear()
    x = np.arange(3.0)
    want = [count_on_an_object(x) for _ in range(3)]
    COUNTER.__dict__.clear()
    converted = ag.convert(count_on_an_object)
    with pytest.warns(ag.FallbackWarning, match="changes the module-level object 'COUNTER'"):
        got = [converted(x) for _ in range(3)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert COUNTER.n == 3


def make_drawing():
    items = iter(range(1000))

    def take(x):
        return x + next(items)

    def take_by_method(x):
        return x + items.__next__()

    def take_enumerated(x):
        for k, v in enumerate(items):
            return x + v * k

    def take_zipped(x):
        for v, w in zip(items, [10.0]):
            return x + v * w

    def take_three(x):
        total = 0
        for k in items:            # a loop over the outside iterator: three items a call
            total += k
            if k % 3 == 2:
                break
        return x * total
    return take, take_three, take_by_method, take_enumerated, take_zipped


@pytest.mark.parametrize("which", range(5), ids=["next", "for", "__next__", "enumerate", "zip"])
def test_an_outside_iterator_gives_each_call_eager_s_items(which):
    eager = make_drawing()[which]
    x = np.ones(2)
    want = [eager(x) for _ in range(4)]
    converted = ag.convert(make_drawing()[which])
    with pytest.warns(ag.FallbackWarning, match="advances an iterator from outside"):
        got = [converted(x) for _ in range(4)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
