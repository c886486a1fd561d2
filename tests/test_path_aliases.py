"""An array that, after a staged `if` or loop, is on one path the array from before it (#12).

    w = y[::2]
    if x[0] < 0:
        y = np.copy(y) + 1     # a new array on this path; the old one on the other
    w *= 2.0                   # eagerly y sees this write on the other path only

The graph links such a result as a conditional view of the old array
(`runtime.path_aliases`), so every write in place reaches what NumPy's would;
where that cannot be followed, the write is a `TracingError`.
"""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag
from autograph.testing.compare import differences


def view_written_after_if(x):
    y = np.tanh(x)
    w = y[::2]
    if x[0] < 0:
        y = np.copy(y) + 1
    w *= 2.0
    return y


def rebound_written_after_if(x):
    y = np.tanh(x)
    w = y[::2]
    if x[0] < 0:
        y = np.copy(y) + 1
    y += 1
    return w, y


def alias_written_after_loop(x, n):
    y = x
    for j in range(n):
        x = x + 1.0
    y *= 2.0
    return x * 1.0


def argument_rebound_in_loop_then_written(x, n):
    for j in range(n):
        x = x - x.mean()
    x /= 2.0                     # after no trip: the caller's array, written
    return x


def view_of_rebound_in_while(x, n):
    y = x * 1.0
    w = y[1:]
    while n > 0:
        n -= 1
        y = y * 2
    y += 1
    return w


def passed_on_in_some_trips(x, n):
    y = x * 1.0
    z = y
    for i in range(n):
        if i > 1:
            z = z + 1.0
    y += 1.0
    return z


def kept_in_some_branches(x, n):
    y = x * 1.0
    w = y[1:]
    for i in range(n):
        if x[i % 3] > 0:
            y = y * 2
        elif x[i % 3] < -1:
            y = y + 1
    y += 1                        # the array w views, where every trip kept it
    return w, y


def passed_on_by_both_branches(x):
    y = x * 0.5
    w = y[::-1]
    if x.sum() < 0.5:
        pass
    else:
        if False:                 # y is the branches' state, but both pass it on
            y = y + 1
    w *= 0.5
    return y


def written_after_an_early_return(x):
    y = x * 0.5
    w = y[::-1]
    if x.sum() > 100:
        y = y + 1.0
        return y
    w *= 0.5                      # staged on the path that did not return
    return y


def view_written_in_nested_ifs_after_a_loop(x, n, k):
    y = x * 0.5
    done = False
    shift = lambda: y
    w = y[:]
    if x.sum() > 100:
        pass
    else:
        for j in range(1, n):
            if done:                  # w is the loop's state, passed on as it is
                w -= 2.0
        if k != 3:
            if x[1] > 2.0:
                pass
            elif np.all(shift() > 0.5):
                w *= 0.5              # the block carries y; w's own value is not stale
    return y


def view_written_in_a_loop_and_nested_ifs(x, n, k):
    y = x * 0.5
    shift = lambda: y
    w = y[:]
    if x.sum() > 100:
        pass
    else:
        for j in range(1, n):
            if x[0] > 1:
                w -= 2.0
        if k != 3:
            if x[1] > 2.0:
                pass
            elif np.all(shift() > 0.5):
                w *= 0.5
    return y


CASES = [
    (view_written_after_if, [(np.array([-1.0, 2.0, 3.0]),), (np.array([1.0, 2.0, 3.0]),)]),
    (rebound_written_after_if, [(np.array([-1.0, 2.0, 3.0]),), (np.array([1.0, 2.0, 3.0]),)]),
    (alias_written_after_loop, [(np.array([1.0, 2.0]), np.int64(n)) for n in (0, 2)]),
    (argument_rebound_in_loop_then_written, [(np.array([1.0, 2.0, 3.0]), np.int64(n))
                                             for n in (0, 2)]),
    (view_of_rebound_in_while, [(np.array([1.0, 2.0, 3.0]), np.int64(n)) for n in (0, 2)]),
    (passed_on_in_some_trips, [(np.zeros(2), np.int64(n)) for n in (0, 2, 3)]),
    (kept_in_some_branches, [(np.array([1.0, -2.0, 3.0]), np.int64(n)) for n in (0, 1, 2)]),
    (passed_on_by_both_branches, [(np.array([2.0, 0.0, 2.0]),), (np.zeros(3),)]),
    (written_after_an_early_return, [(np.array([2.0, 0.0, 2.0]),),
                                     (np.array([50.0, 0.0, 60.0]),)]),
    *[(fn, [(np.array([0.5, -1.5, 1.5]), np.int64(-1), np.int64(-6)),
            (np.array([2.0, 1.5, 2.0]), np.int64(3), np.int64(1)),
            (np.array([2.0, 1.5, 2.0]), np.int64(0), np.int64(1))])
      for fn in (view_written_in_nested_ifs_after_a_loop, view_written_in_a_loop_and_nested_ifs)],
]


@pytest.mark.parametrize("fn, arg_sets", CASES, ids=[c[0].__name__ for c in CASES])
def test_writes_reach_the_old_array_on_the_path_that_kept_it(fn, arg_sets):
    converted = ag.convert(fn)
    for args in arg_sets:
        eager_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        graph_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        eager, graph = fn(*eager_args), converted(*graph_args)
        found = differences(eager, graph) + differences(eager_args, graph_args)
        assert not found, "\n".join(line for d in found for line in d.lines())
    assert converted.trace_count == 1


def either_array(a, b, c):
    z = a if c > 0 else b        # a on one path, b on the other
    z += 1.0
    return a, b


def views_in_both_branches(x, c):
    w = x[1:] if c > 0 else x[:2]    # a view of x on each path, not the same one
    w += 1.0
    return x


@pytest.mark.parametrize("fn, args, names", [
    (either_array, (np.zeros(2), np.ones(2), np.int64(1)), ("z", "a")),
    (views_in_both_branches, (np.zeros(3), np.int64(1)), ("w", "x")),
])
def test_an_alias_the_graph_cannot_follow_is_refused_at_the_write(fn, args, names):
    with pytest.raises(ag.TracingError, match=f"test_path_aliases.py:.*'{names[0]}' is, on "
                                              f"some paths of a staged `if` or loop before it "
                                              f"only, the very array '{names[1]}' was"):
        ag.convert(fn)(*args)
