"""Numbers, comparisons and statistics beyond the table: NaN handling, empty and
0-d inputs, round-half-even, staged `if np.allclose(...)`, run-time sizes
(unique, bincount) feeding later operations and a staged `while`, gradients
against finite differences, and saving graphs that use the new primitives.
"""
from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_grad
from oracle import run_every_way, unknown_dims

import autograph as ag

# the primitives of this family that have no gradient rule, and why (test_grad_rules.py)
_BOOL = "its result is boolean: no cotangent"
_COMPLEX = "its result is complex, and complex values carry no cotangents"
NUMBERS_NON_DIFFERENTIABLE = {
    "isclose": _BOOL, "array_equal": _BOOL,
    **dict.fromkeys(["fft", "ifft", "rfft"], _COMPLEX),
    "irfft": "its operand is complex, and complex values carry no cotangents",
    **dict.fromkeys(["searchsorted", "nanargmin", "nanargmax"], "its result is an integer index"),
    "unique": "its results are the input's distinct values (a selection whose size depends "
              "on the values) and integer indices and counts; no rule yet",
    "histogram": "its counts are piecewise constant in the data (weighted counts: no rule yet)",
}

rng = np.random.default_rng(13)
WITH_NAN = np.array([[1.0, np.nan, 3.0, -2.0], [np.nan, np.nan, np.nan, np.nan],
                     [0.5, 2.5, np.nan, 4.0]])


def _np_bool(value):
    """NumPy answers with a Python bool, a graph with a 0-d array: compare as a NumPy bool."""
    return np.logical_and(value, True)


# -- NaN handling -----------------------------------------------------------------------
@pytest.mark.parametrize("fn", [
    lambda x: np.median(x, axis=1), lambda x: np.quantile(x, [0.1, 0.9], axis=1),
    lambda x: np.percentile(x, 50), lambda x: np.nansum(x, axis=1), lambda x: np.nanprod(x),
    lambda x: np.nanmean(x, axis=1), lambda x: np.nanvar(x, axis=1),
    lambda x: np.nanstd(x, axis=0, ddof=1), lambda x: np.nanmin(x, axis=1),
    lambda x: np.nanmax(x, axis=0), lambda x: np.nanmedian(x, axis=1),
    lambda x: np.nanmedian(x), lambda x: np.nanquantile(x, [0.25, 0.75], axis=1),
    lambda x: np.nanpercentile(x, 30, axis=0, keepdims=True),
    lambda x: np.nancumsum(x, axis=1), lambda x: np.isclose(x, x, equal_nan=True),
    lambda x: _np_bool(np.array_equal(x, x)),
    lambda x: _np_bool(np.array_equal(x, x, equal_nan=True)),
    lambda x: np.unique(x), lambda x: np.unique(x, equal_nan=False),
    lambda x: np.count_nonzero(x, axis=0),
], ids=lambda f: None)
def test_nan_handling_matches_numpy(fn):
    for x in (WITH_NAN, WITH_NAN.astype(np.float32)):
        run_every_way(fn, x, specs=unknown_dims([x]), exact_types=False)


def test_nanargmin_of_an_all_nan_slice_raises_when_the_graph_runs():
    f = ag.convert(lambda x: np.nanargmin(x, axis=1), autograph=False)
    spec = f.get_concrete_function(ag.TensorSpec((None, 4), np.float64))
    np.testing.assert_array_equal(spec(WITH_NAN[[0, 2]]), np.nanargmin(WITH_NAN[[0, 2]], 1))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        np.nanargmin(WITH_NAN, axis=1)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        spec(WITH_NAN)


# -- round-half-even, empty and 0-d inputs ---------------------------------------------
def test_round_is_half_even_like_numpy():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.125, 0.375, 12345.5])
    for decimals in (0, 1, 2, -1):
        run_every_way(lambda x, d=decimals: np.round(x, d), x)
        run_every_way(lambda x, d=decimals: np.around(x.astype(np.float32), d), x)
    run_every_way(lambda x: np.round(x, -2), np.array([150, 250, -150], np.int64))


@pytest.mark.parametrize("fn", [
    np.diff, lambda x: np.diff(x, prepend=1.0), np.ediff1d, np.count_nonzero,
    lambda x: np.count_nonzero(x, axis=0), np.nansum, np.nanprod, np.nanmean, np.nanmax,
    np.median, np.unique, lambda x: np.unique(x, return_counts=True), np.bincount,
    lambda x: np.histogram(x, 3), lambda x: np.histogram(x, 2, range=(0, 1)),
    lambda x: np.isclose(x, x), np.cumsum, lambda x: np.nancumsum(x),
    lambda x: np.searchsorted(x, 0.5), np.fft.fft, np.gradient, np.nanargmin,
], ids=lambda f: None)
def test_empty_inputs_behave_as_numpy(fn):
    x = np.zeros((0,), np.int64 if fn is np.bincount else np.float64)
    run_every_way(fn, x, specs=unknown_dims([x]), exact_types=False)


@pytest.mark.parametrize("fn", [
    np.round, lambda x: np.isclose(x, 1.0), lambda x: _np_bool(np.allclose(x, x)),
    np.count_nonzero, np.median, lambda x: np.quantile(x, 0.5), np.nansum, np.nanmean,
    np.nanmedian, lambda x: np.unique(x, return_inverse=True), np.diff, np.fft.fft,
    np.iscomplexobj, lambda x: np.result_type(x, 1), np.cov, np.corrcoef, np.gradient,
], ids=lambda f: None)
def test_zero_dimensional_inputs_behave_as_numpy(fn):
    run_every_way(fn, np.float64(2.5))
    run_every_way(fn, np.array(2.5))


def test_dtypes_follow_nep50():
    cases = [
        (lambda x: np.median(x), np.float32), (lambda x: np.quantile(x, 0.5), np.float32),
        (lambda x: np.percentile(x, [50]), np.float64), (lambda x: np.cov(x), np.float64),
        (lambda x: np.nanmean(x), np.float32), (lambda x: np.fft.fft(x), np.complex64),
        (lambda x: np.fft.irfft(x), np.float32), (lambda x: np.gradient(x), np.float32),
        (lambda x: np.interp(x, [0.0, 1.0], [1.0, 2.0]), np.float64),
    ]
    x = np.linspace(0, 1, 6, dtype=np.float32)
    for fn, want in cases:
        got = ag.convert(fn, autograph=False)(x)
        assert got.dtype == want == np.asarray(fn(x)).dtype, fn
    assert ag.convert(np.fft.fft, autograph=False)(np.arange(4)).dtype == np.complex128


def _scalar_kinds(x, s, a):
    return (np.isscalar(x), np.isscalar(s), np.isscalar(a), np.isscalar(x.sum()),
            np.isscalar(x[0]), np.isscalar(x[:1]), np.isscalar(3.0), np.iscomplexobj(x * 1j),
            np.result_type(x, 1j, s))


def test_isscalar_iscomplexobj_result_type_are_answered_while_tracing():
    args = np.ones(3, np.float32), np.float64(2), np.array(2.0)
    f = ag.convert(_scalar_kinds)
    assert f(*args) == _scalar_kinds(*args) == (
        False, True, False, True, True, False, True, True, np.dtype(np.complex128))


# -- staging: allclose in an `if`, run-time sizes in later ops and loops --------------
def test_if_allclose_stages():
    @ag.convert
    def settle(x, target):
        if np.allclose(x, target, atol=1e-3):
            x = x * 0 + target
        else:
            x = (x + target) / 2
        return x

    graph = settle.get_concrete_function(np.zeros(3), np.ones(3)).graph
    assert "cond" in {e.primitive.name for e in graph.all_eqns()}
    assert "isclose" in {e.primitive.name for e in graph.all_eqns()}
    for x in (np.zeros(3), np.ones(3) - 1e-4):
        np.testing.assert_allclose(settle(x, np.ones(3)), settle.python_function(x, np.ones(3)))
    assert settle.trace_count == 1


def test_run_time_sizes_feed_later_ops_and_a_staged_while():
    @ag.convert
    def spread(labels, values):
        kinds, counts = np.unique(labels, return_counts=True)
        totals = np.bincount(labels, weights=values)
        mean = totals[kinds] / counts
        i = 0
        best = mean[0]
        while i < np.count_nonzero(counts):  # the number of kinds, known at run time
            best = np.maximum(best, mean[i])
            i += 1
        return kinds, mean, best, np.cumsum(counts), np.histogram(mean, 2)[0].sum()

    for n in (5, 9):
        labels = rng.integers(0, 4, n)
        values = rng.normal(size=n)
        got = spread(labels, values)
        want = spread.python_function(labels, values)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w)
    graph = spread.get_concrete_function(labels, values).graph
    assert {"unique", "bincount", "while_loop"} <= {e.primitive.name for e in graph.all_eqns()}
    kinds = graph.outputs[0].aval
    assert kinds.shape == (None,)


# -- gradients ------------------------------------------------------------------------
X = rng.uniform(-2, 2, (3, 5))
DISTINCT = (rng.permutation(15).reshape(3, 5) * 0.37 - 1.1)


@pytest.mark.parametrize("fn, args", [
    pytest.param(lambda x: np.diff(x, 2, axis=1, append=0.5), (X,), id="diff"),
    pytest.param(lambda x: np.ediff1d(x, to_begin=1.0), (X,), id="ediff1d"),
    pytest.param(lambda x: np.gradient(x, 0.5, axis=1), (X,), id="gradient"),
    pytest.param(lambda x: np.gradient(x, edge_order=2)[0], (X,), id="gradient-edge2"),
    *(pytest.param(lambda a, v, f=f, m=m: f(a, v, m), (X[0], X[1, :3]), id=f"{f.__name__}-{m}")
      for f in (np.convolve, np.correlate) for m in ("full", "same", "valid")),
    pytest.param(lambda v, a: np.correlate(a, v, "same"), (X[0], X[1, :2]), id="correlate-long-v"),
    pytest.param(lambda x, xp, fp: np.interp(x, xp, fp),
                 (np.array([-3.0, -0.4, 0.1, 0.7, 1.9, 3.0]), np.array([-1.0, 0.0, 0.5, 2.0]),
                  np.array([0.3, -1.0, 2.0, 0.5])), id="interp"),
    pytest.param(lambda x, fp: np.interp(x, [0.0, 1.0, 2.0], fp, left=0.0, right=1.0),
                 (np.array([-1.0, 0.3, 1.5, 2.5]), np.array([1.0, -1.0, 2.0])),
                 id="interp-left-right"),
    pytest.param(lambda w: np.bincount(np.array([0, 2, 2, 1]), weights=w), (X[0, :4],),
                 id="bincount-weights"),
    pytest.param(lambda x: np.round(x, 1) + x, (X,), id="round"),
    pytest.param(np.cov, (X,), id="cov"),
    pytest.param(lambda x: np.cov(x, rowvar=False, bias=True), (X,), id="cov-rowvar"),
    pytest.param(np.corrcoef, (X,), id="corrcoef"),
    pytest.param(lambda x: np.median(x, axis=1), (DISTINCT,), id="median"),
    pytest.param(np.median, (DISTINCT,), id="median-all"),
    pytest.param(lambda x: np.quantile(x, [0.3, 0.8], axis=0), (DISTINCT,), id="quantile"),
    pytest.param(lambda x: np.percentile(x, 37), (DISTINCT,), id="percentile"),
    pytest.param(lambda x: np.nansum(np.where(x > 1, np.nan, x), axis=1), (X,), id="nansum"),
    pytest.param(lambda x: np.nanmean(np.where(x > 1, np.nan, x), axis=1), (X,),
                 id="nanmean"),
    pytest.param(lambda x: np.nanvar(np.where(x > 1, np.nan, x), axis=1), (X,), id="nanvar"),
    pytest.param(lambda x: np.nanstd(np.where(x > 1, np.nan, x)), (X,), id="nanstd"),
    pytest.param(lambda x: np.nanmax(np.where(x > 1, np.nan, x), axis=1), (DISTINCT,),
                 id="nanmax"),
    pytest.param(lambda x: np.nanprod(np.where(x > 1, np.nan, x), axis=1), (X,),
                 id="nanprod"),
    pytest.param(lambda x: np.nanmedian(np.where(x > 1, np.nan, x), axis=1), (DISTINCT,),
                 id="nanmedian"),
    pytest.param(lambda x: np.nancumsum(np.where(x > 1, np.nan, x)), (X,), id="nancumsum"),
])
def test_gradients_match_finite_differences(fn, args):
    check_grad(fn, *args)


def test_convolve_gradient_with_unknown_lengths():
    a, v = X[0], X[1, :3]
    check_grad(np.convolve, a, v, specs=unknown_dims([a, v]))
    with pytest.raises(ag.TracingError, match="lengths are unknown"):
        check_grad(lambda a, v: np.convolve(a, v, "same"), a, v, specs=unknown_dims([a, v]))


def test_fft_refuses_a_gradient_naming_complex_values():
    with pytest.raises(ag.TracingError, match="complex"):
        check_grad(lambda x: np.real(np.fft.fft(x)), X[0])


# -- saving -------------------------------------------------------------------------------
def test_graphs_with_these_primitives_save_and_load(tmp_path):
    def stats(x, labels):
        hist, edges = np.histogram(x, 4, range=(-2.0, 2.0))
        return (np.round(x, 1), np.isclose(x, 0.5, atol=0.1), np.array_equal(x, x),
                np.fft.irfft(np.fft.rfft(x)), np.fft.ifft(np.fft.fft(x)),
                np.searchsorted(np.sort(x), 0.0, side="right"), np.bincount(labels, minlength=5),
                hist, edges, np.unique(labels, return_inverse=True),
                np.convolve(x, x[:2], "same"), np.correlate(x, x[:3]),
                np.interp(x, [0.0, 1.0], [2.0, 3.0], left=-1.0, period=None),
                np.nanargmax(x), np.median(x), np.gradient(x))

    f = ag.convert(stats)
    x, labels = rng.normal(size=8), rng.integers(0, 3, 6)
    ag.save(f, tmp_path / "saved", ag.TensorSpec((None,), np.float64),
            ag.TensorSpec((None,), np.int64))
    loaded = ag.load(tmp_path / "saved")
    for got, want in zip(_leaves(loaded(x, labels)), _leaves(stats(x, labels))):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def _leaves(tree):
    from autograph_runtime.tree import flatten
    return flatten(tree)[0]
