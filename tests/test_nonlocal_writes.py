"""Closures that assign their enclosing function's variables (`nonlocal`) inside staged
blocks, each against eager; a module's `global` assigned there stays refused."""
from __future__ import annotations

import contextlib

import numpy as np
import pytest

import autograph as ag


def _accumulate(x):
    total = 0.0

    def add(v):
        nonlocal total
        total += v
    for v in x:            # a staged loop: it threads `total`, which `add` rebinds
        add(v)
    return total


def _count_positive(x):
    count = 0

    def bump(v):
        nonlocal count
        if v > 0:          # a staged `if` in the closure threads its own nonlocal
            count += 1
    for v in x:
        bump(v)
    return count


def _until_limit(x, limit):
    seen = 0.0
    steps = 0

    def take(v):
        nonlocal seen, steps
        seen = seen + abs(v)
        steps += 1
    i = 0
    while i < x.shape[0]:
        if seen > limit:
            break
        take(x[i])
        i += 1
    return seen, steps


def _reset_in_branch(x):
    best = -np.inf

    def consider(v):
        nonlocal best
        best = v if v > best else best
    for v in x:
        if v < 0:
            continue
        consider(v)
    return best


CASES = [(_accumulate, (np.array([1.0, -2.0, 3.5]),)),
         (_count_positive, (np.array([1.0, -2.0, 3.0, 0.0, 4.0]),)),
         (_until_limit, (np.array([1.0, -2.0, 3.0, 4.0]), np.float64(2.5))),
         (_until_limit, (np.array([0.5, 0.5]), np.float64(9.0))),
         (_reset_in_branch, (np.array([-1.0, 2.0, -3.0, 1.5]),)),
         (_reset_in_branch, (np.array([-1.0, -2.0]),))]


@pytest.mark.parametrize("fn, args", CASES, ids=[f"{fn.__name__}-{k}" for k, (fn, _) in
                                                   enumerate(CASES)])
def test_a_closures_nonlocal_write_in_a_staged_block_is_eagers(fn, args):
    want = fn(*args)
    got = ag.convert(fn)(*args)
    for w, g in zip(*(v if isinstance(v, tuple) else (v,) for v in (want, got))):
        np.testing.assert_array_equal(g, w)
        assert np.asarray(g).dtype == np.asarray(w).dtype


SEEN = []
LAST = 0.0


def _global_write(x):
    global LAST
    for v in x:
        if v > 0:
            LAST = v       # a traced value would outlive its trace in the module
    return x


def test_a_global_write_in_a_staged_block_is_refused_naming_it():
    with pytest.raises(ag.ConversionError, match=r"assigning the global or nonlocal variable "
                                                 r"'LAST' inside an `if` or loop on a traced "
                                                 r"value is not supported \(at .*test_nonlocal"):
        ag.convert(_global_write)(np.array([1.0, -1.0]))


def _apply_each(fn, x):
    for v in x:            # this loop threads its own names, not the caller's `total`
        fn(v)


def _callback_elsewhere(x):
    total = 0.0

    def add(v):
        nonlocal total
        total += v
    _apply_each(add, x)
    return total


def test_a_closure_called_by_another_functions_staged_loop_is_refused():
    with pytest.raises(ag.ConversionError, match="nonlocal variable 'total'"):
        ag.convert(_callback_elsewhere)(np.array([1.0, 2.0]))


def _sorted_in_loops(x, n):
    i = 0
    while i < n:
        x = np.sort(x, axis=0)   # `np.sort`: a module's function, not `t.sort()` of a local
        x = x[::-1] * -1.0
        i += 1
    for _ in range(n):
        x = np.sort(x)
    t = x.copy()
    for _ in range(n):
        t.sort()                 # a local written in place: carried by the loop
        t = t[::-1] + 1.0
    return x, t


def test_a_modules_function_named_like_an_in_place_method_is_not_state():
    x = np.array([[3.0, 1.0], [-2.0, 5.0], [0.5, 0.0]])
    want = _sorted_in_loops(x.copy(), 3)
    got = ag.convert(_sorted_in_loops)(x.copy(), np.int64(3))
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)


def _closure_appends(x):
    log = []

    def record(v):
        log.append(v * 2)   # the enclosing function's list: appended, never rebound
    record(x[0])
    record(x[-1])
    return np.stack(log), len(log)


def test_a_closure_appending_to_its_enclosing_functions_list_is_eagers():
    x = np.array([1.0, 2.0, 3.0])
    want, got = _closure_appends(x), ag.convert(_closure_appends)(x)
    np.testing.assert_array_equal(got[0], want[0])
    assert int(got[1]) == want[1]


def _accumulate_in_a_try(x, m, scale=2.0):
    total = 0.0
    v = x[1:]

    def add(u):
        nonlocal total
        total += u
    with contextlib.suppress(KeyError):
        for u in v:
            if u > 0:
                add(u * scale)
    try:
        inv = np.linalg.inv(m)   # a try that runs as Python when the graph runs
    except np.linalg.LinAlgError:
        inv = np.eye(2)
        add(-1.0)
    v[0] = total                 # an item write through the view
    return total, inv, x


@pytest.mark.parametrize("m", [np.array([[2.0, 1.0], [1.0, 3.0]]), np.ones((2, 2))],
                         ids=["invertible", "singular"])
def test_a_closures_nonlocal_write_inside_try_and_with_blocks_is_eagers(m):
    x = np.array([1.0, -2.0, 3.5, 0.5])
    want = _accumulate_in_a_try(x.copy(), m)
    got = ag.convert(_accumulate_in_a_try)(x.copy(), m)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)
