"""Statements run as Python in the graph (`python_block`) whose paths bind other types:
each call gives eager's answer (refused while tracing, or run eagerly), never a
`TypeError` when the graph runs."""
from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest

import autograph as ag


def _eager_answers(fn, *argument_tuples):
    """With the eager fallback, each call returns what eager code returns (type included)."""
    converted = ag.convert(fn, eager_fallback=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FallbackWarning)
        for args in argument_tuples:
            got, want = converted(*args), fn(*args)
            assert repr(got) == repr(want)
    return converted


def _refused(fn, args, match):
    with pytest.raises(ag.PathTypeError, match=match):
        ag.convert(fn)(*args)


# -- `try` statements whose handlers catch a kernel's error ---------------------------

def check(v):
    if np.any(np.isnan(v)):
        raise ValueError("nan in input")
    return v.max() - v.min()


def ranges_or_messages(vals):
    out = []
    for v in vals:
        try:
            out.append(check(v))
        except ValueError as e:
            out.append(str(e))
    return out


def dets_of_positive_definite(mats):
    fails = 0
    dets = []
    for m in mats:
        try:
            np.linalg.cholesky(m)
            dets.append(np.linalg.det(m))
        except np.linalg.LinAlgError:
            fails += 1
    return fails, dets


def test_a_float_or_a_str_appended_per_path():   # realcode5 repro 02
    _refused(ranges_or_messages, ([np.array([1.0, 3.0])],), "'out' is a list of length 1")
    _eager_answers(ranges_or_messages, ([np.array([1.0, 3.0]), np.array([np.nan])],),
                   ([np.array([1.0, 3.0]), np.array([2.0])],))


def test_a_list_appended_in_the_body_only():   # realcode5 repro 03
    mats = [np.eye(2) * 2, np.array([[1.0, 2.0], [2.0, 4.0]]), np.eye(2)]
    _refused(dets_of_positive_definite, (mats,), "'dets' is a list of length 1")
    _eager_answers(dets_of_positive_definite, (mats,), (mats[:1],))


def dict_value_per_path(m):
    info = {"inv": None}
    try:
        info["inv"] = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        info["inv"] = "singular"
    return info


def tuple_or_list(m):
    try:
        pair = (np.linalg.inv(m), 1)
    except np.linalg.LinAlgError:
        pair = [m, 0]
    return pair


def none_or_array(m):
    inv = None
    try:
        inv = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        pass
    return inv


def another_dtype(m):
    try:
        inv = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        inv = m.astype(np.float32)
    return inv


@pytest.mark.parametrize("fn, match", [
    (dict_value_per_path, "'info' is float64\\[2, 2\\] on one path .* and a str"),
    (tuple_or_list, "'pair' is a tuple of length 2 on one path .* a list of length 2"),
    (none_or_array, "'inv' is float64\\[2, 2\\] on one path .* and None on another"),
    (another_dtype, "'inv' is float64\\[2, 2\\] on one path .* float32\\[2, 2\\]"),
])
def test_paths_that_do_not_join_are_refused_and_run_eagerly(fn, match):
    regular, singular = np.eye(2) * 2, np.ones((2, 2))
    _refused(fn, (regular,), match)
    _eager_answers(fn, (regular,), (singular,))


def another_shape_or_a_number(m):
    total = 0
    try:
        inv = np.linalg.inv(m)
        total += inv.sum()
    except np.linalg.LinAlgError:
        inv = m[:1]
    return inv, total


def test_paths_that_join_stay_a_graph():
    converted = ag.convert(another_shape_or_a_number)   # a shape and int/float64 join
    for m in (np.eye(2) * 2, np.ones((2, 2))):
        got, want = converted(m), another_shape_or_a_number(m)
        np.testing.assert_array_equal(got[0], want[0])
        assert got[1] == want[1]


# -- loops run as Python in the graph (islands) ---------------------------------------

def dfs_weight(adj, w):
    total = 0
    stack = [0]
    seen = set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        total += w[v]
        for u in range(adj.shape[0]):
            if adj[v, u] and u not in seen:
                stack.append(u)
    return total


def dfs_weight_printing(adj, w):
    total = 0
    stack = [0]
    seen = set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        print("visit", v)
        seen.add(v)
        total += w[v]
        for u in range(adj.shape[0]):
            if adj[v, u] and u not in seen:
                stack.append(u)
    return total


def path_on_one_branch(adj, w):
    stack, path = [0], []
    seen = set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if w[v] > 1:
            path.append(v)
        for u in range(adj.shape[0]):
            if adj[v, u] and u not in seen:
                stack.append(u)
    return len(path)


ADJ = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], bool)
W = np.array([0.5, 1.5, 2.0])


def test_an_island_accumulating_floats_into_an_int_runs_eagerly():
    converted = ag.convert(dfs_weight, eager_fallback=True)
    with pytest.warns(ag.FallbackWarning, match="the `while` loop at .* bound 'total'"):
        got = converted(ADJ, W)
    assert repr(got) == repr(dfs_weight(ADJ, W))
    _eager_answers(dfs_weight, (ADJ, W), (ADJ, W.astype(np.float32)))


def test_an_island_with_an_effect_is_never_run_twice():
    converted = ag.convert(dfs_weight_printing, eager_fallback=True)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), pytest.raises(TypeError, match="'total'"):
        converted(ADJ, W)
    assert printed.getvalue().count("visit 0") == 1


def count_heavy(adj, w):
    stack, count = [0], 0
    seen = set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if w[v] > 1:
            count += 1
        for u in range(adj.shape[0]):
            if adj[v, u] and u not in seen:
                stack.append(u)
    return count


def test_an_island_whose_types_hold_stays_a_graph():
    converted = ag.convert(count_heavy)   # no fallback: the graph answers
    for w in (W, W * 0):   # a graph returns a 0-d array where eager code has a number
        got, want = converted(ADJ, w), count_heavy(ADJ, w)
        assert got == want and np.asarray(got).dtype == np.asarray(want).dtype


def test_a_list_an_island_appends_on_one_branch_runs_eagerly():
    _eager_answers(path_on_one_branch, (ADJ, W), (ADJ, W * 0))
