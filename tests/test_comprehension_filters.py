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


def _folds(x):
    return (any(v < 0 for v in x), all(v > -3 for v in x), max(abs(v) for v in x),
            next((i for i, v in enumerate(x) if v < 0), -1), any([v > 10 for v in x if v > 0]),
            any(x > 3), all(x))


@pytest.mark.parametrize("x", INPUTS[:3], ids=["mixed", "none-kept", "ties"])
def test_any_all_max_and_next_of_generators_are_eagers(x):
    want, got = _folds(x), ag.convert(_folds)(x)
    for w, g in zip(want, got):
        assert np.asarray(g).dtype.kind == np.asarray(w).dtype.kind
        np.testing.assert_array_equal(g, w)


def _python_item_decides(x):
    seen = []

    def item(v):
        seen.append(v)
        return v
    return any(item(v) for v in [False, True, x[0] > 0]), len(seen)


def test_a_python_item_ends_any_as_eagerly():
    want = _python_item_decides(np.array([1.0]))
    got = ag.convert(_python_item_decides)(np.array([1.0]))
    assert bool(got[0]) == want[0] and int(got[1]) == want[1] == 2


def test_next_without_a_default_of_nothing_raises_stop_iteration():
    def f(x):
        return next(v for v in x if v > 100)
    g = ag.convert(f)
    assert float(g(np.array([1.0, 200.0]))) == 200.0
    with pytest.raises(StopIteration):
        g(np.array([1.0, 2.0]))
