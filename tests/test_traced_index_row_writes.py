"""Rows and columns written from a row or column at a traced index (`a[0] = a[j]`).

Once a `RuntimeError` ('overlap_sources: a view of the array is not in its memory'):
`rng.integers(0, 3)` is a NumPy scalar eagerly, so `a[j]` is a view of `a`, but the
graph's draw returned a 0-d array, with which `a[j]` is a copy, not in `a`'s memory.
With `size=()` the draw is a 0-d array eagerly, and `a[j]` a copy: the graph once
followed it as a view (a silent wrong answer where `a` was written after); now it
is a value that may be a 0-d array, and writing `a` while `a[j]` lives is refused.

The eager function is the oracle: each test runs it and the converted function on
fresh copies of the same arguments and compares what they return and what they
left in their array arguments.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph_runtime import native


def copy_row(rng, a):
    j = rng.integers(0, 3)
    a[0] = a[j]


def shuffle_rows(rng, a):          # Fisher-Yates over rows, as people write it
    for i in range(len(a) - 1, 0, -1):
        j = rng.integers(0, i + 1)
        a[i], a[j] = a[j], a[i]


def shuffle_columns(rng, a):
    for i in range(a.shape[1] - 1, 0, -1):
        j = rng.integers(0, i + 1)
        a[:, i], a[:, j] = a[:, j], a[:, i].copy()


def shuffle_vector(rng, v):
    for i in range(len(v) - 1, 0, -1):
        j = rng.integers(0, i + 1)
        v[i], v[j] = v[j], v[i]


def column_from_drawn_row(rng, a):  # strides differ: NumPy's element order shows
    j = rng.integers(0, 3)
    a[:, 0] = a[j]


def row_added_from_drawn_row(rng, a):
    j = rng.integers(0, 3)
    a[0] += a[j]


def row_from_chosen_row(rng, a):
    j = rng.choice(np.arange(3))
    a[:, 0] = a[j]


def row_kept_at_zero_d_draw(rng, a):   # `size=()`: a 0-d array, so `a[j]` is a copy
    j = rng.integers(0, 3, size=())
    r = a[j]
    a[j, 0] = 99
    return r


def column_from_zero_d_draw(rng, a):
    j = rng.integers(0, 3, size=())
    a[:, 0] = a[j]


def row_from_argmax(x, a):
    j = np.argmax(x)
    a[0] = a[j]


def row_from_sum_mod(x, a):
    j = x.sum() % 3
    a[0] = a[j]


def row_from_loop_count(x, a):
    j = 0
    while j < x.sum() % 3:
        j += 1
    a[0] = a[j]


def row_from_negative_index(x, a):
    j = -1 - np.argmax(x)
    a[0] = a[j]


def column_from_column(x, a):
    j = np.argmax(x) % a.shape[1]
    a[:, 0] = a[:, j]


def row_written_at_index(x, a):
    j = np.argmax(x)
    a[j] = a[0]


def rows_swapped_by_index_arrays(x, a):
    j = np.argmax(x)
    a[[0, j]] = a[[j, 0]]


def rows_swapped(x, a):
    j = np.argmax(x)
    a[0], a[j] = a[j], a[0]


def three_d_parts(x, a):
    j = np.argmax(x) % 2
    a[0] = a[j]
    a[:, 0] = a[:, j]
    a[0, :, 0] = a[j, :, 1]


def read_after_write(x, a):
    j = np.argmax(x)
    a[0] = a[j]
    r = a[j] * 2
    a[1] = a[j] + 1
    return r, a[0].sum()


def _rng(seed):
    return lambda: np.random.default_rng(seed)


X = np.array([1, 5, 2])
CASES = [
    (copy_row, _rng(0), np.arange(6).reshape(3, 2)),
    (shuffle_rows, _rng(0), np.arange(6).reshape(3, 2)),
    (shuffle_rows, _rng(3), np.arange(12.0).reshape(4, 3)),
    (shuffle_columns, _rng(2), np.arange(12).reshape(3, 4)),
    (shuffle_vector, _rng(2), np.arange(5)),
    (column_from_drawn_row, _rng(1), np.arange(9).reshape(3, 3)),
    (row_added_from_drawn_row, _rng(0), np.arange(6).reshape(3, 2)),
    (row_from_chosen_row, _rng(1), np.arange(9).reshape(3, 3)),
    (row_from_argmax, lambda: X, np.arange(6).reshape(3, 2)),
    (row_from_sum_mod, lambda: X, np.arange(6).reshape(3, 2)),
    (row_from_loop_count, lambda: X, np.arange(6).reshape(3, 2)),
    (row_from_negative_index, lambda: X, np.arange(6).reshape(3, 2)),
    (column_from_column, lambda: X, np.arange(9).reshape(3, 3)),
    (row_written_at_index, lambda: X, np.arange(6).reshape(3, 2)),
    (rows_swapped_by_index_arrays, lambda: X, np.arange(6).reshape(3, 2)),
    (rows_swapped, lambda: X, np.arange(6).reshape(3, 2)),
    (three_d_parts, lambda: X, np.arange(12).reshape(2, 3, 2)),
    (read_after_write, lambda: X, np.arange(6).reshape(3, 2)),
]


def _outcome(fn, first, array):
    """What `fn(first, array)` returns (or raises), and the array it leaves."""
    array = array.copy()
    try:
        result = fn(first, array)
    except Exception as error:   # the oracle's error is the converted one's too
        return type(error), None, array
    return None, result, array


def assert_matches_eager(fn, converted, make_first, array):
    error, expected, written = _outcome(fn, make_first(), array)
    got_error, got, got_written = _outcome(converted, make_first(), array)
    assert got_error is error
    np.testing.assert_array_equal(got_written, written)
    assert got_written.dtype == written.dtype
    for e, g in zip(*(r if isinstance(r, tuple) else (r,) for r in (expected, got))):
        np.testing.assert_array_equal(g, e)
        assert np.asarray(g).dtype == np.asarray(e).dtype


@pytest.mark.parametrize("tier", ["numpy", "auto"])
@pytest.mark.parametrize("fn, make_first, array", CASES,
                         ids=[f"{c[0].__name__}-{c[2].ndim}d{c[2].shape[-1]}" for c in CASES])
def test_a_write_from_a_traced_index_matches_eager(fn, make_first, array, tier):
    converted = ag.convert(fn, tier=tier)
    for _ in range(2):   # the second call runs the graph traced by the first (an array's)
        assert_matches_eager(fn, converted, make_first, array)


@pytest.mark.skipif(not native.available(), reason="Numba is not installed")
@pytest.mark.parametrize("fn", [row_from_argmax, column_from_column, rows_swapped])
def test_a_write_from_a_traced_index_matches_eager_on_the_native_tier(fn):
    assert_matches_eager(fn, ag.convert(fn, tier="native"), lambda: X,
                         np.arange(9).reshape(3, 3))


@pytest.mark.parametrize("fn", [row_kept_at_zero_d_draw, column_from_zero_d_draw])
def test_a_write_beside_a_row_at_a_zero_d_draw_is_refused_not_wrong(fn):
    with pytest.raises(ag.TracingError, match=r"test_traced_index_row_writes\.py:\d+"):
        ag.convert(fn)(np.random.default_rng(1), np.arange(9).reshape(3, 3))


def drawn_row_into_row(rng, a):
    j = rng.integers(-len(a), len(a))
    a[0] = a[j]


def drawn_row_into_column(rng, a):
    j = rng.integers(0, min(a.shape[:2]))
    a[:, j] = a[j]


def drawn_column_into_row(rng, a):
    j = rng.integers(0, min(a.shape[:2]))
    a[j] = a[:, j]


def drawn_rows_swapped(rng, a):
    i, j = rng.integers(0, len(a)), rng.integers(-len(a), len(a))
    a[i], a[j] = a[j], a[i]


FORMS = [drawn_row_into_row, drawn_row_into_column, drawn_column_into_row, drawn_rows_swapped]
_CONVERTED = {}


@pytest.mark.filterwarnings("ignore::autograph.RetracingWarning")  # a new generator each
@settings(max_examples=30, deadline=None)
@given(form=st.sampled_from(FORMS), rows=st.integers(1, 4), columns=st.integers(1, 4),
       depth=st.sampled_from([(), (2,)]), seed=st.integers(0, 2**16),
       tier=st.sampled_from(["numpy", "auto"]))
def test_drawn_index_writes_match_eager(form, rows, columns, depth, seed, tier):
    converted = _CONVERTED.setdefault((form, tier), ag.convert(form, tier=tier))
    square = (rows, rows) if form in (drawn_row_into_column, drawn_column_into_row) else \
        (rows, columns)
    array = np.arange(np.prod(square + depth), dtype=np.float64).reshape(square + depth)
    assert_matches_eager(form, converted, _rng(seed), array)
