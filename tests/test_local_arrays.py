"""NumPy arrays made in the function, meeting traced values (#12).

`t op= v` on a local NumPy array with a traced `v` rebinds `t` to the traced
result (`autograph/operators/local_arrays.py`); a list holding traced values
where NumPy wants an array (`np.sum(L)`, `np.array([s, t])`) is built into a
traced array (`autograph/operators/array_likes.py`). Eager NumPy is the oracle.
"""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag
from autograph.testing.compare import differences


def assert_as_eager(fn, *args):
    converted = ag.convert(fn)
    eager, graph = fn(*args), converted(*args)
    found = differences(eager, graph)
    assert not found, "\n".join(line for d in found for line in d.lines())


def accumulated(x, n):
    t = np.zeros(3)
    t -= x
    t *= 2
    t += x.sum()
    for i in range(n):       # staged: t is carried
        t += x
    t /= 4
    return t


def int_buffer(x):
    counts = np.zeros(3, np.int64)
    counts += np.argmax(x)     # int into int: as NumPy
    counts //= 2
    return counts


def broadcast_into(x):
    t = np.zeros((2, 3))
    t += x                     # (3,) into (2, 3)
    return t


@pytest.mark.parametrize("fn, args", [
    (accumulated, (np.array([1.0, -2.0, 0.5]), np.int64(2))),
    (accumulated, (np.array([1.0, -2.0, 0.5]), np.int64(0))),
    (int_buffer, (np.array([1.0, 5.0, 0.5]),)),
    (broadcast_into, (np.array([1.0, 5.0, 0.5]),)),
])
def test_an_augmented_assignment_of_a_traced_value_rebinds_the_local_array(fn, args):
    assert_as_eager(fn, *args)


def written_by_calls(x, n):
    t = np.zeros(3)
    t.fill(x.sum())                  # a traced value: t becomes traced
    u = np.empty(3)
    np.add(x, t, out=u)
    v = np.ones(3)
    np.multiply(v, 2.0, out=v)       # NumPy values only: as Python
    w = x * 1.0
    w.sort()
    for i in range(n):
        u.fill(x[i])
    return t, u, v, w


G = np.zeros(3)


def fills_a_global(x):
    G.fill(1.0)                      # not a local name: written as Python, not rebound
    return x + G


@pytest.mark.parametrize("fn, args", [
    (written_by_calls, (np.array([3.0, 1.0, 2.0]), np.int64(2))),
    (written_by_calls, (np.array([3.0, 1.0, 2.0]), np.int64(0))),
    (fills_a_global, (np.array([3.0, 1.0, 2.0]),)),
])
def test_calls_that_write_a_local_array_rebind_it(fn, args):
    assert_as_eager(fn, *args)


def float_into_int(x):
    t = np.zeros(3, np.int64)
    t += x
    return t


def aliased(x):
    t = np.zeros(3)
    u = t
    t += x
    return u


def viewed(x):
    t = np.zeros(3)
    w = t[1:]
    t *= x
    return w


def test_numpys_casting_error_and_other_names_sharing_the_array_are_reported():
    x = np.array([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from dtype\\('float64'\\) "
                                        "to dtype\\('int64'\\)"):   # NumPy's UFuncTypeError
        ag.convert(float_into_int)(x)
    for fn, other, op in ((aliased, "u", "+="), (viewed, "w", "*=")):
        with pytest.raises(ag.TracingError, match=rf"'t' is written \(`t \{op} \.\.\.`\) "
                                                  rf"\(at .*test_local_arrays.py.*'{other}' "
                                                  rf"shares its memory"):
            ag.convert(fn)(x)


def list_reductions(x, k):
    s = x.sum()
    L = [s]
    L.append(x[0])
    L.append(3)                     # a Python int among them: int64, as np.array makes it
    return np.sum(L), np.mean(L), np.max([s, k]), np.array([[s, 1.0], [x[1], 2.0]])


def constructors(x, k):
    y = np.array(x)                 # a copy: writing it leaves x
    y += 1.0
    z = np.asarray(x, np.float32)
    return x, y, z, np.array([k, 2]), np.asarray([x[0], k])


@pytest.mark.parametrize("fn", [list_reductions, constructors])
def test_lists_of_traced_values_become_arrays_as_numpy_makes_them(fn):
    converted = ag.convert(fn)
    for args in [(np.array([1.0, 2.0, 3.0]), np.int64(4)), (np.array([-1.0, 0.0, 3.5]),
                                                            np.int64(-2))]:
        eager, graph = fn(*[a.copy() for a in args]), converted(*[a.copy() for a in args])
        found = differences(eager, graph)
        assert not found, "\n".join(line for d in found for line in d.lines())
    assert converted.trace_count == 1


# -- a NumPy array written between two reads of traced code ----------------------------------------

def counter_read_in_an_unrolled_loop(x):
    y = np.tanh(x)
    t = np.zeros(3)
    for v in x:               # x's length is known: the loop runs as Python
        t += 2                # t stays a NumPy array, written in place...
        y = t - y[0]          # ...and read by traced code after each write
    return y


def buffer_written_between_reads(x):
    t = np.ones(2)
    a = x + t
    t[0] = 5.0
    return a, x + t           # the second read sees the write


@pytest.mark.parametrize("fn", [counter_read_in_an_unrolled_loop, buffer_written_between_reads])
def test_a_numpy_array_written_between_reads_is_captured_as_it_is_at_each(fn):
    # once a silent wrong answer: the graph captured the array once, at its first read
    assert_as_eager(fn, np.array([0.0, 0.0, 1.0]) if fn is counter_read_in_an_unrolled_loop
                    else np.array([1.0, 2.0]))
