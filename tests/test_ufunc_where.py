"""A ufunc's `where=` with `out=` (the safe-division idiom): NumPy's own masked call
staged, so the elements where `where` is False keep `out`'s values and are never
computed (no divide or log warnings there), and `out` is written in place as eagerly."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag


def precision(tp, predicted):
    return np.divide(tp, predicted, out=np.zeros_like(tp), where=predicted > 0)


def safe_log(x):
    out = np.full_like(x, -1.0)
    np.log(x, out=out, where=x > 0)
    return out


def roots_into(x, out):
    np.sqrt(x, out=out, where=x >= 0)
    return out.sum()


CASES = [(precision, (np.array([3.0, 0.0, 2.0]), np.array([4, 0, -1]))),
         (precision, (np.array([1.0, 5.0]), np.array([2, 3]))),
         (safe_log, (np.array([1.0, 0.0, -2.0, np.e]),)),
         (roots_into, (np.array([4.0, -1.0, 9.0]), np.full(3, 7.0)))]


@pytest.mark.parametrize("fn, args", CASES)
def test_a_masked_ufunc_call_is_numpys_without_its_masked_off_warnings(fn, args):
    eager_args = [a.copy() for a in args]
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # NumPy computes nothing where `where` is False
        want = fn(*eager_args)
        converted = ag.convert(fn, eager_fallback=False)
        for _ in range(2):
            graph_args = [a.copy() for a in args]
            got = converted(*graph_args)
            np.testing.assert_array_equal(got, want)
            for g, e in zip(graph_args, eager_args):   # `out` written in place, as eagerly
                np.testing.assert_array_equal(g, e)
    assert converted.trace_count == 1


def test_where_without_out_is_refused_naming_the_way_out():
    with pytest.raises(ag.TracingError, match=r"numpy.add\(..., where=...\).*out=np.zeros"):
        ag.convert(lambda x: np.add(x, 1, where=x > 0), eager_fallback=False)(np.ones(2))
