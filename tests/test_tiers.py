"""Tier "auto" counting calls and loop trips until a graph is hot (`autograph.tiers`).

The compile a hot graph starts is kept off the background thread here (a queue of
our own that nothing reads), so these run without Numba; tests/test_native_tier.py
follows one to native code.
"""
from __future__ import annotations

import types

import numpy as np
import pytest
from test_corpus import _params, _run, assert_graph_matches

import autograph as ag
from autograph import tiers


@pytest.fixture
def queued(monkeypatch):
    """The compiles started by hot graphs, not run; thresholds of 100 calls, 1000 trips."""
    jobs = tiers.queue.SimpleQueue()
    monkeypatch.setattr(tiers, "_compiles", jobs)
    monkeypatch.setattr(tiers, "_start_compiler", lambda: None)
    monkeypatch.setattr(tiers.settings, "hot_calls", 100)
    monkeypatch.setattr(tiers.settings, "hot_trips", 1000)
    return jobs


def scalar_loop(x, n):
    i = 0
    while i < n:
        x = x * 0.5 + 1.0
        i += 1
    return x


def nested_loops(x, n, m):
    i = 0
    while i < n:
        j = 0
        while j < m:
            x = x + 1
            j += 1
        i += 1
    return x


def loop_in_a_branch(x, n):
    if x > 0:
        i = 0
        while i < n:
            x = x + 1
            i += 1
    return x


def no_loop(x):
    return x * 2


def convert(fn, tier="auto"):
    """A graph function of a copy of `fn`: no graphs shared with another test's."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    copy.__kwdefaults__, copy.__qualname__ = fn.__kwdefaults__, fn.__qualname__
    return ag.convert(copy, tier=tier)


def _args(n):
    return np.float64(3.0), np.int64(n)


def test_a_graph_called_once_with_a_long_loop_is_hot(queued):
    f = convert(scalar_loop)
    concrete = f.get_concrete_function(*_args(1))
    assert concrete.tier_reason == ("not hot yet (compiles after 100 calls or "
                                    "1000 loop trips)")
    assert "trips += 1" in concrete.source
    assert f(*_args(5000)) == scalar_loop(*_args(5000))
    assert concrete.tier_reason == "compiling in the background"
    assert queued.qsize() == 1
    job, sample = queued.get()
    assert [type(x) for x in sample] == [np.float64, np.int64] and sample[1] == 5000
    # the hot graph runs code without the counters: they cost nothing from now on
    assert "trips" not in concrete.source and concrete._fn is concrete._numpy_fn
    assert f(*_args(5000)) == scalar_loop(*_args(5000))
    assert concrete._tiering._trips == 5000 and queued.empty()


def test_few_trips_and_few_calls_leave_a_graph_counting(queued):
    f = convert(scalar_loop)
    for n in range(44):   # 44 calls, 0 + 1 + ... + 43 = 946 trips
        assert f(*_args(n)) == scalar_loop(*_args(n))
    concrete = f.get_concrete_function(*_args(0))
    assert concrete._tiering._trips == 946 and concrete._tiering._calls == 44
    assert concrete.tier_reason.startswith("not hot") and queued.empty()
    f(*_args(54))         # 1000 trips
    assert concrete.tier_reason == "compiling in the background" and queued.qsize() == 1


def test_trips_add_up_over_calls_and_nested_loops(queued):
    f = convert(nested_loops)
    x, n, m = np.int64(0), np.int64(3), np.int64(300)
    assert f(x, n, m) == nested_loops(x, n, m)
    concrete = f.get_concrete_function(x, n, m)
    assert concrete._tiering._trips == 3 + 3 * 300 and queued.empty()
    assert f(x, n, m) == nested_loops(x, n, m)
    assert concrete.tier_reason == "compiling in the background"


def test_a_loop_in_a_branch_counts():
    f = convert(loop_in_a_branch)
    x, n = np.float64(1.0), np.int64(7)
    assert f(x, n) == loop_in_a_branch(x, n)
    assert f(-x, n) == loop_in_a_branch(-x, n)
    assert f.get_concrete_function(x, n)._tiering._trips == 7


def test_many_calls_make_a_graph_hot(queued):
    f = convert(scalar_loop)
    for _ in range(100):
        f(*_args(1))
    assert f.get_concrete_function(*_args(1)).tier_reason == "compiling in the background"
    assert queued.qsize() == 1


@pytest.mark.parametrize("fn, tier", [(no_loop, "auto"), (scalar_loop, "numpy")])
def test_only_auto_graphs_with_loops_run_counting_code(fn, tier):
    concrete = convert(fn, tier).get_concrete_function(*_args(3)[:fn.__code__.co_argcount])
    assert concrete._fn is concrete._numpy_fn and "trips" not in concrete.source


@pytest.mark.parametrize("keyword", ["hot_calls", "hot_trips"])
@pytest.mark.parametrize("value", [0, -3, 2.5, True])
def test_thresholds_are_checked(keyword, value):
    before = tiers.settings.tier, tiers.settings.hot_calls, tiers.settings.hot_trips
    with pytest.raises(ValueError, match=f"{keyword} must be a whole number of at least 1"):
        ag.set_tier("auto", **{keyword: value})
    assert (tiers.settings.tier, tiers.settings.hot_calls, tiers.settings.hot_trips) == before


def test_set_tier_sets_both_thresholds(monkeypatch):
    for name in ("tier", "hot_calls", "hot_trips"):
        monkeypatch.setattr(tiers.settings, name, getattr(tiers.settings, name))
    ag.set_tier("auto", hot_calls=7, hot_trips=70)
    assert (tiers.settings.hot_calls, tiers.settings.hot_trips) == (7, 70)
    ag.set_tier("numpy")
    assert (tiers.settings.tier, tiers.settings.hot_calls, tiers.settings.hot_trips) == (
        "numpy", 7, 70)


def test_a_long_call_is_timed_once():
    import time
    calls = []
    assert tiers._median_time(lambda: (calls.append(1), time.sleep(0.06)), [], budget=0.01) > 0.05
    assert len(calls) == 1
    calls.clear()
    tiers._median_time(lambda: calls.append(1), [], budget=0.001)
    assert 5 <= len(calls) <= 101


@pytest.mark.parametrize("fn, arg_tuples", _params("graph"))
def test_corpus_on_the_counting_code(fn, arg_tuples, capsys, monkeypatch):
    monkeypatch.setattr(tiers.settings, "hot_calls", 10 ** 9)
    monkeypatch.setattr(tiers.settings, "hot_trips", 10 ** 12)
    g = convert(fn)
    for k, args in enumerate(arg_tuples):
        expected, eager_text = _run(fn, args, capsys)
        got, text = _run(g, args, capsys)
        assert_graph_matches(expected, got, f"counting code, argument tuple {k}")
        assert text == eager_text
