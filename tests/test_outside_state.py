"""State a trace reaches from outside: arrays of globals, closures and objects written in
place (autograph/outside_arrays.py), and attributes of `self` or an object argument set to
Python values (autograph/argument_containers.py). With the eager fallback on, such a trace
is refused and put back, so every call writes and counts as eager code does; a function
that only reads that state keeps its graph, and the arrays stay writeable."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag

W = np.ones(2)
BALANCE = np.array([100])
READ_ONLY = np.arange(3.0)


@pytest.fixture(autouse=True)
def fallback_on():
    W[:] = 1
    BALANCE[:] = 100
    before = ag.set_eager_fallback(True)
    yield
    ag.set_eager_fallback(before)


def doubles_a_global(x):
    W[:] = W * 2                 # values known while tracing: written as Python
    return x + W


def takes_from_a_global(amount):
    BALANCE[0] -= amount
    return BALANCE[0]


def reads_a_global(x):
    return x * W


class RingBuffer:
    def __init__(self):
        self.buf = np.zeros(3)
        self.count = 0

    def push(self, x):
        self.buf[self.count % 3] = x
        self.count += 1
        return self.buf.copy()


class Counter:
    def __init__(self):
        self.w = np.array([0.5, -1.0])
        self.calls = 0

    @ag.convert
    def score(self, x):
        self.calls += 1
        return x @ self.w


class Lazy:
    def __init__(self):
        self.scale = None
        self.built = False

    def apply(self, x):
        if not self.built:               # set once, on the first call
            self.scale = ag.Variable(np.float64(2.0))
            self.built = True
        return x * self.scale


def quietly(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FallbackWarning)
        return fn(*args)


def test_a_global_array_written_while_tracing_is_written_at_every_call():
    x = np.zeros(2)
    want = [doubles_a_global(x).copy() for _ in range(3)]
    eager_w = W.copy()
    W[:] = 1
    converted = ag.convert(doubles_a_global)
    with pytest.warns(ag.FallbackWarning, match=r"into an array it did not make.*'W'"):
        got = [converted(x) for _ in range(3)]
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(W, eager_w)   # 8, as eagerly: not 2 (the trace's once)
    assert W.flags.writeable


@pytest.mark.parametrize("amount", [30, np.int64(30), 30.0])
def test_a_global_array_updated_from_an_argument_matches_eager(amount):
    converted = ag.convert(takes_from_a_global)
    got = [quietly(converted, amount) for _ in range(3)]
    assert [int(v) for v in got] == [70, 40, 10] and BALANCE[0] == 10


def test_an_object_s_array_and_counter_change_at_every_call():
    eager, traced = RingBuffer(), RingBuffer()
    push = ag.convert(traced.push)
    for x in (1.5, 2.0, 3.0, 4.0, 1.5, 1.5):   # a Python value again: its key again
        np.testing.assert_array_equal(quietly(push, x), eager.push(x))
        np.testing.assert_array_equal(traced.buf, eager.buf)
        assert traced.count == eager.count


def test_a_decorated_method_counting_its_calls_counts_every_call():
    model = Counter()
    x = np.ones((4, 2))
    for _ in range(3):
        np.testing.assert_array_equal(quietly(model.score, x), x @ model.w)
    assert model.calls == 3


def test_a_closure_s_array_and_an_argument_object_s_array_are_written_as_eagerly():
    def make():
        hits = np.zeros(3, np.int64)

        def hit(i):
            hits[i] += 1
            return hits.sum()
        return hit, hits

    class State:
        def __init__(self):
            self.total = np.zeros(1)

    def add_to(state, x):
        state.total += x.sum()       # in place, into the argument object's array
        return state.total[0]

    hit, hits = make()
    converted = ag.convert(hit)
    assert [int(quietly(converted, 1)) for _ in range(3)] == [1, 2, 3]
    assert hits.tolist() == [0, 3, 0]
    state = State()
    add = ag.convert(add_to)
    assert [float(quietly(add, state, np.ones(2))) for _ in range(3)] == [2.0, 4.0, 6.0]


def test_reading_outside_arrays_keeps_the_graph_and_leaves_them_writeable():
    converted = ag.convert(reads_a_global)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.FallbackWarning)
        np.testing.assert_array_equal(converted(np.arange(2.0)), np.arange(2.0))
    assert converted.trace_count == 1 and W.flags.writeable
    READ_ONLY.flags.writeable = False
    try:   # an array read-only before the trace stays so
        ag.convert(lambda x: x + READ_ONLY)(np.zeros(3))
        assert not READ_ONLY.flags.writeable
    finally:
        READ_ONLY.flags.writeable = True


def test_variables_made_on_the_first_call_and_a_flag_set_once_give_a_graph_after():
    lazy = Lazy()
    apply = ag.convert(lazy.apply)
    x = np.arange(3.0)
    with pytest.warns(ag.FallbackWarning, match="sets self.built"):
        first = apply(x)            # refused once (put back), runs eagerly
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.FallbackWarning)
        second = apply(x)           # traced again: nothing changes now, a graph
    np.testing.assert_array_equal(first, x * 2)
    np.testing.assert_array_equal(second, x * 2)
    assert apply.trace_count == 1 and lazy.built   # (a refused trace is not counted)


def test_without_the_fallback_the_write_is_the_trace_s_as_in_tf_function():
    converted = ag.convert(doubles_a_global, eager_fallback=False)
    results = [converted(np.zeros(2)) for _ in range(3)]
    np.testing.assert_array_equal(results, [[2, 2]] * 3)   # the graph holds the trace's W
    np.testing.assert_array_equal(W, [2, 2])
