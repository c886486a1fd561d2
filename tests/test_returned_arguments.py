"""A function that writes its argument and returns it (or a view of it) returns the caller's
array, as eagerly: `b[0] *= 2; return b` gives `b` itself, so the caller's later writes
through the result reach `b` (LINPACK-style solvers, in-place row swaps). The oracle is
the eager function on a copy of the same arguments, followed by the same writes through
its results."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag


def scale_in_place(b):
    b[0] *= 2.0
    return b


def views_after_a_write(b):
    b[0] *= 2.0
    return b[1:], b.T, b[::2, 1], b


def two_arguments(a, b):
    a += 1
    b[-1] = 0.0
    return b, a, a[0]


def zero_d_in_place(z):
    z += 1
    return z


def swap_rows(m, i, j):
    m[[i, j]] = m[[j, i]]
    return m


CASES = [
    (scale_in_place, lambda: (np.ones(3),)),
    (views_after_a_write, lambda: (np.ones((3, 2)),)),
    (two_arguments, lambda: (np.zeros(3), np.ones((2, 2)))),
    (swap_rows, lambda: (np.arange(6.0).reshape(3, 2), 0, 2)),
    (zero_d_in_place, lambda: (np.array(2.0),)),
]


@pytest.mark.parametrize("fn, make", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_writes_through_returned_arguments_reach_the_caller_s_arrays(fn, make):
    converted = ag.convert(fn, eager_fallback=False)
    for _ in range(2):   # the trace, then the cached graph
        eager_args, graph_args = make(), make()
        want, got = fn(*eager_args), converted(*graph_args)
        want = want if isinstance(want, tuple) else (want,)
        got = got if isinstance(got, tuple) else (got,)
        for w, g in zip(want, got):
            assert isinstance(g, np.ndarray)
            if isinstance(w, np.ndarray):
                w[...] = w * 3 + 1   # the caller writes through each result
                g[...] = g * 3 + 1
            else:
                np.testing.assert_array_equal(g, w)
        for w, g in zip(eager_args, graph_args):
            np.testing.assert_array_equal(g, w)
        for w, g in zip(want, got):
            assert any(np.shares_memory(w, a) for a in eager_args
                       if isinstance(a, np.ndarray)) == \
                any(np.shares_memory(g, a) for a in graph_args if isinstance(a, np.ndarray))
