"""The native tier (`runtime.native`, `autograph.tiers`) against eager NumPy.

Every corpus function runs with `tier="native"`: the graphs with a lowering for
every primitive run as machine code, the others on the NumPy tier with a reason;
all give eager's results (floats within the native tier's tolerance, integers and
booleans exactly), and NumPy's warnings and errors (through a deopt). Skipped,
with the reason, where Numba is not installed.
"""
from __future__ import annotations

import time
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_corpus import CASES, _params, _run, assert_graph_matches
from test_tiers import scalar_loop

import autograph as ag
from autograph_runtime import native

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="Numba is not installed (the native tier's extra)")

@pytest.mark.parametrize("fn, arg_tuples", _params("graph"))
def test_corpus_on_the_native_tier(fn, arg_tuples, capsys):
    g = ag.convert(fn, tier="native")
    for k, args in enumerate(arg_tuples):
        expected, eager_text = _run(fn, args, capsys)
        got, text = _run(g, args, capsys)
        assert_graph_matches(expected, got, f"native tier, argument tuple {k}", rtol=1e-5)
        assert text == eager_text
    concrete = g.get_concrete_function(*arg_tuples[0])
    assert (concrete.tier == "native") == (concrete.tier_reason is None)
    assert concrete.tier == "native" or concrete.tier_reason == native.unsupported_reason(
        concrete.optimized_graph)


def test_most_corpus_graphs_lower():
    # a count, so a lowering lost shows: 222 of the 270 corpus graphs had every one
    lowered = 0
    for _, fn, arg_tuples, _ in CASES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            concrete = ag.convert(fn, tier="numpy").get_concrete_function(*arg_tuples[0])
        graph = concrete.optimized_graph
        lowered += native.unsupported_reason(graph) is None
    assert lowered >= 222


def integer_ops(a, b):
    return a + b, a - b, a * b, a // b, a % b, np.maximum(a, b), a < b, -a, a == b


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64"])
def test_integer_results_are_bit_for_bit_numpys_wrap_around_and_division(dtype):
    f = ag.convert(integer_ops, tier="native")
    info = np.iinfo(dtype)
    rng = np.random.default_rng(7)
    for zero_divisor in (False, True, False):
        a = rng.integers(info.min, info.max, 8, dtype=dtype, endpoint=True)
        b = rng.integers(info.min, info.max, 8, dtype=dtype, endpoint=True)
        a[:2] = info.max, info.min            # wrap-around at both ends
        b[:2] = info.max, -1 if info.min else 1
        b[b == 0] = 1
        if zero_divisor:
            b[3] = 0                           # NumPy warns: the call deopts
        with warnings.catch_warnings(record=True) as eager_warnings:
            warnings.simplefilter("always")
            want = integer_ops(a, b)
        with warnings.catch_warnings(record=True) as graph_warnings:
            warnings.simplefilter("always")
            got = f(a, b)
        for w, g in zip(want, got):
            np.testing.assert_array_equal(g, w, strict=True)
        assert sorted(str(w.message) for w in graph_warnings) == \
            sorted(str(w.message) for w in eager_warnings)
    assert f.get_concrete_function(a, b).tier == "native"


def scalar_steps(n, x):
    k = 1
    while n > 0:
        n -= 1
        k = k * 3             # a Python int: past int64 after 40 trips
        x = x * x + np.int64(1)
    return k % 1000, x


def test_python_ints_past_int64_and_numpy_scalar_overflow_deopt_to_numpy():
    f = ag.convert(scalar_steps, tier="native")
    for n in (3, 50):
        for x in (np.int64(2), np.int64(2 ** 40)):
            with warnings.catch_warnings(record=True) as eager_warnings:
                warnings.simplefilter("always")
                want = scalar_steps(np.int64(n), x)
            with warnings.catch_warnings(record=True) as graph_warnings:
                warnings.simplefilter("always")
                got = f(np.int64(n), x)
            assert [int(v) for v in got] == [int(v) for v in want]
            assert len(graph_warnings) == len(eager_warnings)
    assert f.get_concrete_function(np.int64(3), np.int64(2)).tier == "native"


def logs(x):
    return np.log(x) * 2.0


def test_float_warnings_and_errstate_are_numpys():
    f = ag.convert(logs, tier="native")
    np.testing.assert_allclose(f(np.array([1.0, 2.0])), logs(np.array([1.0, 2.0])), rtol=1e-12)
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in log"):
        got = f(np.array([0.0, 2.0]))
    assert got[0] == -np.inf
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        f(np.array([0.0, 2.0]))
    assert f.get_concrete_function(np.array([1.0, 2.0])).tier == "native"


def pick(xs, t):
    return xs[t] * 2


def test_an_index_out_of_bounds_is_numpys_index_error():
    f = ag.convert(pick, tier="native")
    xs = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(f(xs, np.int64(-1)), pick(xs, np.int64(-1)))
    with pytest.raises(IndexError, match="out of bounds"):
        f(xs, np.int64(3))
    assert f.get_concrete_function(xs, np.int64(0)).tier == "native"


def test_a_graph_with_effects_stays_on_numpy_and_says_why(capsys):
    @ag.convert(tier="native")
    def noisy(x):
        print("x is", x)
        return x + 1

    np.testing.assert_array_equal(noisy(np.ones(2)), [2.0, 2.0])
    concrete = noisy.get_concrete_function(np.ones(2))
    assert concrete.tier == "numpy"
    assert concrete.tier_reason == "primitive 'print' has effects"
    assert "x is" in capsys.readouterr().out


def test_tier_names_are_checked():
    with pytest.raises(ValueError, match="unknown tier 'fast'"):
        ag.convert(logs, tier="fast")
    with pytest.raises(ValueError, match="unknown tier"):
        ag.set_tier("gpu")


def test_auto_compiles_a_hot_graph_in_the_background_and_keeps_the_faster_tier():
    from autograph import tiers
    before = tiers.settings.tier, tiers.settings.hot_calls
    ag.set_tier("auto", hot_calls=3)
    try:
        f = ag.convert(scalar_steps)
        args = (np.int64(3), np.int64(2))
        concrete = f.get_concrete_function(*args)
        assert concrete.tier == "numpy" and concrete.tier_reason.startswith("not hot")
        for _ in range(3):
            f(*args)
        deadline = time.monotonic() + 120
        while concrete.tier_reason == "compiling in the background" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert concrete.tier == "native" or concrete.tier_reason.startswith("measured faster")
        assert [int(v) for v in f(*args)] == [int(v) for v in scalar_steps(*args)]
    finally:
        ag.set_tier(*before)


def test_auto_compiles_a_graph_hot_by_loop_trips_after_one_call():
    from autograph import tiers
    before = tiers.settings.tier, tiers.settings.hot_calls, tiers.settings.hot_trips
    ag.set_tier("auto", hot_calls=100, hot_trips=5000)
    try:
        f = ag.convert(scalar_loop)
        x = np.float64(1.0)
        concrete = f.get_concrete_function(x, np.int64(10))
        assert f(x, np.int64(4000)) == scalar_loop(x, 4000)   # 4,000 trips: not hot
        assert concrete.tier == "numpy" and concrete.tier_reason.startswith("not hot")
        assert f(x, np.int64(20000)) == scalar_loop(x, 20000)
        assert concrete.tier == "native" or concrete.tier_reason == "compiling in the background"
        deadline = time.monotonic() + 120
        while concrete.tier_reason == "compiling in the background" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert concrete.tier == "native", concrete.tier_reason   # 20,000 trips: faster native
        assert "trips" not in concrete._numpy_fn.source
        np.testing.assert_allclose(f(x, np.int64(30000)), scalar_loop(x, 30000),
                                   rtol=1e-12)
    finally:
        ag.set_tier(*before)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-30, 30, width=32), min_size=1, max_size=6))
def test_fused_float32_chains_stay_within_a_few_ulp(values):
    x = np.array(values, dtype=np.float32)
    got, want = _sigmoid_tanh(x), _sigmoid_tanh.python_function(x)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_array_max_ulp(got, want, maxulp=4)


@ag.convert(tier="native")
def _sigmoid_tanh(x):
    return 1 / (1 + np.exp(-x)) * np.tanh(x)


CACHE_SCRIPT = """
import sys, numpy as np, autograph as ag, autograph_runtime.config
autograph_runtime.config.native_cache_dir = sys.argv[1]

def f(x, n):
    for i in range(n):
        x = np.tanh(x) * 1.5 + 0.25
    return x

g = ag.convert(f, tier="native")
got = g(np.arange(3.0), np.int64(4))
concrete = g.get_concrete_function(np.arange(3.0), np.int64(4))
np.testing.assert_allclose(got, f(np.arange(3.0), np.int64(4)), rtol=1e-12)
print(concrete.tier, concrete._fn.from_disk_cache)
"""


def _run_script(folder):
    import subprocess
    import sys
    script = folder / "script.py"
    script.write_text(CACHE_SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(folder / "cache")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_a_second_process_loads_the_machine_code_from_the_disk_cache(tmp_path):
    assert _run_script(tmp_path) == ["native", "False"]
    assert _run_script(tmp_path) == ["native", "True"]
    for entry in (tmp_path / "cache" / "__pycache__").iterdir():  # corrupt: compiled again
        entry.write_bytes(b"not a cache entry")
    assert _run_script(tmp_path)[0] == "native"


def shapes_and_reductions(x, v):
    y = x[:, None, :] - v[None, :, None]          # (3, 2, 4): None indexes, broadcasting
    d = (y ** 2).sum(axis=2)
    nearest = np.argmin(d, axis=1)
    onehot = (nearest[:, None] == np.arange(2)).astype(x.dtype)
    counts = onehot.sum(axis=0)
    means = (onehot.T @ x) / np.maximum(counts, 1)[:, None]
    flat = x.reshape(-1)[::3]
    return (means, nearest, np.argmax(x), np.all(x > -5.0), np.any(x > 3.0, axis=1),
            x.T.copy(), np.expand_dims(flat, 0), np.squeeze(x[:1]), x ** 3, d.max(axis=0),
            x.mean(), x.mean(axis=0, keepdims=True), x.sum(axis=1, keepdims=True),
            np.where(x > 0, x, -x) + 1)   # an element that is an expression, then `+`


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_shape_ops_reductions_and_argmin_match_numpy(dtype):
    f = ag.convert(shapes_and_reductions, tier="native")
    rng = np.random.default_rng(3)
    for _ in range(3):
        x = rng.integers(-4, 5, (3, 4)).astype(dtype)
        v = rng.integers(-2, 3, 2).astype(dtype)
        want, got = shapes_and_reductions(x, v), f(x, v)
        for w, g in zip(want, got):
            assert np.asarray(g).dtype == np.asarray(w).dtype
            np.testing.assert_allclose(g, w, rtol=1e-6)
    assert f.get_concrete_function(x, v).tier == "native", \
        f.get_concrete_function(x, v).tier_reason


def joins_and_fills(x, lo):
    z = np.zeros_like(x)
    return (np.concatenate([x, z], axis=1), np.stack([x, x + 1]), np.full_like(x, 7),
            np.clip(x, lo, 3), np.sign(x - 1), np.ones_like(x, dtype=np.float32) / 3)


@pytest.mark.parametrize("dtype", ["float64", "int8"])
def test_joins_fills_clip_and_sign_match_numpy(dtype):
    f = ag.convert(joins_and_fills, tier="native")
    x = np.array([[-3, 0, 2], [5, 1, -1]], dtype=dtype)
    lo = np.array(-2, dtype=dtype)[()]
    for w, g in zip(joins_and_fills(x, lo), f(x, lo)):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(g, w)
    assert f.get_concrete_function(x, lo).tier == "native", \
        f.get_concrete_function(x, lo).tier_reason


def products(a, b, v):
    return a @ b, v[:8] @ b[:8, :4], a[:, ::2] @ b[::2, :]   # strided views: copied for BLAS


def test_large_float_products_go_through_blas_and_small_ones_loop():
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(64, 48)), rng.normal(size=(48, 700))   # 2.1M multiply-adds
    v = rng.normal(size=48)
    f = ag.convert(products, tier="native")
    for w, g in zip(products(a, b, v), f(a, b, v)):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)
    source = f.get_concrete_function(a, b, v).source
    # NumPy's matmul (its BLAS) from MATMUL_FROM multiply-adds, loops for 8 x 4
    assert source.count("call_numpy(np.matmul") == 1 and "+=" in source   # a @ b
    assert source.count("np.dot(") == 1   # the strided one: 1,075,200, Numba's BLAS call
    a, b = a[:, :16], b[:16, :100]   # 102,400 multiply-adds: Numba's own BLAS call
    for w, g in zip(products(a, b, v[:16]), f(a, b, v[:16])):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)
    source = f.get_concrete_function(a, b, v[:16]).source
    assert source.count("np.dot(") == 2 and "objmode" not in source
