"""`in` and `not in` of traced values (autograph/operators/logical.py `in_`), against eager
NumPy: a traced number looked up in a tuple, list or set of numbers, and anything looked
up in a traced array."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import autograph as ag


def life_rule(counts, alive):
    out = np.zeros_like(counts)
    for i in range(counts.shape[0]):
        n = counts[i]
        if alive[i] and n in (2, 3) or not alive[i] and n == 3:
            out[i] = 1
        if n not in [0, 8]:
            out[i] += 10
    return out


def lookups(x, v):
    return (v in x, 3.0 in x, v * 2 in x and v not in (1.0, 2.0), x[0] in {1.0, 2.0},
            0.0 < x[0] in (1.0, np.nan), v in (v, 7.0))


@pytest.mark.parametrize("seed", range(3))
def test_a_traced_count_in_a_tuple_of_numbers_is_staged(seed):
    rng = np.random.default_rng(seed)
    counts, alive = rng.integers(0, 9, size=12), rng.random(12) > 0.5
    np.testing.assert_array_equal(ag.convert(life_rule)(counts, alive), life_rule(counts, alive))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0, np.nan, -0.0]), min_size=1, max_size=4),
       st.sampled_from([0.0, 1.0, 1.5, 2.0, np.nan]))
def test_in_and_not_in_answer_as_python_does(values, v):
    x, v = np.array(values), np.float64(v)
    want, got = lookups(x, v), ag.convert(lookups)(x, v)
    assert [bool(g) for g in got] == [bool(w) for w in want]


def test_python_values_keep_python_s_in():
    def f(x, name):
        return x * 2 if name in ("double", "twice") else x
    np.testing.assert_array_equal(ag.convert(f)(np.ones(2), "twice"), [2.0, 2.0])
    np.testing.assert_array_equal(ag.convert(f)(np.ones(2), "once"), [1.0, 1.0])
