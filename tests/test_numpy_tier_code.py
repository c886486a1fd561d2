"""The NumPy tier's generated code: cheaper lines that compute what eager NumPy does.

`np.split` becomes basic slices, and a Python number operand of an array ufunc a
0-d array of the ufunc loop's dtype where NumPy casts it to that dtype anyway
(NEP 50). Each case compares the graph with eager NumPy bit for bit, dtype too,
and checks the line the tier writes.
"""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import autograph as ag


def source_and_check(fn, *args):
    graph = ag.convert(fn, tier="numpy")
    want, got = fn(*args), graph(*args)
    for w, g in zip(want if isinstance(want, (tuple, list)) else [want],
                    got if isinstance(got, (tuple, list)) else [got]):
        np.testing.assert_array_equal(g, w, strict=True)
    return graph.get_concrete_function(*args).source


def test_split_in_equal_sections_is_sliced():
    z = np.arange(24.0).reshape(2, 12)
    source = source_and_check(lambda z: np.split(z, 4, axis=1), z)
    assert "z[:, :3], z[:, 3:6], z[:, 6:9], z[:, 9:12]" in source


@pytest.mark.parametrize("points", [[2, 5], [-2], [3, 1, 20], [0]])
def test_split_at_points_is_sliced_as_numpy_does(points):
    x = np.arange(10) * 3
    source = source_and_check(lambda x: np.split(x, points), x)
    assert "split" not in source


def test_the_parts_of_a_split_are_views_written_through():
    def f(z):
        a, b = np.split(z, 2)
        a += 1.0
        return z, b

    source = source_and_check(f, np.arange(6.0))
    assert "a, b = z[:3], z[3:6]" in source


def test_split_of_an_unknown_dimension_in_sections_calls_numpy():
    f = ag.convert(lambda x: np.split(x, 2), tier="numpy")
    spec = ag.TensorSpec((None,), np.float64)
    concrete = f.get_concrete_function(spec)
    x = np.arange(8.0)
    for w, g in zip(np.split(x, 2), concrete(x)):
        np.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError, match="equal division"):
        concrete(np.arange(7.0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int64, np.uint16])
def test_a_python_number_operand_becomes_a_typed_literal(dtype):
    x = np.arange(1, 7).astype(dtype)
    source = source_and_check(lambda x: (x + 1, 3 * x, x - 2, x // 2), x)
    assert re.search(r"= __lit\d+ \* x", source) and "1" not in re.findall(r"x \+ (\S+)", source)


@pytest.mark.parametrize("fn, dtype", [
    (lambda x: x + 0.1, np.float32),          # rounded to float32 as NumPy rounds it
    (lambda x: x * 1e300, np.float32),        # inf: NumPy's own cast, its warning
    (lambda x: x + 300, np.int8),             # OverflowError, NumPy's
    (lambda x: x / 3, np.int64),              # float64 loop: the int stays a Python int
    (lambda x: np.ldexp(x, 2), np.float32),   # the loop takes its 2 as an int32
    (lambda x: x + 2**53 + 1, np.float64),    # not exact in float64: NumPy's cast
    (lambda x: x ** 2, np.float32),
    (lambda x: x + True, np.int8),
])
def test_typed_literals_keep_numpy_casts(fn, dtype):
    x = np.arange(1, 5).astype(dtype)
    with warnings.catch_warnings(record=True) as eager_warnings:
        warnings.simplefilter("always")
        try:
            want = fn(x)
        except OverflowError as error:
            with pytest.raises(OverflowError, match=re.escape(str(error))):
                ag.convert(fn, tier="numpy")(x)
            return
    with warnings.catch_warnings(record=True) as graph_warnings:
        warnings.simplefilter("always")
        got = ag.convert(fn, tier="numpy")(x)
    np.testing.assert_array_equal(got, want, strict=True)
    assert [str(w.message) for w in graph_warnings] == [str(w.message) for w in eager_warnings]
