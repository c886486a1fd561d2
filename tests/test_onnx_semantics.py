"""Exported models compute what NumPy does: division and remainder signs, promotion,
broadcasting, reductions (over empty axes too), products, selections, shapes, indexing
and the common ufuncs, each run in onnxruntime against the eager function."""
from __future__ import annotations

import numpy as np
import pytest
from onnx_check import check

import autograph as ag

I64 = np.iinfo(np.int64)


def test_integer_floor_division_and_remainder_signs(tmp_path):
    a = np.array([-7, 7, -7, 7, 0, 5, -5, I64.min, I64.min, I64.max, 6], np.int64)
    b = np.array([2, -2, -2, 2, 3, 0, 0, -1, 1, -1, 3], np.int64)
    check(lambda a, b: (a // b, a % b, np.floor_divide(a, 3), np.remainder(a, -3), a // -3,
                        a % 4), a, b,
          path=tmp_path / "m.onnx", runs=[(b, a + 1)])
    check(lambda a, b: (a // b, a % b), a.astype(np.int32), b.astype(np.int32),
          path=tmp_path / "m32.onnx")


def test_float_floor_division_and_remainder_as_numpy(tmp_path):
    a = np.array([-7.5, 7.5, -0.0, 0.0, 1e308, np.inf, np.nan, 5.0, -5.0, 3.0, -1e-300, 6.0])
    b = np.array([2.0, -2.0, 3.0, -3.0, 1e-308, 2.0, 1.0, 0.0, -0.0, np.inf, 7.0, 0.1])
    for dtype in (np.float64, np.float32):
        with np.errstate(over="ignore", under="ignore"):   # 1e308 is inf as float32
            a_, b_ = a.astype(dtype), b.astype(dtype)
        check(lambda a, b: (a // b, a % b, 1 / (a // b), 1 / (a % b)),   # 1/x: -0.0 or 0.0
              a_, b_, path=tmp_path / "m.onnx", ulps=0)


def test_python_number_division_and_remainder(tmp_path):
    def f(n):
        k = -7
        i = 0
        while i < n:
            k = k * 3 - 1
            i += 1
        x = k * 0.5
        return k // 4, k % 4, k // -4, k % -4, k / 4, x // 2.5, x % -2.5, -k, abs(k)
    check(f, np.int64(3), path=tmp_path / "m.onnx", runs=[(np.int64(0),), (np.int64(5),)])


def test_promotion_keeps_numpy_dtypes(tmp_path):
    def f(i32, i64, f32, f64, flags):
        return (i32 + i64, f32 * 2.0, f32 + f64, i64 / i64, i32 * 2.5, flags + flags,
                flags * flags, flags + i64, i32 + 1, f32 ** 2, i64 > f32)
    check(f, np.arange(3, dtype=np.int32), np.array([5, -2, 7]), np.linspace(0, 1, 3, dtype=np.float32),
          np.array([0.5, -1.5, 3.0]), np.array([True, False, True]), path=tmp_path / "m.onnx")


def test_broadcasting_and_unknown_dimensions(tmp_path):
    f = ag.convert(lambda x, y: x * y + 1.0)
    concrete = f.get_concrete_function(ag.TensorSpec((None, 1), np.float32),
                                       ag.TensorSpec((4,), np.float32))
    model = concrete.export_onnx(tmp_path / "m.onnx")
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["x_dim0", 1]
    from onnx_check import run_model
    x, y = np.ones((3, 1), np.float32) * 2, np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(run_model(tmp_path / "m.onnx", [x, y])[0], x * y + 1.0)


@pytest.mark.parametrize("shape", [(3, 4, 5), (0, 3, 2)])
def test_reductions_with_axis_keepdims_and_empty_axes(shape, tmp_path):
    def f(x, k):
        return (x.sum(axis=1), x.sum(axis=(0, 2), keepdims=True), np.mean(x, axis=0),
                x.prod(axis=-1), np.any(x > 0.5, axis=0), np.all(x > -5.0, axis=1),
                k.sum(axis=0), x.sum(), np.cumsum(x, axis=1))
    x = np.random.default_rng(0).normal(size=shape)
    check(f, x, np.ones(shape, np.int32), path=tmp_path / "m.onnx")


def test_max_min_propagate_nan(tmp_path):
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, -6.0]])
    check(lambda x: (x.max(axis=0), x.min(axis=1), np.max(x), np.maximum(x, 2.0),
                     np.minimum(x, 2.0), np.fmax(x, 2.0), np.clip(x, 0.0, 4.0)),
          x, path=tmp_path / "m.onnx")
    check(lambda x: (x.max(axis=0), np.clip(x, -1, 3)), np.array([[3, -9, 4], [1, 5, 2]]),
          path=tmp_path / "i.onnx")


def test_products(tmp_path):
    rng = np.random.default_rng(1)
    check(lambda a, b, v, t: (a @ b, v @ b, a @ v[:3], t @ b, np.dot(a, b)),
          rng.normal(size=(2, 3)), rng.normal(size=(3, 4)), rng.normal(size=3),
          rng.normal(size=(5, 2, 3)), path=tmp_path / "m.onnx", ulps=16)
    check(lambda a, b: a @ b, np.arange(6).reshape(2, 3), np.arange(12).reshape(3, 4),
          path=tmp_path / "i.onnx")


def test_selections_and_comparisons(tmp_path):
    x = np.array([1.0, np.nan, -2.0, 0.0, 3.0])
    y = np.array([1.0, 1.0, -3.0, -0.0, np.inf])
    check(lambda x, y: (np.where(x > y, x, y), x == y, x != y, x < y, x <= y, x >= y,
                        np.where(x > 0, 1, 0.5), np.logical_and(x > 0, y > 0),
                        np.logical_or(x > 0, y > 0), np.logical_not(x > 0),
                        np.logical_xor(x > 0, y > 0), np.isnan(x), np.isinf(y),
                        np.isfinite(y)), x, y, path=tmp_path / "m.onnx")


def test_shapes_and_joins(tmp_path):
    def f(x, v, k):
        return (x.reshape(-1), x.reshape(3, -1), x.T, np.transpose(x, (1, 0)),
                x[None].squeeze(0), np.expand_dims(v, 1), np.concatenate([v, k]),
                np.stack([v, v * 2], axis=1), np.zeros_like(x), np.ones_like(k),
                np.full_like(v, 7.0), np.broadcast_to(v, (2, 3)), np.split(x, 2, axis=1))
    check(f, np.arange(12.0).reshape(3, 4), np.array([1.0, 2.0, 3.0]),
          np.array([4, 5], np.int32), path=tmp_path / "m.onnx")


def test_basic_indexing(tmp_path):
    def f(x, i, j, idx):
        return (x[0], x[-1], x[1:], x[::-1], x[1:-1:2], x[..., 0], x[:, None, 1],
                x[i], x[i:j], x[:, j], x[::-2, ::-1], x[idx], x[2:0:-1], x[-100:100])
    x = np.arange(20.0).reshape(5, 4)
    check(f, x, np.int64(1), np.int64(3), np.array([4, 0, -1]), path=tmp_path / "m.onnx",
          runs=[(x, np.int64(-2), np.int64(-1), np.array([1, 1, 3]))])


def test_item_writes(tmp_path):
    def f(x, i, v):
        x = x.copy()
        x[i] = v
        x[0, 1:3] = -1.0
        x[:, -1] = x[:, 0] * 2
        return x
    check(f, np.zeros((3, 4)), np.int64(2), np.float64(5.0), path=tmp_path / "m.onnx",
          runs=[(np.ones((3, 4)), np.int64(-3), np.float64(2.5))])


@pytest.mark.parametrize("name", ["exp", "log", "tanh", "sqrt", "absolute", "negative",
                                  "sin", "cos", "floor", "ceil", "rint", "trunc", "sign",
                                  "square", "reciprocal", "positive"])
def test_common_ufuncs(name, tmp_path):
    ufunc = getattr(np, name)
    x = np.array([-2.5, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 3.0, np.nan, np.inf, -np.inf])
    for dtype in (np.float64, np.float32):
        check(lambda x: ufunc(x), x.astype(dtype), path=tmp_path / "m.onnx")


def test_integer_unary_and_bitwise(tmp_path):
    check(lambda a, b: (-a, np.abs(a), a & b, a | b, a ^ b, ~a, np.square(a), np.sign(a)),
          np.array([-3, 0, 5, I64.max]), np.array([1, 2, 3, 4]), path=tmp_path / "m.onnx")


def test_control_flow_and_calls(tmp_path):
    @ag.convert
    def helper(v):
        with np.errstate(over="ignore"):
            return v * 2 if v.sum() > 0 else -v

    def f(x, n):
        total = x
        i = 0
        while i < n:
            total = helper(total) + 1
            if total[0] > 50:
                break
            i += 1
        return total, i
    check(f, np.array([1.0, -2.0]), np.int64(4), path=tmp_path / "m.onnx",
          runs=[(np.array([-1.0, -2.0]), np.int64(0)), (np.array([3.0, 2.0]), np.int64(9))])


def test_counting_loops_run_their_trip_count(tmp_path):
    def f(x, lo, hi):
        for i in range(lo, hi, 3):
            x = x * 2 + i
        return x
    check(f, np.ones(2), np.int64(1), np.int64(10), path=tmp_path / "m.onnx",
          runs=[(np.ones(2), lo, hi) for lo, hi in ((np.int64(5), np.int64(-3)),
                                                    (np.int64(-4), np.int64(-1)),
                                                    (np.int64(0), np.int64(0)))])


def test_arg_extremes_variance_and_python_conversions(tmp_path):
    def f(x, flags, n):
        m = x.max()
        return (np.argmax(x, axis=1), np.argmin(x, axis=0), x.argmax(), np.argmax(flags),
                np.argmin(x, axis=1, keepdims=True), x.var(axis=0), x.std(), x.var(ddof=1),
                float(m) * 2, int(x[0, 1]), bool(n), np.arange(n) * 2, np.arange(2, n, 3))
    x = np.array([[1.0, 5.0, 5.0, -2.0], [3.0, -7.0, 2.0, 9.0], [0.5, 0.25, 8.0, 8.0]])
    nan_x = x.copy()
    nan_x[1, 2] = nan_x[2, 0] = np.nan
    check(f, x, np.array([False, True, True]), np.int64(7), path=tmp_path / "m.onnx",
          runs=[(nan_x, np.zeros(3, bool), np.int64(0)), (-x, np.ones(3, bool), np.int64(2))])


def test_a_value_a_branch_reads_keeps_its_name(tmp_path):
    """An inlined call's output that an `If` of the callee reads by name is not renamed
    after the caller's variable (the subgraph would read a name nothing computes)."""
    @ag.convert
    def inner(x):
        y = x * 2
        if x.sum() > 0:
            z = y + 1
        else:
            z = y - 1
        return y, z

    def outer(x):
        a, b = inner(x)
        return a + b
    check(outer, np.array([1.0, 2.0]), path=tmp_path / "m.onnx", runs=[(-np.ones(2),)])


def test_sort_puts_nans_last(tmp_path):
    def f(x, k, flags):
        return np.sort(x), np.sort(x, axis=0), np.sort(k, axis=None), np.sort(flags)
    x = np.array([[3.0, np.nan, -1.0, 0.0], [np.inf, 2.0, np.nan, -np.inf], [1.0, 1.0, 0.5, 9.0]])
    check(f, x, np.array([[5, -3], [2, 7]]), np.array([True, False, True]),
          path=tmp_path / "m.onnx", runs=[(-x, np.array([[0, 0], [-9, 1]]), np.ones(3, bool))])


def test_selections_of_every_dtype(tmp_path):
    """`np.where` and a selected `if` of booleans and narrow ints (onnxruntime's `Where`
    takes neither), and an `if` whose branches are elementwise (computed both ways)."""
    def f(x, flags, k):
        small = np.where(x > 0, x.astype(np.int8), np.int8(-3))
        picked = np.where(x > 1, flags, ~flags)
        if k % 2 == 0:
            k = k // 2
            flag = k > 3
        else:
            k = 3 * k + 1
            flag = False
        return small, picked, k, flag
    x = np.array([-1.0, 0.5, 2.0])
    check(f, x, np.array([True, False, True]), np.int64(10), path=tmp_path / "m.onnx",
          runs=[(-x, np.array([False, False, True]), np.int64(7))])
    model = onnx_load(tmp_path / "m.onnx")
    assert "If" not in [n.op_type for n in model.graph.node]


def onnx_load(path):
    return pytest.importorskip("onnx").load(path)
