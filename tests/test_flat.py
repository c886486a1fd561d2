"""`x.flat` of a traced x (`runtime/ops/flat.py`): reads, in-place writes, iteration.

Eager NumPy is the oracle: reads are copies in C order (of a view too), writes
repeat or cut their values as NumPy's flat writes do and reach every name of x,
`for v in x.flat` is staged over `np.ravel(x)`; the rest of flatiter is a clear error.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph.testing.compare import differences
from oracle import run_every_way

X = np.arange(6.0).reshape(2, 3)


def assert_as_eager(fn, *args):
    copies = lambda: [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]  # noqa
    try:
        eager = fn(*copies())
    except Exception as error:
        with pytest.raises(type(error)):
            ag.convert(fn)(*copies())
        return
    found = differences(eager, ag.convert(fn)(*copies()))
    assert not found, "\n".join(line for d in found for line in d.lines())


@pytest.mark.parametrize("index", [
    4, -1, np.int64(2), slice(1, 5, 2), slice(None, None, -1), [0, 5, 5],
    np.array([[0, 1], [2, 3]]), Ellipsis, (3,), (), np.array([True, False] * 3),
    np.array([], np.int64)])
@pytest.mark.parametrize("x", [X, X.T, np.arange(4).reshape(2, 2, 1)])
def test_reads_match_numpy(x, index):
    if isinstance(index, np.ndarray) and index.dtype == bool and index.size != x.size:
        index = np.arange(x.size) % 2 == 0
    run_every_way(lambda x: x.flat[index], x)


def test_traced_indices_and_len_and_copy():
    def f(x, i, k):
        return x.flat[i], x.flat[k], len(x.flat), x.flat.copy()
    run_every_way(f, X, np.array([5, 0, 0]), np.int64(-2))


def total(x):
    s = 0.0
    for v in x.flat:
        s += v
    return s


def weighted(x):
    s = 0.0
    for i, v in enumerate(x.flat):
        s += i * v
    return s


def zero_every_other(x):
    y = x.copy()
    y.flat[::2] = 0
    return y


def cycled(x, v):
    x.flat[[0, 1, 2, 3]] = v         # v repeated (or cut) to 4 values
    return x


def through_another_name(x):
    y = x
    x.flat[1] = 100
    return y


def through_a_view(x):
    x.T.flat[1] = 100                # x.T's C order
    return x


def masked(x, m):
    x.flat[m] = [1.0, 2.0]
    return x


def in_a_loop(x, n):
    for i in range(n):
        x.flat[i] = i * 2.0
    return x


def under_an_if(x, c):
    if c > 0:
        x.flat[-1] = c
    return x


def assigned_whole(x):
    x.flat = [1, 2]
    return x


def int_truncated(x):
    x.flat[1] = 2.7
    return x


def nothing_written(x):
    x.flat[0:3] = []
    return x


def copied_read(x):
    y = x.flat[1:3]                  # a copy: writing it leaves x
    y[0] = 55
    return x, y


@pytest.mark.parametrize("fn, args", [
    (total, (X,)), (total, (X.T,)), (weighted, (X,)), (zero_every_other, (X,)),
    (cycled, (X, np.array([10.0, 20.0]))), (cycled, (X, np.arange(5.0))),
    (cycled, (X, np.float64(7))), (through_another_name, (X,)), (through_a_view, (X,)),
    (masked, (X, np.array([True, False] * 3))), (in_a_loop, (X, np.int64(4))),
    (under_an_if, (X, np.float64(3))), (under_an_if, (X, np.float64(-3))),
    (assigned_whole, (X,)), (int_truncated, (np.arange(6).reshape(2, 3),)),
    (nothing_written, (X,)), (copied_read, (X,)),
])
def test_iteration_and_writes_match_numpy(fn, args):
    assert_as_eager(fn, *args)


def test_a_flat_loop_is_one_staged_loop():
    graph = ag.convert(total).get_concrete_function(np.zeros((40, 50))).graph
    assert "while_loop" in str(graph) and str(graph).count("add") < 10


def test_a_written_argument_reaches_the_caller():
    x = X.copy()
    ag.convert(through_another_name)(x)
    assert x[0, 1] == 100


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_generated_flat_writes_match_numpy(data):
    size = data.draw(st.integers(1, 8))
    x = np.arange(float(size))
    index = data.draw(st.one_of(
        st.integers(-size, size - 1),
        st.builds(slice, st.none() | st.integers(-9, 9), st.none() | st.integers(-9, 9),
                  st.sampled_from([None, 1, 2, -1, 3])),
        st.lists(st.integers(-size, size - 1), max_size=6).map(lambda v: np.array(v, int))))
    count = data.draw(st.integers(0, 4))
    value = np.arange(10.0, 10.0 + count) if not isinstance(index, int) else np.float64(9)
    shape = data.draw(st.sampled_from([(size,), (1, size), (size, 1)]))

    def write(x, v):
        x.flat[index] = v
        return x
    assert_as_eager(write, x.reshape(shape), value)


@pytest.mark.parametrize("fn, error, match", [
    (lambda x: x.flat[0, 1], IndexError, "too many indices for flat iterator"),
    (lambda x: x.flat[None], IndexError, "valid indices"),
    (lambda x: x.flat[6], IndexError, "out of bounds"),
    (lambda x: x.flat.__setitem__(1, [1, 2]), ValueError, "Error setting single item"),
    (lambda x: x.flat.__setitem__((), 1), IndexError, "0-D index"),
])
def test_bad_indices_and_values_raise_numpys_error(fn, error, match):
    with pytest.raises(error, match=match):
        fn(X.copy())
    with pytest.raises(error, match=match):
        ag.convert(fn, autograph=False)(X.copy())


@pytest.mark.parametrize("fn, match", [
    (lambda x: x.flat.index, "flatiter.index"),
    (lambda x: x.flat.coords, "flatiter.coords"),
    (lambda x: np.asarray(x.flat), r"np\.asarray\(x\.flat\)"),
])
def test_the_rest_of_flatiter_is_a_clear_error_naming_the_line(fn, match):
    with pytest.raises(ag.TracingError, match=match + r".*test_flat\.py"):
        ag.convert(fn, autograph=False)(X)


def test_an_index_out_of_bounds_is_numpys_index_error_when_the_graph_runs():
    f = ag.convert(lambda x, i: x.flat[i])
    f.get_concrete_function(X, np.array([0]))
    with pytest.raises(IndexError):
        f(X, np.array([6]))


def test_a_gradient_flows_through_flat_reads_and_writes():
    from gradcheck import check_grad

    def f(x, v):
        y = x.copy()
        y.flat[[0, 4]] = v * 2.0
        return y * x.flat[1]
    check_grad(f, X + 0.5, np.array([1.5, -2.0]), autograph=True)
