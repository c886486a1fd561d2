"""Visits that mark what they saw (a DFS), written by a nested function a staged `if`
calls: the marks are the function's, not the branch's, and must not be written while
tracing (the retraced branch would find them set and skip its work: a silent answer).
Each is refused without the eager fallback, or matches eager; with it, eager's answer."""
import warnings

import numpy as np
import pytest

import autograph as ag


def dfs_state_array(adj):
    state = np.zeros(len(adj), dtype=np.int8)
    order = []

    def visit(u):
        if state[u] == 0:
            state[u] = 1
            for v in range(len(adj)):
                if adj[u, v]:
                    visit(v)
            order.append(u)

    visit(0)
    return order


def dfs_early_return(adj):
    state = np.zeros(len(adj), dtype=np.int8)
    order = []

    def visit(u):
        if state[u]:
            return
        state[u] = 1
        for v in range(len(adj)):
            if adj[u, v]:
                visit(v)
        order.append(u)

    visit(0)
    return order


def dfs_count(adj):
    state = np.zeros(len(adj), dtype=np.int8)

    def visit(u):
        if state[u]:
            return 0
        state[u] = 1
        n = 1
        for v in range(len(adj)):
            if adj[u, v]:
                n += visit(v)
        return n

    return visit(0)


def _dfs_with(seen_kind):
    def dfs(adj):
        seen = {"set": set(), "dict": {}, "list": [False] * len(adj)}[seen_kind]
        order = []

        def visit(u):
            if (seen[u] if seen_kind == "list" else u in seen):
                return
            if seen_kind == "set":
                seen.add(u)
            else:
                seen[u] = True
            for v in range(len(adj)):
                if adj[u, v]:
                    visit(v)
            order.append(u)

        visit(0)
        return order
    return dfs


def dfs_nonlocal_mask(adj):
    mask = 0
    order = []

    def visit(u):
        nonlocal mask
        if mask & (1 << u):
            return
        mask |= 1 << u
        for v in range(len(adj)):
            if adj[u, v]:
                visit(v)
        order.append(u)

    visit(0)
    return order


def mark_closure_array(adj):
    state = np.zeros(3)

    def mark(u):
        state[u] = 1

    for v in range(3):
        if adj[0, v]:
            mark(v)
    return state


def mark_closure_ufunc_at(adj):
    state = np.zeros(3)

    def mark(u):
        np.add.at(state, u, 1)

    for v in range(3):
        if adj[0, v]:
            mark(v)
    return state


def mark_closure_view(adj):
    state = np.zeros(3)

    def mark(u):
        w = state[u:]
        w[0] = 1

    for v in range(3):
        if adj[0, v]:
            mark(v)
    return state


def visit_once_closure_array(adj):
    state = np.zeros(3, dtype=np.int8)
    order = []

    def visit(u):
        if state[u] == 0:
            state[u] = 1
            order.append(u)

    for v in range(3):
        if adj[0, v]:
            visit(v)
    return order


def count_nonlocal(adj):
    count = 0

    def visit(u):
        nonlocal count
        count += 1

    for v in range(3):
        if adj[0, v]:
            visit(v)
    return count


FUNCTIONS = [dfs_state_array, dfs_early_return, dfs_count, _dfs_with("set"),
             _dfs_with("dict"), _dfs_with("list"), dfs_nonlocal_mask, mark_closure_array,
             mark_closure_ufunc_at, mark_closure_view, visit_once_closure_array,
             count_nonlocal]
IDS = ["state_array", "early_return", "count", "set", "dict", "list", "nonlocal_mask",
       "closure_array", "closure_ufunc_at", "closure_view", "visit_once", "count_nonlocal"]
GRAPHS = [np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]]),
          np.array([[0, 1, 1], [0, 0, 1], [1, 0, 0]]),
          np.zeros((3, 3), dtype=np.int64)]


def _same(got, want):
    assert type(got) is type(want) or np.ndim(want) > 0 or isinstance(got, np.ndarray)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("fn", FUNCTIONS, ids=IDS)
def test_without_fallback_refused_or_eager(fn):
    converted = ag.convert(fn, eager_fallback=False)
    for adj in GRAPHS:
        want = fn(adj)
        try:
            got = converted(adj)
        except ag.AutographError:
            continue
        _same(got, want)


@pytest.fixture
def fallback_on():
    before = ag.set_eager_fallback(True)   # the suite turns it off (tests/conftest.py)
    yield
    ag.set_eager_fallback(before)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=IDS)
def test_with_fallback_eager_answer(fn, fallback_on):
    converted = ag.convert(fn)
    for adj in GRAPHS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ag.FallbackWarning)
            got = converted(adj)
        _same(got, fn(adj))


@pytest.mark.parametrize("fn", [dfs_state_array, dfs_early_return, mark_closure_array,
                                mark_closure_ufunc_at],
                         ids=["state_array", "early_return", "closure_array", "ufunc_at"])
def test_closure_array_write_in_staged_branch_refused(fn):
    with pytest.raises(ag.TracingError, match="'state'.* is written in place inside it"):
        ag.convert(fn, eager_fallback=False)(GRAPHS[0])
