"""Staged `and`/`or` tests on Dask: one round trip where nothing can raise, Python's
short circuit kept where something can (`runtime/passes/speculate.py`), each against eager."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag

dask = pytest.importorskip("dask", reason="Dask is not installed (pip install '.[dask]')")

from autograph_runtime import dask_arrays  # noqa: E402


@pytest.fixture
def round_trips(monkeypatch):
    """How many times the Dask backend computes something (each a round trip)."""
    trips = []
    compute = dask_arrays.DaskArrays.compute

    def counted(self, *values):
        trips.append(len(values))
        return compute(self, *values)
    monkeypatch.setattr(dask_arrays.DaskArrays, "compute", counted)
    with dask.config.set(scheduler="synchronous"):
        yield trips


def _settle(a, b):
    n = 0
    while a.sum() > 0 and b.max() < 100 and (a.min() > -50 or b.min() > 50):
        a = a - 1.0
        b = b + 2.0
        n += 1
    return a, b, n


def test_a_test_of_several_reductions_is_one_round_trip(round_trips):
    a, b = np.arange(8.0), np.linspace(0.0, 3.0, 8)
    with ag.device("dask", chunks=3, compute=True):
        got = ag.convert(_settle)(a, b)
    want = _settle(a, b)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    tests = want[2] + 1   # one per trip, and the one that ends the loop
    assert round_trips == [1] * tests + [3]   # then the results, together


def test_the_numpy_tier_keeps_its_if():
    f = ag.convert(_settle)
    concrete = f.get_concrete_function(np.arange(8.0), np.arange(8.0))
    assert " = cond " in str(concrete.optimized_graph)
    with ag.device("dask"):
        concrete = f.get_concrete_function(np.arange(8.0), np.arange(8.0))
    assert " = cond " not in str(concrete.optimized_graph)
    assert " = where " in str(concrete.optimized_graph)


def _first_positive(x, i):
    while i < x.shape[0] and x[i] <= 0:   # x[i] past the end would raise: never speculated
        i += 1
    return i


def _guarded_quotient(total, k):
    return k != 0 and total // k > 2   # a zero divisor would raise


def _guarded_max(x):
    keep = x[x > 10]
    return keep.size > 0 and keep.max() > 11   # the max of nothing would raise


@pytest.mark.parametrize("fn, args", [
    (_first_positive, (np.array([-1.0, 0.0, -2.0]), np.int64(0))),
    (_first_positive, (np.array([-1.0, 0.0, 5.0, 1.0]), np.int64(0))),
    (_guarded_quotient, (np.int64(9), np.int64(0))),
    (_guarded_quotient, (np.int64(9), np.int64(2))),
    (_guarded_max, (np.arange(5.0),)),
    (_guarded_max, (np.arange(15.0),)),
], ids=["index-past-the-end", "index-found", "zero-divisor", "divisor",
        "max-of-nothing", "max"])
def test_what_can_raise_keeps_pythons_short_circuit(round_trips, fn, args):
    want = fn(*args)
    with ag.device("dask", chunks=2, compute=True):
        got = ag.convert(fn)(*args)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)
