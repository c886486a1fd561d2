"""A value that is a Python number on one path and a NumPy value on another (#12).

    q = 0.0
    if x.sum() > 0:       # traced
        q = y.max()       # float64
    return x32 * q        # eagerly float32 on one path, float64 on the other

The graph gives `q` one type. Where NEP 50 promotes the two differently, or
the joined type cannot hold the Python number, tracing raises `TracingError`
naming the value and the line (`runtime.weak_joins`), never a silently
different answer; where every path agrees the function converts as before.
"""
from __future__ import annotations

import operator
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph as ag
from autograph.testing.compare import differences
from generated_settings import SETTINGS


def outcome(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args)
        except Exception as error:  # noqa: BLE001 - the error is the outcome
            return error


def assert_as_eager(fn, converted, *args):
    eager, graph = outcome(fn, *args), outcome(converted, *args)
    if isinstance(eager, Exception) or isinstance(graph, Exception):
        assert type(eager) is type(graph), f"{fn.__name__}{args}: eager {eager!r}, graph {graph!r}"
        return
    found = differences(eager, graph)
    assert not found, "\n".join(line for d in found for line in d.lines())


def scaled_by_branch(x32, y64):
    q = 0.0
    if x32.sum() > 0:
        q = q + y64.max()
    return x32 * q


def scaled_after_loop(x32, y64, n):
    s = 0.0
    for i in range(n):
        s = s + y64[i]
    return x32 * s


def derived_then_scaled(x32, y64):
    q = 0.0
    if x32.sum() > 0:
        q = y64.max()
    r = q * 2 + 1
    return x32 * r


def int8_plus_large(x8):
    q = 0
    if x8.sum() > 0:
        q = x8[0]
    return q + 200


@pytest.mark.parametrize("fn, args, names, what", [
    (scaled_by_branch, (np.float32([1, 2]), np.float64([3.0])), "'q'",
     "multiply gives float32 for the Python number and float64 for the NumPy value"),
    (scaled_after_loop, (np.float32([1, 2]), np.float64([3.0, 4.0]), np.int64(2)), "'s'",
     "multiply gives float32 for the Python number and float64 for the NumPy value"),
    (derived_then_scaled, (np.float32([1, 2]), np.float64([3.0])), "'r' (computed from 'q')",
     "multiply gives float32"),
    (int8_plus_large, (np.int8([1, 2]),), "'q'",
     "add fails on the NumPy value (Python integer 200 out of bounds for int8), and "
     "Python's operator on Python numbers may not"),
])
def test_a_use_whose_type_depends_on_the_path_is_refused_at_the_users_line(fn, args, names, what):
    with pytest.raises(ag.TracingError) as caught:
        ag.convert(fn)(*args)
    message = str(caught.value)
    assert message.startswith(f"{names} is a Python "), message
    assert what in message and "test_weak_joins.py" in message and f"in {fn.__name__})" in message


def accumulated(x32, n, y64):
    total = 0.0
    best = np.inf
    for i in range(n):
        total = total + x32[i]           # float32 from the first trip on: no float64 path
        if x32[i] < best:
            best = x32[i]
    q = 0.0
    if total > 1:
        q = q + y64.max()
    return total * x32, best, q + 1, q * y64, q < 2.5, q / n


def test_uses_on_which_every_path_agrees_convert_and_match_eager():
    f = ag.convert(accumulated)
    x32, y64 = np.float32([0.5, 2.0, -1.0]), np.float64([2.0, 3.0])
    for n in (np.int64(0), np.int64(1), np.int64(3)):
        assert_as_eager(accumulated, f, x32, n, y64)
    assert f.trace_count == 1


def traced_python_step(x32, n, step):
    t = 0.0
    while n > 0:
        n -= 1
        t = t + step            # a Python float the graph computes (`step` is static)
    if x32 > 0:
        y = t
    else:
        y = x32
    return y


def test_a_traced_python_number_that_float32_cannot_hold_fails_when_the_graph_runs():
    f = ag.convert(traced_python_step)
    assert_as_eager(traced_python_step, f, np.float32(1), np.int64(2), 0.5)
    assert_as_eager(traced_python_step, f, np.float32(-1), np.int64(2), 0.1)
    with pytest.raises(ag.PathTypeError, match="cannot hold it exactly"):
        f(np.float32(1), np.int64(1), 0.1)     # eagerly the Python float 0.1


# -- every path: the graph gives eager's answer, or refuses while tracing ------------------
PYTHON_NUMBERS = [0, 1, -3, 2**40, True, 0.0, 0.5, 0.1, -2.5, 1e300, 1j]
DTYPES = ["int8", "uint8", "int64", "float32", "float64", "bool", "complex64"]
OPS = [operator.add, operator.mul, operator.truediv, operator.lt, operator.floordiv]


def _program(python, op, in_loop):
    """`q` is `python` on one path and a NumPy scalar (`a[0]`) on the other."""
    if in_loop:
        def f(p, a, b):
            q = python
            for _ in range(p):
                q = a[0]
            return op(q, b), op(b, q), q
    else:
        def f(p, a, b):
            q = python
            if p > 0:
                q = a[0]
            return op(q, b), op(b, q), q
    return f


@SETTINGS
@given(python=st.sampled_from(PYTHON_NUMBERS), op=st.sampled_from(OPS),
       a=st.sampled_from(DTYPES), b=st.sampled_from(DTYPES), in_loop=st.booleans())
def test_a_python_number_joined_on_one_path_is_eager_or_refused(python, op, a, b, in_loop):
    fn = _program(python, op, in_loop)
    converted = ag.convert(fn)
    a_values, b_values = np.ones(1, a), np.full(2, 3, b)
    for p in (np.int64(0), np.int64(1)):
        eager = outcome(fn, p, a_values, b_values)
        if isinstance(eager, Exception):
            continue  # NumPy refuses the mix itself on that path
        graph = outcome(converted, p, a_values, b_values)
        if isinstance(graph, ag.TracingError):
            continue  # refused while tracing, naming the value
        assert not isinstance(graph, Exception), f"p={p}: {graph!r}, eager {eager!r}"
        found = differences(eager, graph)
        assert not found, "\n".join(line for d in found for line in d.lines())


def _label(x):
    if np.any(x < 0) and not np.all(x < 0):
        return "mixed"
    elif np.all(x < 0):
        return "neg"
    return "pos"


@pytest.mark.parametrize("x", [np.array([1.0, -1.0]), np.array([-1.0, -2.0]),
                               np.array([1.0, 2.0])], ids=["mixed", "neg", "pos"])
def test_strings_of_different_lengths_join_in_the_wider(x):
    got = ag.convert(_label)(x)
    assert type(got) is str and got == _label(x)   # Python's str, as eager returns


def test_a_string_and_a_number_stay_a_path_type_error():
    def f(x):
        return "none" if x.sum() > 0 else 0.0
    with pytest.raises(ag.PathTypeError, match="in one branch of a traced condition"):
        ag.convert(f)(np.ones(2))
