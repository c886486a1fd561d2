"""Array item and slice writes: `x[i] = v` in converted code, everywhere (issue #12).

The eager function is the oracle. Each test runs it on fresh copies of its
arguments and compares what it returns and what it left in its arguments.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest

import autograph as ag
from autograph.conversion import convert_function

G = np.zeros(3)


class Box:
    pass


# -- the rewrite: valid code for every subscript, the local root rebound ----------------------

def test_the_root_of_a_write_is_rebound_and_slices_become_calls():
    def f(x, o):
        x[1:, ::2] = 7
        x[..., 0] = 1
        y = x[:, None]
        x[0:1] += 2
        o.b[1] = 5
        return y

    code = ag.to_code(ag.convert(f))
    assert "x = ag__.setitem(x, (ag__.slice_(1, None, None), ag__.slice_(None, None, 2)), 7, 'x')" \
        in code
    assert "x = ag__.setitem(x, (..., 0), 1, 'x')" in code
    assert "y = x[:, None]" in code
    assert "x = ag__.setitem(x, ag__.slice_(0, 1, None), x[0:1] + 2, 'x')" in code
    assert "o = ag__.setattr_(o, 'b', ag__.setitem(o.b, 1, 5, 'o.b'), 'o')" in code


def test_roots_that_are_not_local_names_are_written_through_not_rebound():
    def f(x):
        G[0] = 4

        def inner():
            x[0] = -1
        inner()
        return x

    code = ag.to_code(ag.convert(f))
    assert "\n    ag__.setitem(G, 0, 4, 'G')" in code
    assert "\n        ag__.setitem(x, 0, -1, 'x')" in code


def _python_forms(x, o, lst):
    x[1:, ::2] = 7
    x[..., 0] = 1
    x[0:1] += 2
    x[-1, 1:3] -= np.array([1.0, 2.0])
    o.a = 3
    o.b = np.zeros(4)
    o.b[1] = 5
    o.b[2:] += 1
    lst[0][1] = 9
    lst[1] += [7]
    a = np.arange(6)
    a[[0, 1]][0] = 100        # a copy is written: Python leaves `a` as it was
    t = np.zeros((2, 3))
    t.T[0] = 4                # a view is written: `t` changes
    t[1][2] = 8
    d = {"k": [0, 0]}
    d["k"][0] = 3
    return x, o.a, o.b, lst, a, t, d


def test_python_values_are_written_in_place_as_python_does():
    fn = convert_function(_python_forms)
    x, lst = np.zeros((3, 4)), [[0, 0], [1]]
    out = fn(x, Box(), lst)
    expect_x, expect_lst = np.zeros((3, 4)), [[0, 0], [1]]
    expect = _python_forms(expect_x, Box(), expect_lst)
    for got, want in zip(out, expect):
        if isinstance(want, np.ndarray):
            np.testing.assert_array_equal(got, want)
        else:
            assert got == want
    np.testing.assert_array_equal(x, expect_x)
    assert lst == expect_lst
