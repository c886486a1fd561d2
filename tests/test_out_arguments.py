"""`out=` on NumPy functions that are not ufuncs (reductions, `concatenate`, `dot`, ...).

A traced `out` is written in place with the result, as NumPy writes it; a NumPy
array made in the function is rebound to the traced result (`out_call`). NumPy
casts a result of another dtype into `out` chunk by chunk of its buffer, which
a graph does not follow: that is refused, naming the way out.
"""
from __future__ import annotations

import numpy as np
import pytest
from oracle import quiet

import autograph as ag

X = np.arange(6.0).reshape(2, 3) - 2.5
XI = np.arange(6).reshape(2, 3) - 2

WRITES = [
    pytest.param(lambda x, o: np.sum(x, axis=0, out=o), X, np.zeros(3), id="sum"),
    pytest.param(lambda x, o: np.sum(x, axis=0, out=o, keepdims=True), X, np.zeros((1, 3)),
                 id="sum-keepdims"),
    pytest.param(lambda x, o: np.prod(x, axis=1, out=o), XI, np.zeros(2, int), id="prod-int"),
    pytest.param(lambda x, o: np.mean(x, axis=1, out=o), X, np.zeros(2), id="mean"),
    pytest.param(lambda x, o: np.std(x, axis=0, ddof=1, out=o), X, np.zeros(3), id="std"),
    pytest.param(lambda x, o: np.max(x, axis=1, out=o), X, np.zeros(2), id="max"),
    pytest.param(lambda x, o: np.argmin(x, axis=0, out=o), X, np.zeros(3, np.intp), id="argmin"),
    pytest.param(lambda x, o: np.cumsum(x, out=o), X, np.zeros(6), id="cumsum"),
    pytest.param(lambda x, o: np.any(x > 1, axis=0, out=o), X, np.zeros(3, bool), id="any"),
    pytest.param(lambda x, o: np.nanmean(x, axis=0, out=o), X, np.zeros(3), id="nanmean"),
    pytest.param(lambda x, o: np.median(x, axis=1, out=o), X, np.zeros(2), id="median"),
    pytest.param(lambda x, o: np.quantile(x, 0.3, axis=0, out=o), X, np.zeros(3), id="quantile"),
    pytest.param(lambda x, o: np.round(x / 4, 1, out=o), X, np.zeros((2, 3)), id="round"),
    pytest.param(lambda x, o: np.clip(x, -1, 1, out=o), X, np.zeros((2, 3)), id="clip"),
    pytest.param(lambda x, o: np.concatenate([x, x], out=o), X, np.zeros((4, 3)),
                 id="concatenate"),
    pytest.param(lambda x, o: np.dot(x, x.T, out=o), X, np.zeros((2, 2)), id="dot"),
    pytest.param(lambda x, o: np.outer(x[0], x[1], out=o), X, np.zeros((3, 3)), id="outer"),
]


def _returning_out(write):
    def f(x, o):
        result = write(x, o)
        return o, result
    return f


@pytest.mark.parametrize("write, x, o", WRITES)
def test_a_traced_out_is_written_and_returned_as_numpy_does(write, x, o):
    f = _returning_out(write)
    expected_out, expected = f(x, o.copy())
    written = o.copy()
    got_out, got = ag.convert(f, autograph=False)(x, written)
    for want, have in ((expected_out, got_out), (expected, got), (expected_out, written)):
        assert have.dtype == want.dtype
        np.testing.assert_array_equal(have, want)


def sums_into_a_local_array(x):
    t = np.zeros(3)
    np.sum(x, axis=0, out=t)             # a statement: the converter rebinds t
    return t


def several_into_local_arrays(x):
    m, i, c = np.empty(2), np.zeros(3, np.intp), np.zeros((4, 3))
    np.median(x, axis=1, out=m)
    np.argmin(x, axis=0, out=i)
    np.concatenate([x, x * 2], out=c)
    return m, i, c


def into_a_local_array_of_another_dtype(x):
    t = np.zeros(3, np.float32)
    np.sum(x, axis=0, out=t)
    return t


@pytest.mark.parametrize("f", [sums_into_a_local_array, several_into_local_arrays])
def test_an_out_made_in_the_function_is_rebound_to_the_result(f):
    got, want = ag.convert(f)(X), f(X)
    for got, want in zip(*((r,) if isinstance(r, np.ndarray) else r for r in (got, want))):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_a_local_out_of_another_dtype_is_refused():
    with pytest.raises(ag.TracingError, match="out of dtype float32"):
        ag.convert(into_a_local_array_of_another_dtype)(X)


def test_an_out_given_by_position_is_written():
    f = _returning_out(lambda x, o: np.sum(x, 0, None, o, True))   # keepdims after it
    expected_out, expected = f(X, np.zeros((1, 3)))
    got_out, got = ag.convert(f, autograph=False)(X, np.zeros((1, 3)))
    np.testing.assert_array_equal(got_out, expected_out)
    np.testing.assert_array_equal(got, expected)


def test_an_out_written_in_a_staged_loop():
    def running_means(x, n):
        o = np.zeros(3)
        for i in range(n):
            np.mean(x[: i + 1], axis=0, out=o)
        return o

    x = np.arange(12.0).reshape(4, 3)
    converted = ag.convert(running_means)
    for n in (0, 2, 4):
        np.testing.assert_array_equal(converted(x, np.int64(n)), running_means(x, np.int64(n)))
    assert converted.trace_count == 1


def test_unknown_dimensions_are_written_and_a_known_mismatch_is_numpys_error():
    f = _returning_out(lambda x, o: np.sum(x, axis=0, out=o))
    concrete = ag.convert(f, autograph=False).get_concrete_function(
        ag.TensorSpec((None, 3), np.float64), ag.TensorSpec((3,), np.float64))
    np.testing.assert_array_equal(concrete(X, np.zeros(3))[0], X.sum(axis=0))
    with pytest.raises(ValueError, match="does not fit numpy.sum's result"):
        ag.convert(f, autograph=False).get_concrete_function(
            ag.TensorSpec((None, 3), np.float64), ag.TensorSpec((2,), np.float64))


@pytest.mark.parametrize("write, x, o", [
    pytest.param(lambda x, o: np.sum(x, axis=0, out=o), X, np.zeros(2), id="sum-shape"),
    pytest.param(lambda x, o: np.dot(x, x.T, out=o), X, np.zeros((2, 2), np.float32),
                 id="dot-dtype"),
    pytest.param(lambda x, o: np.clip(x, 0, 1, out=o), X, np.zeros((2, 3), int),
                 id="clip-same-kind"),
    pytest.param(lambda x, o: np.sum(x, out=o), X, [0.0], id="list"),
])
def test_numpys_own_errors(write, x, o):
    with pytest.raises(Exception) as expected:
        write(x, o)
    with quiet(), pytest.raises(type(expected.value)):
        ag.convert(write, autograph=False)(x, o)


def test_an_out_of_another_dtype_is_refused_with_the_way_out():
    def f(x, o):
        np.sum(x, axis=0, out=o)     # NumPy casts 8,192 elements at a time
        return o

    with pytest.raises(ag.TracingError, match=r"numpy.sum\(..., out=...\) with an out of dtype "
                                              r"float32 for a result of dtype float64.*"
                                              r"test_out_arguments.py:\d+.*dtype=float32"):
        ag.convert(f)(X, np.zeros(3, np.float32))


def test_the_gradient_flows_through_the_written_out():
    def f(x):
        o = np.zeros(3)
        np.mean(x, axis=0, out=o)
        return (o * o).sum()

    x = X.copy()
    step = 1e-6
    differences = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[index] = step
        differences[index] = (f(x + e) - f(x - e)) / (2 * step)
    np.testing.assert_allclose(ag.grad(ag.convert(f))(x), differences, rtol=1e-6)
