"""Reductions that compute their elementwise operand in their own loop nest
(`runtime.native.loops.Operand`, `emit.fusion`), and `None` indexes as Numba views,
against eager NumPy: the same dtypes and shapes, integers and booleans bit for bit,
floats within the native tier's tolerance (sums in order), NumPy's warnings and
errors through a deopt; and BLAS operands passed as they are where Numba types them
contiguous (`x.T` of a C array). Skipped, with the reason, where Numba is not installed.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag
from autograph_runtime import native

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="Numba is not installed (the native tier's extra)")


def fused_reductions(x, y):
    z = x[:, None, :] - y[None, :, :]                 # (n, k, m), never stored
    return ((z ** 2).sum(axis=2),                     # the innermost axis: a scalar sum
            (x * 2 + 1).sum(axis=0),                  # an outer axis: a row of sums
            (z * 3).sum(axis=1),                      # a middle axis
            (x - 1).sum(axis=1, keepdims=True), (x + y[0]).sum(),
            (z * z).max(axis=2), (x - 2).min(axis=0, keepdims=True), (x * x).mean(axis=1),
            (x > 0).all(axis=1), (x > 2).any(), np.abs(x - 1).sum(axis=(1,)),
            np.argmin(z * 5, axis=1), np.argmax(x * 2, axis=0), np.argmin(x - 1),
            np.argmax(z + 1, axis=2, keepdims=True), np.argmin(x[0] * 2))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int8"])
def test_reductions_of_elementwise_chains_match_numpy(dtype):
    f = ag.convert(fused_reductions, tier="native")
    rng = np.random.default_rng(11)
    for _ in range(3):
        x = rng.integers(-4, 5, (6, 3)).astype(dtype)
        y = rng.integers(-3, 4, (4, 3)).astype(dtype)
        want, got = fused_reductions(x, y), f(x, y)
        for w, g in zip(want, got):
            w, g = np.asarray(w), np.asarray(g)
            assert (g.dtype, g.shape) == (w.dtype, w.shape)
            if w.dtype.kind == "f":
                np.testing.assert_allclose(g, w, rtol=1e-6)
            else:
                np.testing.assert_array_equal(g, w)
    concrete = f.get_concrete_function(x, y)
    assert concrete.tier == "native", concrete.tier_reason
    # `z` (read five times) is stored once; `z ** 2`, `z * 3`, `z * z`, `z * 5`, `z + 1` never are
    assert concrete.source.count("np.empty((6, 4, 3, )") == 1
    assert "np.ascontiguousarray" not in concrete.source   # `None` indexes are views


def nearest(points, centroids):
    d = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    return np.argmin(d, axis=1), d.min(axis=1)


def test_nan_in_a_fused_operand_is_numpys_first_nan():
    f = ag.convert(nearest, tier="native")
    points = np.arange(12.0).reshape(6, 2)
    centroids = np.array([[0.0, 1.0], [4.0, 5.0], [9.0, 9.0]])
    points[2, 1] = np.nan
    centroids[2, 0] = np.nan
    for w, g in zip(nearest(points, centroids), f(points, centroids)):
        np.testing.assert_array_equal(g, w, strict=True)
    assert f.get_concrete_function(points, centroids).tier == "native"


def test_an_overflow_inside_a_fused_reduction_is_numpys_warning():
    f = ag.convert(nearest, tier="native")
    points = np.array([[1e200, 0.0], [1.0, 2.0]])
    centroids = np.array([[0.0, 0.0], [1.0, 1.0]])
    with warnings.catch_warnings(record=True) as eager:
        warnings.simplefilter("always")
        want = nearest(points, centroids)
    with warnings.catch_warnings(record=True) as graph:
        warnings.simplefilter("always")
        got = f(points, centroids)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w, strict=True)
    assert [str(w.message) for w in graph] == [str(w.message) for w in eager]
    assert eager, "the square overflows"


def empty_axes(x):
    return (x * 2).sum(axis=1), np.argmin(x + 1, axis=1)


def test_an_empty_reduced_axis_is_numpys_sum_and_error():
    f = ag.convert(empty_axes, tier="native")
    x = np.zeros((3, 0))
    with pytest.raises(ValueError) as eager:
        empty_axes(x)
    with pytest.raises(ValueError) as graph:
        f(x)
    assert str(graph.value) == str(eager.value)
    np.testing.assert_array_equal(ag.convert(lambda x: (x * 2).sum(axis=1), tier="native")(x),
                                  np.zeros(3), strict=True)


def new_axes(x, v, t):
    return x[:, None, :] * v[None, :, None], x[t, None, 1:], x[..., None][::2]


def test_none_indexes_of_strided_arrays_are_views_with_numpys_values():
    f = ag.convert(new_axes, tier="native")
    x = np.arange(40.0).reshape(5, 8)[:, ::2]     # strided: no copy needed for the view
    v = np.array([1.0, -1.0, 2.0])
    t = np.int64(-2)
    for w, g in zip(new_axes(x, v, t), f(x, v, t)):
        np.testing.assert_array_equal(g, w, strict=True)
    concrete = f.get_concrete_function(x, v, t)
    assert concrete.tier == "native", concrete.tier_reason
    assert "ascontiguousarray" not in concrete.source


def transposed_products(onehot, points, w):
    return onehot.T @ points, points[::2].T @ onehot[::2], w.T @ w.T


def test_a_transposed_blas_operand_is_not_copied():
    rng = np.random.default_rng(4)
    onehot = (rng.integers(0, 8, 5000)[:, None] == np.arange(8)).astype(np.float64)
    points, w = rng.normal(size=(5000, 2)), rng.normal(size=(90, 90))
    # (90 x 90 x 90 multiply-adds: under numpy_kernels.MATMUL_FROM, Numba's own BLAS call)
    f = ag.convert(transposed_products, tier="native")
    for want, got in zip(transposed_products(onehot, points, w), f(onehot, points, w)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        assert got.dtype == want.dtype and got.shape == want.shape
    source = f.get_concrete_function(onehot, points, w).source
    assert "onehot.T" in source and source.count("blas_operand(") == 6
