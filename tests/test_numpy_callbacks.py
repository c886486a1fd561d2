"""`np.apply_along_axis` and `np.vectorize` of the user's function, and `np.fromiter` of
the user's generator, on traced arrays (autograph/operators/numpy_callbacks.py), each
against eager NumPy."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag


def _spread(m, axis):
    return np.apply_along_axis(lambda r: r.max() - r.min(), axis, m)


def _scaled_rows(m, k):
    return np.apply_along_axis(lambda r, s: r / r.sum() * s if r.sum() > 0 else r * 0.0,
                               1, m, k)


def _int_results(m):
    return np.apply_along_axis(np.argmax, 0, m), np.apply_along_axis(lambda r: r > 0, 1, m)


def _clipped(x, y):
    f = np.vectorize(lambda a, b: a - b if a > b else 0.0)
    return f(x, y)


def _typed(x):
    return np.vectorize(lambda v: v * 1.5, otypes=[np.int64])(x)


def _from_generators(x):
    return (np.fromiter((v * 2 for v in x), dtype=float),
            np.fromiter((v for v in x if v > 0), np.float32),          # a traced length
            np.fromiter((v * 1.5 for v in x), dtype=np.int32, count=2),
            np.fromiter(range(3), dtype=np.int64) + x[:3].astype(np.int64))


CASES = [
    (_spread, lambda r: (r.normal(size=(3, 4)), 1)),
    (_spread, lambda r: (r.normal(size=(3, 4, 2)), 0)),
    (_spread, lambda r: (r.normal(size=(3, 4, 2)), -1)),
    (_scaled_rows, lambda r: (r.normal(size=(4, 3)), 2.0)),
    (_int_results, lambda r: (r.normal(size=(2, 3)),)),
    (_clipped, lambda r: (r.normal(size=(2, 3)), r.normal(size=3))),
    (_typed, lambda r: (r.normal(size=4) * 3,)),
    (_from_generators, lambda r: (r.normal(size=5) * 3,)),
]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("fn, make", CASES, ids=[f"{fn.__name__}-{k}" for k, (fn, _) in
                                                   enumerate(CASES)])
def test_numpy_calls_the_converted_function_as_eagerly(fn, make, seed):
    args = make(np.random.default_rng(seed))
    want, got = fn(*args), ag.convert(fn)(*args)
    for w, g in zip(*(v if isinstance(v, tuple) else (v,) for v in (want, got))):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(g, w)


def test_a_vector_result_takes_the_axis_place():
    def outer_rows(m):
        return np.apply_along_axis(lambda r: np.outer(r, r).ravel()[:2], 1, m)
    m = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(ag.convert(outer_rows)(m), outer_rows(m))


def test_an_unknown_shape_is_a_clear_error():
    f = ag.convert(lambda m: np.apply_along_axis(np.sum, 1, m),
                   input_signature=[ag.TensorSpec((None, 3), np.float64)])
    with pytest.raises(ag.TracingError, match="unknown shape"):
        f(np.ones((2, 3)))


def test_fromiter_of_too_few_items_is_numpy_s_error():
    def short(x):
        return np.fromiter((v for v in x), dtype=float, count=9)
    with pytest.raises(ValueError, match="iterator too short: Expected 9"):
        ag.convert(short)(np.ones(4))


def _argmax_by_hand(a):
    best, where = None, None
    for index, v in np.ndenumerate(a):
        if best is None or v > best:
            best, where = v, index
    return best, where


def _weighted_by_position(a):
    total = 0.0
    for (i, j), v in np.ndenumerate(a):
        total += (i + 2 * j) * v
    return total


@pytest.mark.parametrize("a", [np.array([[1, 5], [7, 2]]), np.array([[0.5, -1.0, 3.0]]),
                               np.arange(6.0).reshape(3, 2)[::-1]])
def test_ndenumerate_gives_numpys_indices_and_items(a):
    (best, where), (want_best, want_where) = \
        ag.convert(_argmax_by_hand, eager_fallback=False)(a), _argmax_by_hand(a)
    assert best == want_best and best.dtype == want_best.dtype
    assert tuple(int(i) for i in where) == want_where
    total = ag.convert(_weighted_by_position, eager_fallback=False)(a)
    assert total == _weighted_by_position(a)
