"""Loops over Python ranges whose exit turns traced are staged as one loop (issue #12).

`for i in range(1000)` whose body breaks or returns on a traced value used to be
unrolled into 1,000 nested conds (an `UnrolledLoopWarning` and a slow first
call). Once the exit flag is traced, the remaining trips run as one staged
`while_loop` over the range's index: its trip count known, its exit dynamic.
Each function runs eagerly and converted for several values through one trace;
the graph is checked for one `while_loop` and no chain of conds.
"""
import warnings

import numpy as np
import pytest

import autograph as ag
from autograph.operators.loops import UnrolledLoopWarning


def brief(x):
    s = 0.0
    for i in range(1000):
        if s > x:
            break
        s = s + i
    return s


def returns(x):
    s = 0.0
    for i in range(1000):
        if s > x:
            return s * 2
        s = s + i
    return -s


def stepped(x):
    s = 0
    for i in range(3, 900, 7):
        if s * 1.0 > x:
            break
        s = s + i
    return s


def while_python_test(x):
    s = 0.0
    i = 0
    while i < 1000:
        if s > x:
            break
        s = s + i
        i += 1
    return s, i


def while_true_return(x):
    s = 0.0
    i = 0
    while True:
        s = s + i
        i += 1
        if s > x:
            return s


def over_arrays(x):
    rows = [x * 1.0, x * 2.0, x * 3.0, x * 4.0, x * 5.0]
    total = np.zeros_like(x)
    for row in rows:
        if total.sum() > 20.0:
            break
        total = total + row
    return total


def continues(x):
    s = 0.0
    for i in range(1000):
        if s > x:
            continue
        s = s + i
    return s


def branch_each_trip(x):
    s = 0.0
    for i in range(600):
        if s < x:         # an `if` on a traced value in every trip
            s = s + i
        else:
            s = s - 1.0
    return s


def short_continue(x):
    s = 0.0
    for i in range(5):
        if s > x:
            continue
        s = s + i     # few trips: unrolled, as before
    return s


def float32_state(x):
    s = x * 0
    for i in range(50):
        if s > x * 10:
            break
        s = s + i     # float32 plus a Python int stays float32, as eagerly
    return s


def index_after_break(x):
    s = 0.0
    for i in range(500):
        if s > x:
            break
        s = s + 0.5 * i
    return s, i       # the trip that broke, not the range's last value


def long_float32_state(x):
    s = np.float32(0)
    for i in range(500):
        if s > x:
            break
        s = s + x * i  # float32 times the loop's Python int stays float32 in the staged loop
    return s, i


def python_list_indexed(x):
    weights = [1.0, 2.0, 3.0, 4.0]
    s = 0.0
    for i in range(4):
        if s > x:
            break
        s = s + weights[i]   # a Python list indexed by the loop's int: trips stay unrolled
    return s


SCALARS = [np.float64(v) for v in (-1.0, 0.0, 10.0, 100.0, 4000.0, 1e9)]
CASES = [
    (brief, SCALARS),
    (returns, SCALARS),
    (stepped, SCALARS),
    (while_python_test, SCALARS),
    (while_true_return, SCALARS[:-1]),
    (over_arrays, [np.array([1.0, 2.0]), np.array([0.5, 0.5]), np.array([-1.0, 3.0])]),
    (continues, SCALARS),
    (branch_each_trip, SCALARS),
    (short_continue, SCALARS),
    (float32_state, [np.float32(v) for v in (-1.0, 3.0, 50.0)]),
    (index_after_break, SCALARS),
    (long_float32_state, [np.float32(v) for v in (-1.0, 0.5, 10.0, 1e9)]),
    (python_list_indexed, [np.float64(v) for v in (-1.0, 0.5, 2.0, 100.0)]),
]


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if isinstance(want, np.generic) and want.dtype == np.float32:
        assert np.asarray(got).dtype == np.float32
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("fn,inputs", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_matches_eager_through_one_trace(fn, inputs):
    converted = ag.convert(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnrolledLoopWarning)
        for x in inputs:
            _same(converted(x), fn(x))
    assert converted.trace_count == 1


@pytest.mark.parametrize("fn", [brief, returns, stepped, while_python_test, while_true_return,
                                over_arrays, continues, branch_each_trip, index_after_break,
                                long_float32_state])
def test_staged_as_one_loop(fn):
    x = CASES[[f for f, _ in CASES].index(fn)][1][0]
    graph = str(ag.convert(fn).get_concrete_function(x).graph)
    assert graph.count("= while_loop") == 1
    assert graph.count("= cond") < 12   # the body's few conds, not one per trip


def test_range_loop_is_one_graph_of_bounded_size():
    graph = ag.convert(brief).get_concrete_function(np.float64(1.0)).graph
    assert len(str(graph).splitlines()) < 60   # 1,000 unrolled trips printed ~20,000 lines


@pytest.mark.parametrize("fn", [python_list_indexed, short_continue])
def test_unrolled_where_staging_cannot_or_need_not(fn):
    # a body that indexes a Python list with the loop's int cannot take a traced
    # index; a short loop with a traced `continue` stays unrolled
    graph = str(ag.convert(fn).get_concrete_function(np.float64(1.0)).graph)
    assert "while_loop" not in graph
