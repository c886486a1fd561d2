"""An `assert`'s message (and the other side of `and`, `or`, `x if c else y`) is evaluated
only where Python evaluates it: converted code gives eager's result or eager's error."""
import numpy as np
import pytest

import autograph as ag


def _same_as_eager(fn, *args):
    """`fn(*args)` converted (no eager fallback) returns or raises what eager does."""
    converted = ag.convert(fn, eager_fallback=False)
    try:
        expected = fn(*args)
    except Exception as error:  # noqa: BLE001 - the oracle's error
        with pytest.raises(type(error)) as raised:
            converted(*args)
        return raised.value
    np.testing.assert_array_equal(converted(*args), expected)
    return expected


def test_a_passing_traced_assert_does_not_raise_its_messages_error():
    def f(x):
        assert np.all(x >= 0), f"bad values, min={x.min()}"
        return 1 - x
    _same_as_eager(f, np.array([], dtype=float))
    _same_as_eager(f, np.array([1.0, 2.0]))


def test_a_failing_traced_assert_raises_its_messages_error():
    def f(x):
        assert np.sum(x) > 100, f"min={np.zeros(0).min()}"
        return x
    assert "zero-size" in str(_same_as_eager(f, np.ones(3)))
    _same_as_eager(f, np.full(3, 50.0))


def test_a_failing_traced_assert_shows_the_values_of_its_message():
    def f(x):
        assert np.all(x >= 0), f"min={x.min()}"
        return x
    g = ag.convert(f, eager_fallback=False)
    np.testing.assert_array_equal(g(np.ones(2)), np.ones(2))
    with pytest.raises(AssertionError, match=r"min=-3\.0"):
        g(np.array([1.0, -3.0]))


def test_a_passing_python_assert_never_calls_its_message():
    calls = []

    def message(x):
        calls.append(1)
        return x.min()

    def f(x):
        assert x.ndim == 1, message(x)
        return x + 1
    _same_as_eager(f, np.zeros(0))
    assert calls == []
    assert "zero-size" in str(_same_as_eager(f, np.zeros((0, 2))))


def test_a_python_assert_in_a_staged_branch_builds_its_message_only_where_it_fails():
    def f(x, flag):
        if flag > 0:
            assert x.size > 0, f"empty, min={x.min()}"
            x = x + 1
        return x
    _same_as_eager(f, np.zeros(0), np.int64(0))
    _same_as_eager(f, np.ones(2), np.int64(1))


def test_and_or_and_conditional_expressions_leave_the_other_side_alone():
    def f(x):
        a = x.size > 0 and x.min() > 0
        b = x.size == 0 or x.max() > 0
        c = x.min() if x.size else -1.0
        d = -1.0 if not x.size else x.max()
        return a, b, c, d
    for x in (np.zeros(0), np.array([2.0, 3.0])):
        converted = ag.convert(f, eager_fallback=False)(x)
        for got, want in zip(converted, f(x)):
            np.testing.assert_array_equal(got, want)


def test_traced_and_or_evaluate_the_other_side_only_where_it_runs():
    def f(x, n):
        a = (n > 0) and bool(x[:n].min() > 0)
        b = (n == 0) or bool(x[:n].max() > 4)
        return a, b
    x = np.array([4.0, 5.0])
    for n in (np.int64(0), np.int64(2)):
        converted = ag.convert(f, eager_fallback=False)(x, n)
        for got, want in zip(converted, f(x, n)):
            np.testing.assert_array_equal(got, want)
