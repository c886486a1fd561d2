"""Large elementwise chains and matrix products run by NumPy's own kernels from inside
the native code (`runtime.native.numpy_kernels`, a `numba.objmode` block): the
generated source calls them, the results are eager NumPy's bit for bit (same dtypes,
NEP 50 promotion of Python and NumPy scalars included), NumPy's floating-point
warnings and errors reach the user through a deopt, and small chains stay fused
loops. A graph whose every operation would be such a call stays on the NumPy tier,
which makes the same calls (the functions below add a scalar of native work, so
that their NumPy calls run from machine code). Skipped, with the reason, where
Numba is not installed.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag
from autograph_runtime import native

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="Numba is not installed (the native tier's extra)")

BIG = (64, 64)     # 4,096 elements: over numpy_kernels.VECTORIZED's thresholds
SMALL = (4, 8)


def gates(x, c):
    i = 1 / (1 + np.exp(-x))
    return i * np.tanh(c), np.log(np.abs(x) + 1) - np.sin(c) * np.cos(x), c[0, 0] * 2.0


def cell(x, h, w, u):
    z = x @ w + h @ u
    a, b = np.split(z, 2, axis=1)
    return np.tanh(a) * (1 / (1 + np.exp(-b))), x[0, 0] + 1


def _source(f, *args):
    return f.get_concrete_function(*args).source


def _same(got, want):
    got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype and np.shape(g) == np.shape(w)
        np.testing.assert_array_equal(g, w)   # NumPy's kernels: bit for bit


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_large_chains_call_numpy_and_match_it_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    x, c = (rng.normal(size=BIG).astype(dtype) for _ in range(2))
    f = ag.convert(gates, tier="native")
    _same(f(x, c), gates(x, c))
    source = _source(f, x, c)
    assert source.count("call_numpy(numpy_k") == 2 and "with objmode(" in source
    assert "np.exp(np.negative(" in source and "for i" not in source   # no fused loop


def only_numpy(x, c):
    i = 1 / (1 + np.exp(-x))
    return i * np.tanh(c)


def test_a_graph_of_numpy_calls_only_stays_on_the_numpy_tier():
    rng = np.random.default_rng(0)
    x, c = (rng.normal(size=BIG) for _ in range(2))
    f = ag.convert(only_numpy, tier="native")
    _same(f(x, c), only_numpy(x, c))
    concrete = f.get_concrete_function(x, c)
    assert concrete.tier == "numpy" and "NumPy's kernels" in concrete.tier_reason


def test_small_chains_stay_fused_loops():
    rng = np.random.default_rng(1)
    x, c = (rng.normal(size=SMALL) for _ in range(2))
    f = ag.convert(gates, tier="native")
    for g, w in zip(f(x, c), gates(x, c)):
        np.testing.assert_allclose(g, w, rtol=1e-12)
    assert "objmode" not in _source(f, x, c)


def test_a_large_cell_runs_its_products_and_gates_on_numpy():
    rng = np.random.default_rng(2)
    x, h = rng.normal(size=(64, 128)).astype(np.float32), rng.normal(size=(64, 128)).astype(
        np.float32)
    w, u = (rng.normal(size=(128, 256)).astype(np.float32) / 12 for _ in range(2))
    f = ag.convert(cell, tier="native")
    _same(f(x, h, w, u), cell(x, h, w, u))
    source = _source(f, x, h, w, u)
    assert source.count("call_numpy(np.matmul") == 2 and "call_numpy(numpy_k" in source
    assert f.get_concrete_function(x, h, w, u).tier == "native"


def scaled(x, s):
    return np.exp(x) * s + 1.5, np.tanh(x) * np.float64(2.0), np.exp(x) > 2


def test_scalars_promote_as_numpy_promotes_them():
    """A 0-d float64 argument is a NumPy float64 (not a Python float) in the NumPy call:
    float32 * float64 scalar is float64, as eagerly; a Python literal stays weak."""
    x = np.linspace(-2, 2, 4096, dtype=np.float32).reshape(BIG)
    for s in (np.float64(0.5), np.float32(0.5)):
        f = ag.convert(scaled, tier="native")
        _same(f(x, np.asarray(s)), scaled(x, np.asarray(s)))
        assert "objmode" in _source(f, x, np.asarray(s))


def exps(x):
    return np.exp(x) * 2, x[0, 0] * 2.0


def logs(x):
    return np.log(x) + 1


def test_overflow_warns_as_numpy_does():
    x = np.full(BIG, 100.0, np.float32)   # exp(100) overflows float32
    f = ag.convert(exps, tier="native")
    with pytest.warns(RuntimeWarning, match="overflow encountered in exp"):
        want = exps(x)
    with pytest.warns(RuntimeWarning, match="overflow encountered in exp"):
        got = f(x)
    _same(got, want)
    assert "objmode" in _source(f, x)
    with np.errstate(over="raise"), pytest.raises(FloatingPointError):
        f(x)
    with np.errstate(over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        _same(f(x), exps(x))
    y = np.ones(BIG, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no warning where NumPy gives none
        _same(f(y), exps(y))


def test_divide_by_zero_and_invalid_warn_as_numpy_does():
    x = np.ones(BIG)
    x[0, 0], x[1, 1] = 0.0, -1.0
    f = ag.convert(logs, tier="native")
    with warnings.catch_warnings(record=True) as eager:
        warnings.simplefilter("always")
        want = logs(x)
    with warnings.catch_warnings(record=True) as staged:
        warnings.simplefilter("always")
        got = f(x)
    _same(got, want)
    assert sorted(str(w.message) for w in staged) == sorted(str(w.message) for w in eager)
    assert len(eager) == 2


def test_underflow_follows_the_callers_errstate():
    x = np.full(BIG, -200.0, np.float32)   # exp(-200) underflows to 0
    f = ag.convert(exps, tier="native")
    _same(f(x), exps(x))                   # NumPy ignores underflow by default
    with np.errstate(under="raise"), pytest.raises(FloatingPointError):
        f(x)
    with np.errstate(under="warn"), pytest.warns(RuntimeWarning, match="underflow"):
        _same(f(x)[0], np.zeros(BIG, np.float32))


def test_numpys_tanh_is_cheaper_than_the_loop_on_large_arrays():
    """The threshold rows exist and order as measured: tanh first, then exp, then
    arithmetic alone."""
    from autograph_runtime.native import numpy_kernels as nk
    assert nk.VECTORIZED["tanh"] <= nk.VECTORIZED["exp"] <= nk.ARITHMETIC_FROM


def staged_loop(x, n):
    i = 0
    while i < n:
        x = np.tanh(x) * 0.5 + np.exp(-x)
        i += 1
    return x


def test_a_numpy_call_inside_a_staged_loop():
    x = np.random.default_rng(3).normal(size=BIG).astype(np.float32)
    f = ag.convert(staged_loop, tier="native")
    _same(f(x, np.int64(5)), staged_loop(x, 5))
    concrete = f.get_concrete_function(x, np.int64(5))
    assert concrete.tier == "native" and "while True:" in concrete.source
    assert "call_numpy(numpy_k" in concrete.source
