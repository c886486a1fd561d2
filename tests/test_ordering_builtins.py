"""Python's `max`, `min`, `sorted` and `list.sort` of traced numbers
(autograph/operators/ordering.py), each against eager Python on NumPy scalars."""
from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import autograph as ag

SPECIAL = [(1.0, np.nan, 0.5), (np.nan, 1.0, 2.0), (0.0, -0.0, -0.0), (-0.0, 0.0, 1.0),
           (3.0, 2.0, 3.0), (2.0, np.nan, -1.0, np.nan, 0.5)]


def _clamp(i, n):
    return min(max(i, 0), n - 1)


def test_a_clamped_index_is_pythons():
    f = ag.convert(_clamp)
    for k in (-3, 0, 2, 7):
        assert int(f(np.int64(k), 5)) == _clamp(k, 5)


def _extremes(*values):
    return max(*values), min(list(values)), max(values[::-1])


def _same_numbers(want, got):
    assert len(want) == len(got)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("values", SPECIAL, ids=range(len(SPECIAL)))
def test_max_and_min_pick_as_python_does(values):
    args = [np.float64(v) for v in values]
    _same_numbers(_extremes(*args), ag.convert(_extremes)(*args))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, 3.0]),
                min_size=2, max_size=5))
def test_generated_numbers_order_as_python_orders_them(values):
    args = [np.float64(v) for v in values]
    _same_numbers(_extremes(*args), ag.convert(_extremes)(*args))
    for want, got in zip(_sort_methods(*args), ag.convert(_sort_methods)(*args)):
        _same_numbers(want, got)


def _sort_methods(*values):
    items = [float(v) for v in values]
    items.sort()
    backwards = sorted(values, reverse=True)
    return items, backwards


@pytest.mark.parametrize("values", SPECIAL, ids=range(len(SPECIAL)))
def test_sorted_and_list_sort_order_as_python_does(values):
    args = [np.float64(v) for v in values]
    want = _sort_methods(*args)
    got = ag.convert(_sort_methods)(*args)
    for w_list, g_list in zip(want, got):
        _same_numbers(w_list, g_list)


def _sorted_array(x):
    items = sorted(x)
    return items, sorted(x, reverse=True)[0], items[len(items) // 2]


@pytest.mark.parametrize("values", SPECIAL + [(3, 1, 2, 1)], ids=range(len(SPECIAL) + 1))
def test_sorted_of_a_1d_array_orders_its_items_as_python_does(values):
    x = np.array(values)
    want, got = _sorted_array(x), ag.convert(_sorted_array)(x)
    _same_numbers(want[0], got[0])
    _same_numbers(want[1:], got[1:])


def _array_extremes(x):
    return max(x), min(x)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, 3.0]),
                min_size=1, max_size=6), st.sampled_from([np.float64, np.float32]))
def test_max_and_min_of_a_float_array_pick_its_items_as_python_does(values, dtype):
    x = np.array(values, dtype)
    want, got = _array_extremes(x), ag.convert(_array_extremes)(x)
    _same_numbers(want, got)
    assert [np.asarray(g).dtype for g in got] == [np.asarray(w).dtype for w in want]


@pytest.mark.parametrize("x", [np.array([3, -1, 7, 7]), np.array([True, False]),
                               np.array([5], np.uint8)])
def test_max_and_min_of_an_int_array_are_its_extremes(x):
    _same_numbers(_array_extremes(x), ag.convert(_array_extremes)(x))


def test_max_of_an_empty_array_is_python_s_error_when_the_graph_runs():
    run = ag.convert(_array_extremes).get_concrete_function(ag.TensorSpec((None,), np.float64))
    _same_numbers(_array_extremes(np.array([2.0, 1.0])), run(np.array([2.0, 1.0])))
    with pytest.raises(ValueError) as raised:
        max(np.array([]))
    with pytest.raises(ValueError, match=re.escape(str(raised.value))):
        run(np.array([]))


def test_sorted_of_mixed_types_is_refused_naming_them():
    def f(x):
        return sorted([x, 1.0])
    with pytest.raises(TypeError, match=r"sorted\(\) of traced numbers needs them all of one "
                                        r"type, here f64\[\]; got f64\[\], float"):
        ag.convert(f)(np.float64(2.0))


def _argsorts(x):
    n = x.shape[0]
    up = sorted(range(n), key=lambda i: x[i])
    down = sorted(range(1, 2 * n + 1, 2), key=lambda i: x[i // 2], reverse=True)
    fixed = sorted(range(n), key=lambda i: -i)   # Python keys: Python's own sort
    return up, down, fixed


@pytest.mark.parametrize("values", SPECIAL, ids=range(len(SPECIAL)))
def test_the_argsort_idiom_orders_as_python_does(values):
    x = np.array(values)
    want, got = _argsorts(x), ag.convert(_argsorts)(x)
    for w_list, g_list in zip(want, got):
        assert [int(g) for g in g_list] == w_list


def test_sorted_of_a_list_of_numbers_by_a_traced_key_is_pythons_order():
    def f(x):
        return sorted([0, 1, 2], key=lambda i: x[i])
    x = np.array([3.0, 1.0, 2.0])
    assert [int(i) for i in ag.convert(f)(x)] == f(x)


def test_sorted_of_mixed_items_by_a_traced_key_is_left_to_python_and_explained():
    def f(x):
        return sorted([0, "a"], key=lambda i: x[0])
    with pytest.raises(ag.TracingError, match="comparisons of a key= function"):
        ag.convert(f)(np.array([3.0, 1.0, 2.0]))


def test_max_of_a_generator_left_to_python_still_sees_its_items():
    def f(x):
        return max(v for v in [x[0]]), min(float(i) for i in range(3))
    got = ag.convert(f)(np.array([2.5, 1.0]))
    assert float(got[0]) == 2.5 and got[1] == 0.0


def _nearest(d):
    return min(range(len(d)), key=lambda i: d[i])


def _largest_row(rows):
    return max(rows, key=lambda r: r.sum())


def _best_of_generator(d):
    return max((i for i in range(len(d))), key=lambda i: abs(d[i]), default=-1)


@pytest.mark.parametrize("values", SPECIAL + [(3.0, -5.0, 1.0, -5.0)], ids=range(7))
def test_max_and_min_with_a_key_pick_the_first_item_of_the_extreme_key(values):
    d = np.array(values)
    for fn in (_nearest, _best_of_generator):
        got = ag.convert(fn, eager_fallback=False)(d)
        assert int(got) == fn(d)
    rows = [np.array([v, 1.0]) for v in values]
    np.testing.assert_array_equal(ag.convert(_largest_row, eager_fallback=False)(rows),
                                  _largest_row(rows))


def test_an_empty_sequence_with_a_key_is_pythons():
    def empty_or_default(d):
        return min([], key=lambda i: d[i], default=-1)

    assert ag.convert(empty_or_default)(np.ones(2)) == -1


def _by_norm(rows):
    return sorted(rows, key=lambda r: np.linalg.norm(r))


def _largest_sum_first(rows):
    return sorted(rows, key=lambda r: r.sum(), reverse=True)


@pytest.mark.parametrize("values", SPECIAL, ids=range(len(SPECIAL)))
def test_sorted_rows_by_a_traced_key_are_pythons_order(values):
    rows = [np.array([v, abs(v) if v == v else 1.0]) for v in values]   # ties and NaN keys
    for fn in (_by_norm, _largest_sum_first):
        got, want = ag.convert(fn, eager_fallback=False)(rows), fn(rows)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
