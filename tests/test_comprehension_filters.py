"""Comprehensions that filter a traced array (`[v for v in x if v > 0]`), also over
`enumerate`/`zip` and as generator expressions, each against eager on several inputs."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag


def _positives(x):
    kept = [v for v in x if v > 0]
    return np.array(kept, dtype=x.dtype), len(kept), sum(kept)


def _squares_of_positives(x):
    return sum(v * v for v in x if v > 0)


def _where_positive(x):
    return np.array([i for i, v in enumerate(x) if v > 0], dtype=np.int64)


def _pairs(x):
    return sum([a * b for a, b in zip(x, x[::-1]) if a > b and b != 0])


def _twice_filtered(x):
    doubled = [2 * v for v in x if v > -1]
    return sum([w for w in doubled if w < 5])


def _unpacked(x):
    return [i * v for i, v in enumerate(x)]


FUNCTIONS = [_positives, _squares_of_positives, _where_positive, _pairs, _twice_filtered,
             _unpacked]
INPUTS = [np.array([1.0, -2.0, 3.0, -0.5, 2.0]), np.array([-1.0, -2.0]),
          np.array([4.0, 4.0, 0.0]), np.zeros(0)]


@pytest.mark.parametrize("x", INPUTS, ids=["mixed", "none-kept", "ties", "empty"])
@pytest.mark.parametrize("fn", FUNCTIONS, ids=[f.__name__ for f in FUNCTIONS])
def test_a_filtered_comprehension_is_eagers(fn, x):
    want = fn(x)
    got = ag.convert(fn)(x)
    want, got = (v if isinstance(v, (tuple, list)) else (v,) for v in (want, got))
    assert len(want) == len(got)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)
