"""`runtime.passes.short_sums`: a float sum over a short axis as additions of its slices,
bit for bit NumPy's `np.sum` (signed zeros, NaNs, infs), with NumPy's warnings and errors."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag
from autograph_runtime import AbstractValue, GraphBuilder, native, primitives
from autograph_runtime.passes import optimize
from autograph_runtime.ops.reductions import sum_p
from autograph_runtime.passes.short_sums import SHORT, short_sum_p, short_sums


def _awkward(rng, shape, dtype):
    """Values of every scale with signed zeros, a NaN and infinities among them."""
    x = rng.normal(size=shape) * rng.choice([1e-30, 1.0, 1e20, 1e300], size=shape)
    with np.errstate(over="ignore"):
        x = x.astype(dtype)
    flat = x.reshape(-1)
    flat[::5] = -0.0
    flat[1::9] = 0.0
    flat[3] = np.nan
    flat[7], flat[8] = np.inf, -np.inf
    return x


def _kernel(axis):
    return primitives.kernels[short_sum_p](np, axis=axis)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", range(1, SHORT))
def test_the_kernel_is_numpys_sum_bit_for_bit(dtype, n):
    rng = np.random.default_rng(n)
    for shape in [(40, 6, n), (40, n, 6), (n, 5, 7), (9, n)]:
        for axis in [k for k, d in enumerate(shape) if d == n]:
            strided = _awkward(rng, shape[:-1] + (2 * shape[-1],), dtype)[..., ::-2]
            for x in (_awkward(rng, shape, dtype), strided):
                with np.errstate(all="ignore"):
                    want, got = np.sum(x, axis=axis), _kernel(axis)(x)
                assert got.dtype == want.dtype and got.shape == want.shape
                assert got.tobytes() == want.tobytes(), (shape, axis)


def test_an_overflow_is_numpys_warning_and_errstate_is_the_callers():
    x = np.array([[1e308, 1e308], [1.0, 2.0]])
    kernel = _kernel(1)
    with warnings.catch_warnings(record=True) as eager:
        warnings.simplefilter("always")
        want = np.sum(x, axis=1)
    with warnings.catch_warnings(record=True) as got_warnings:
        warnings.simplefilter("always")
        got = kernel(x)
    assert got.tobytes() == want.tobytes()
    assert [str(w.message) for w in got_warnings] == [str(w.message) for w in eager] != []
    with np.errstate(over="raise"), pytest.raises(FloatingPointError) as eager_error:
        np.sum(x, axis=1)
    with np.errstate(over="raise"), pytest.raises(FloatingPointError) as error:
        kernel(x)
    assert str(error.value) == str(eager_error.value)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kernel(x).tobytes() == want.tobytes()


def _graph(shape, dtype, **sum_params):
    with GraphBuilder("f") as builder:
        x = builder.new_input(AbstractValue(shape, dtype), "x")
        y = (x * x).sum(**sum_params)
    return builder.build([y])


def test_which_sums_it_rewrites():
    rewritten = _graph((500, 3, 2), np.float64, axis=2)
    assert "short_sum[axis=2]" in str(short_sums(rewritten))
    assert "short_sum[axis=0]" in str(short_sums(_graph((7, 600), np.float32, axis=0)))
    for graph in (_graph((500, 3, 8), np.float64, axis=2),      # NumPy pairs 8 and more
                  _graph((500, 3, 2), np.int64, axis=2),        # exact anyway
                  _graph((500, 3, 2), np.float16, axis=2),      # summed in float32
                  _graph((500, 3, 2), np.float64, axis=(1, 2)),  # two axes
                  _graph((500, 3, 2), np.float64, axis=2, keepdims=True),
                  _graph((3,), np.float64, axis=0),             # a 0-d result
                  _graph((5, 3, 2), np.float64, axis=2),        # 15 sums: NumPy's are faster
                  _graph((500, 3, 2), np.float64)):             # every axis
        assert short_sums(graph) is graph


def distances(points, centroids):
    d = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    return d, d.sum(axis=1), (points * 2).sum(axis=0)


@pytest.mark.parametrize("tier", ["numpy", "native"])
def test_a_converted_function_sums_short_axes_as_eager_numpy(tier):
    if tier == "native" and not native.available():
        pytest.skip("Numba is not installed (the native tier's extra)")
    rng = np.random.default_rng(2)
    points, centroids = _awkward(rng, (600, 3), np.float64), rng.normal(size=(4, 3))
    f = ag.convert(distances, tier=tier)
    with np.errstate(all="ignore"):
        want, got = distances(points, centroids), f(points, centroids)
    for w, g in zip(want, got):
        if tier == "numpy":
            assert g.tobytes() == w.tobytes()
        else:
            np.testing.assert_allclose(g, w, rtol=1e-12)
    graph = f.get_concrete_function(points, centroids).optimized_graph
    assert str(graph).count("short_sum") == 2   # d.sum(axis=1) has 4 entries, (600, 3) 600
    assert optimize(_graph((500, 3, 2), np.float64, axis=2)).eqns[-1].primitive is short_sum_p


def test_its_gradient_is_a_sums():
    import autograph_runtime.autodiff  # noqa: F401 - fills the rules of `sum`
    with GraphBuilder("f") as builder:
        x = builder.new_input(AbstractValue((6, 2), np.float64), "x")
        g = builder.new_input(AbstractValue((6,), np.float64), "g")
        (got,) = primitives.vjp_rules[short_sum_p](g, None, x, axis=1)
        (want,) = primitives.vjp_rules[sum_p](g, None, x, axis=(1,))
    graph = builder.build([got, want])
    assert got.aval.shape == (6, 2) and str(graph).count("broadcast_to") == 2
