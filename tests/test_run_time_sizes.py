"""Sizes known only when the graph runs: `np.arange(n)`, `np.zeros(k)`, ... of a traced n.

The table against NumPy over dtypes is `test_ops_table_sizes.py`; here: converted
code (the sizes reach the graph through `converted_call`), staged loops that
accept the unknown dimensions, NumPy's errors when the graph runs, gradients,
and saving.
"""
from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_grad

import autograph as ag
from autograph_runtime.ops.staged_calls import call


def same(fn, *args):
    """`fn` converted gives what `fn` gives: values, dtype and shape."""
    want, got = fn(*args), ag.convert(fn)(*args)
    for w, g in zip(want if isinstance(want, tuple) else (want,),
                    got if isinstance(got, tuple) else (got,), strict=True):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == np.asarray(w).dtype and g.shape == np.shape(w)
    return got


@pytest.mark.parametrize("n", [0, 1, 5])
def test_creation_with_a_traced_size(n):
    same(lambda n: (np.arange(n), np.zeros(n), np.ones((n, 3), np.int8),
                    np.full((n, 2), 1.5), np.linspace(0, 1, n), np.eye(n),
                    np.eye(n, n + 1, k=-1), np.arange(1, n, 2.0)), np.int64(n))


def test_result_dims_are_unknown_while_tracing():
    graph = ag.convert(lambda n: np.zeros((n, 3)) + np.arange(3)).get_concrete_function(
        np.int64(2)).graph
    assert "f64[?,3] = full" in str(graph)


def test_a_size_computed_from_an_unknown_dimension():
    def f(x):
        n = ag.shape(x)[0] * 2  # x.shape[0] is None where unknown; ag.shape traces it
        return np.ones(n) @ np.concatenate([x, x])

    f_graph = ag.convert(f)
    spec = ag.TensorSpec((None,), np.float64)
    for length in (0, 3):
        x = np.arange(float(length))
        np.testing.assert_array_equal(f_graph.get_concrete_function(spec)(x), f(x))


def test_a_staged_loop_carries_an_array_whose_size_is_known_at_run_time():
    def f(n):
        acc = np.zeros(0)
        i = 0
        while i < n:
            acc = np.concatenate([acc, np.linspace(0, 1, i + 1)])
            i += 1
        return acc, np.arange(n) * 2

    for n in (0, 1, 4):
        same(f, np.int64(n))


def test_a_loop_over_a_run_time_range():
    def f(n):
        total = 0.0
        for v in np.arange(n):
            total = total + v
        return total

    same(f, np.int64(5))


def test_negative_sizes_are_numpys_value_error_when_the_graph_runs():
    for fn, message in ((lambda n: np.zeros(-n), "negative dimensions"),
                        (lambda n: np.eye(-n), "negative dimensions"),
                        (lambda n: np.linspace(0, 1, -n), "must be non-negative")):
        g = ag.convert(fn)
        with pytest.raises(ValueError, match=message) as info:
            g(np.int64(2))
        assert any("test_run_time_sizes.py" in note for note in info.value.__notes__)


def test_a_size_that_is_not_an_integer_is_numpys_type_error():
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        ag.convert(lambda n: np.zeros(n))(np.float64(2.0))


def test_nonzero_family_with_unknown_lengths():
    def f(x):
        return np.flatnonzero(x > 0), np.argwhere(x > 0), np.nonzero(x)[1]

    same(f, np.array([[1.0, -2.0, 3.0], [0.0, 5.0, -1.0]]))


def test_gradients_through_full_arange_and_linspace():
    check_grad(lambda v, n: call(np.full, (n, 2), v) * np.arange(1.0, 3.0), np.float64(1.5),
               np.int64(3),
               argnums=(0,))
    check_grad(lambda a, n: np.sum(call(np.arange, a, n) ** 2), np.float64(0.25), np.int64(4),
               argnums=(0,))
    check_grad(lambda a, b, n: np.sum(call(np.linspace, a, b, n) ** 2),
               np.float64(-1.0), np.float64(2.0), np.int64(5), argnums=(0, 1))
    check_grad(lambda a, b, n: np.sum(call(np.linspace, a, b, n, endpoint=False) ** 3),
               np.float64(0.5), np.float64(2.0), np.int64(1), argnums=(0, 1))


def test_a_graph_with_run_time_sizes_saves_and_loads(tmp_path):
    g = ag.convert(lambda n, v: (np.full((n, 2), v), np.linspace(0, v, n), np.eye(n),
                                 np.arange(n)))
    ag.save(g, tmp_path / "f", np.int64(3), np.float64(2.0))
    loaded = ag.load(tmp_path / "f")
    for w, l in zip(g(np.int64(3), np.float64(2.0)), loaded(np.int64(3), np.float64(2.0))):
        np.testing.assert_array_equal(l, w)


# -- `x.shape`, `len(x)`, `x.size` of an unknown dimension, in converted code -------------------
def sum_of_uniques_by_index(x):
    u = np.unique(x)
    total = 0.0
    for i in range(len(u)):          # len(u): a traced Python int: the loop is staged
        total += u[i]
    return total * len(u), u.shape[0] * np.float32(2), u.size


def more_than_one_positive(x):
    p = x[x > 0]
    if p.shape[0] > 1:               # a staged `if` on a run-time length
        return p.sum()
    return x.max()


def checked_shapes(x):
    p, q = x[x > 0], x[x < 0]
    assert p.shape == q.shape, "as many positive as negative values"
    return p - q


@pytest.mark.parametrize("fn", [sum_of_uniques_by_index, more_than_one_positive])
def test_shape_and_len_of_an_unknown_dimension_are_traced_python_ints(fn):
    converted = ag.convert(fn)
    for x in ([3.0, 1.0, 3.0, 2.0], [2.0, 2.0, 2.0, 2.0], [-1.0, 5.0, -2.0, 0.5]):
        x = np.array(x)
        expected, got = fn(x), converted(x)
        for want, have in zip(np.atleast_1d(expected), np.atleast_1d(got)):
            assert np.asarray(have).dtype == np.asarray(want).dtype   # weak, as eager ints
            np.testing.assert_array_equal(have, want)
    assert converted.trace_count == 1


def test_two_run_time_shapes_compare_when_the_graph_runs():
    converted = ag.convert(checked_shapes)
    x = np.array([1.0, -2.0, 3.0, -4.0])
    np.testing.assert_array_equal(converted(x), checked_shapes(x))
    with pytest.raises(AssertionError, match="as many positive as negative values"):
        converted(np.array([1.0, 2.0, 3.0, -4.0]))
