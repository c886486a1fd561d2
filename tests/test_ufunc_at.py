"""`ufunc.at(a, indices, b)` on traced values: the `index_accumulate` primitive.

Eager NumPy is the oracle: repeated indices accumulate, every index kind, b
broadcast, NumPy's unsafe cast into a's dtype, its errors; a local NumPy array
written with traced values is rebound (`autograph/operators/local_arrays.py`);
gradients of add.at and subtract.at against finite differences.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph.testing.compare import differences
from autograph_runtime import native
from gradcheck import check_grad
from oracle import run_every_way

BINARY = [np.add, np.subtract, np.multiply, np.maximum, np.minimum, np.fmax]


def copied(args):
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


def assert_as_eager(fn, *args):
    """The converted function returns what `fn` returns, or raises the same type."""
    try:
        eager = fn(*copied(args))
    except Exception as error:
        with pytest.raises(type(error)):
            ag.convert(fn)(*copied(args))
        return
    found = differences(eager, ag.convert(fn)(*copied(args)))
    assert not found, "\n".join(line for d in found for line in d.lines())


def accumulate(ufunc, index):
    def fn(a, b):
        a = a.copy()
        ufunc.at(a, index, b)
        return a
    return fn


@pytest.mark.parametrize("ufunc", BINARY)
@pytest.mark.parametrize("index, b", [
    ([0, 0, 2, 0], 1.5),                                  # repeats accumulate
    (np.array([[1, 1], [3, -1]]), np.arange(4.0).reshape(2, 2)),
    (slice(None, None, 2), np.array([2.0, 3.0])),
    (2, -4.0),
    ((np.array([0, 0]), slice(None)), np.arange(2.0)),     # b broadcast
    (np.array([True, False, True, True]), 2.0),
    (Ellipsis, np.float64(0.5)),
])
def test_binary_at_matches_numpy(ufunc, index, b):
    a = np.arange(8.0).reshape(4, 2) - 3
    run_every_way(accumulate(ufunc, index), a, b)


def test_traced_indices_and_masks_accumulate():
    def f(a, i, j, m, w):
        a = a.copy()
        np.add.at(a, (i, j), w)
        np.multiply.at(a, m, 2.0)
        return a
    rng = np.random.default_rng(0)
    a = rng.uniform(size=(3, 4))
    run_every_way(f, a, np.array([0, 0, 2, 0]), np.array([[1], [1]]), a > 0.5,
                  rng.uniform(size=(2, 4)))


def test_unary_at_matches_numpy():
    def f(a, i):
        a = a.copy()
        np.negative.at(a, i)
        np.sqrt.at(a, [1, 1])
        np.isnan.at(a, slice(3, None))   # True and False cast back into floats
        return a
    run_every_way(f, np.array([4.0, 16.0, 2.0, np.nan, 5.0]), np.array([0, 0, 2]))


@pytest.mark.parametrize("dtype, b", [
    (np.int64, 1.5),                  # NumPy adds 1.5 then truncates, each time
    (np.int64, np.float64(0.75)),
    (np.int8, 300),                   # wraps, as NumPy's unsafe cast
    (np.float32, np.float64(1e-8)),
    (np.uint8, -1),
    (np.bool_, True),
])
def test_results_are_cast_into_as_dtype_as_numpy_casts(dtype, b):
    run_every_way(accumulate(np.add, [0, 0, 1]), np.zeros(3, dtype), b)


def hist(idx, w):
    out = np.zeros(5)
    np.add.at(out, idx, w)       # a local NumPy array: rebound to the traced result
    return out


def hist_loop(idx, w, n):
    out = np.zeros(5)
    for _ in range(n):           # staged: out is carried
        np.add.at(out, idx, w)
    return out


def counts_if(idx, flag):
    counts = np.zeros(4, np.int64)
    if flag > 0:
        np.add.at(counts, idx, 1)
    else:
        np.subtract.at(counts, idx, 1)
    return counts


def in_place_argument(a, idx):
    b = a                        # another name of a sees the write
    np.maximum.at(a, idx, 7.0)
    return b


def through_a_view(a, idx):
    v = a[1:]
    np.add.at(v, idx, 1.0)
    return a


def loop_on_traced(a, n):
    for _ in range(n):
        np.add.at(a, [0, 0], 1.0)
    return a


@pytest.mark.parametrize("fn, args", [
    (hist, (np.array([0, 1, 1, 4]), np.array([1.0, 2.0, 3.0, 4.0]))),
    (hist_loop, (np.array([0, 1, 1]), np.array([1.0, 2.0, 3.0]), np.int64(3))),
    (counts_if, (np.array([3, 3, 0]), np.float64(1.0))),
    (counts_if, (np.array([3, 3, 0]), np.float64(-1.0))),
    (in_place_argument, (np.zeros(4), np.array([2, 2, 3]))),
    (through_a_view, (np.zeros(4), np.array([0, 0, 2]))),
    (loop_on_traced, (np.zeros(3), np.int64(4))),
])
def test_in_place_writes_of_traced_and_local_arrays(fn, args):
    assert_as_eager(fn, *args)


def test_a_written_argument_reaches_the_caller():
    a = np.zeros(4)
    ag.convert(in_place_argument)(a, np.array([1, 1]))
    np.testing.assert_array_equal(a, [0, 7, 0, 0])


@st.composite
def at_calls(draw):
    """`(ufunc, a, index, b)`: shapes, index kinds (ints, slices, integer arrays with
    repeats and negatives, masks, tuples of them), b broadcast, dtypes."""
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.int64, np.int16]))
    a = np.arange(np.prod(shape)).reshape(shape).astype(dtype) - 2
    axis_index = st.one_of(
        st.integers(-shape[0], shape[0] - 1),
        st.builds(slice, st.none() | st.integers(-3, 3), st.none() | st.integers(-3, 3),
                  st.sampled_from([None, 1, 2, -1])),
        st.lists(st.integers(-shape[0], shape[0] - 1), min_size=0, max_size=6).map(
            lambda v: np.array(v, np.int64)))
    kind = draw(st.sampled_from(["one", "tuple", "mask"]))
    if kind == "mask":
        index = draw(st.lists(st.booleans(), min_size=shape[0], max_size=shape[0]).map(
            np.array))
    elif kind == "tuple" and len(shape) > 1:
        second = draw(st.one_of(st.integers(0, shape[1] - 1), st.just(slice(None)),
                                st.lists(st.integers(0, shape[1] - 1), min_size=1,
                                         max_size=3).map(np.array)))
        index = (draw(axis_index), second)
    else:
        index = draw(axis_index)
    selected = np.empty(shape)[index].shape
    b_shape = selected[draw(st.integers(0, len(selected))):]
    b_shape = tuple(1 if draw(st.booleans()) else d for d in b_shape)
    b_dtype = draw(st.sampled_from([np.float64, np.int64, dtype]))
    b = (np.arange(int(np.prod(b_shape))) % 5 + 1).reshape(b_shape).astype(b_dtype)
    ufunc = draw(st.sampled_from([np.add, np.subtract, np.maximum, np.minimum]))
    return ufunc, a, index, b


@settings(max_examples=60, deadline=None)
@given(at_calls())
def test_generated_at_calls_match_numpy(call):
    ufunc, a, index, b = call
    run_every_way(accumulate(ufunc, index), a, b)


@pytest.mark.parametrize("index, b_shape", [
    ([0, 0, 3], ()), ([0, 0, 3], (3, 1)), ([0, 0, 3], (2,)), (np.array([[1, 1], [2, 1]]), (1, 2)),
    ((slice(None), [1, 1]), (4, 1)), (np.array([True, False, True, True]), (3, 2))])
@pytest.mark.parametrize("ufunc", [np.add, np.subtract])
def test_gradients_of_add_and_subtract_at(ufunc, index, b_shape):
    rng = np.random.default_rng(1)
    check_grad(accumulate(ufunc, index), rng.uniform(size=(4, 2)), rng.uniform(size=b_shape))


def test_gradient_with_traced_indices_and_a_local_array():
    def f(w, idx):
        out = np.zeros(4)
        np.add.at(out, idx, w * w)
        return out
    check_grad(f, np.array([1.0, 2.0, 3.0]), np.array([1, 1, 3]), argnums=(0,),
               autograph=True)


def test_other_ufuncs_at_have_no_gradient_a_clear_error():
    with pytest.raises(ag.TracingError, match=r"no gradient for np\.multiply\.at") as caught:
        ag.grad(lambda a: np.sum(accumulate(np.multiply, [0, 0])(a, 2.0)))(np.ones(3))
    assert any("test_ufunc_at.py" in note for note in caught.value.__notes__)
    ints = ag.grad(lambda a: np.sum(accumulate(np.maximum, [0, 0])(np.ones(3, int), 2) * a))
    np.testing.assert_array_equal(ints(np.ones(3)), [2.0, 1.0, 1.0])   # no float path


@pytest.mark.parametrize("fn, error", [
    (lambda a, i: accumulate(np.add, i)(a, 1.0), IndexError),       # out of bounds
])
def test_an_index_out_of_bounds_is_numpys_index_error_when_the_graph_runs(fn, error):
    f = ag.convert(fn)
    f.get_concrete_function(np.zeros(3), np.array([0, 1]))      # traces
    with pytest.raises(error, match="out of bounds"):
        f(np.zeros(3), np.array([0, 3]))


def _extra_b(a):
    np.negative.at(a, [0], 1.0)


@pytest.mark.parametrize("fn, error, match", [
    (lambda a: np.add.at(a, [0]), ValueError, "second operand needed"),
    (_extra_b, ValueError, "second operand provided"),
    (lambda a: np.divmod.at(a, [0], 1.0), ValueError, "single output"),
    (lambda a: np.matmul.at(a, [0], 1.0), TypeError, "signature"),
    (lambda a: np.add.at(a, [0, 1], np.ones(3)), ValueError, "not broadcastable"),
    (lambda a: np.add.at(a, [0, 1], np.ones((1, 2))), ValueError, "not broadcastable"),
    (lambda a: np.bitwise_and.at(a, [0], 1), TypeError, "bitwise_and"),
    (lambda a: np.add.at(a, [0.5], 1), IndexError, "integer"),
    (lambda a: np.add.at(a, (0, 0), 1), IndexError, "too many indices"),
])
def test_bad_calls_raise_numpys_error(fn, error, match):
    with pytest.raises(error, match=match):
        fn(np.zeros(3))
    with pytest.raises(error, match=match):
        ag.convert(fn)(np.zeros(3))


def test_a_read_only_local_array_is_numpys_read_only_error():
    def f(w):
        out = np.zeros(3)
        out.flags.writeable = False
        np.add.at(out, [0], w)    # NumPy 2.4's own `at` writes it anyway
        return out
    with pytest.raises(ValueError, match="read-only"):
        ag.convert(f)(np.float64(1.0))


G = np.zeros(3)


def test_a_numpy_array_no_local_name_holds_is_a_tracing_error_naming_the_line():
    def f(w):
        np.add.at(G, [0], w)
        return G
    with pytest.raises(ag.TracingError, match=r"numpy\.add\.at writes a NumPy array.*"
                                              r"test_ufunc_at\.py"):
        ag.convert(f)(np.float64(1.0))


def test_the_graph_holds_one_index_accumulate_and_runs_on_the_numpy_tier():
    f = ag.convert(accumulate(np.add, [0, 0]), tier="native")
    concrete = f.get_concrete_function(np.zeros(3), 1.0)
    assert "index_accumulate[ufunc='add', index=(Dyn(k=0),)]" in str(concrete.graph)
    assert concrete.tier == "numpy"
    assert concrete.tier_reason == native.unsupported_reason(concrete.optimized_graph)
    assert "index_accumulate" in concrete.tier_reason
    np.testing.assert_array_equal(concrete(np.zeros(3), 1.0), [2.0, 0.0, 0.0])


def test_onnx_export_lowers_add_subtract_multiply_maximum_minimum(tmp_path):
    from onnx_check import assert_matches, export_and_run

    def f(a, idx, w):
        a = a.copy()
        np.add.at(a, idx, w)
        np.subtract.at(a, idx, w[::-1])
        np.maximum.at(a, (idx,), 2.5)
        np.multiply.at(a, idx[:2], 3.0)
        np.minimum.at(a, slice(None, None, 2), 1.0)
        return a
    args = (np.arange(5.0), np.array([0, 1, 1, 4]), np.array([1.0, 2.0, 3.0, 4.0]))
    outputs, concrete = export_and_run(ag.convert(f), args, tmp_path / "at.onnx")
    assert_matches(f(*copied(args)), outputs[0], concrete)


def _negated(a):
    a = a.copy()
    np.negative.at(a, [0])
    return a


@pytest.mark.parametrize("fn, args, match", [
    (_negated, (np.zeros(3),), r"np\.negative\.at"),
    (accumulate(np.add, [0]), (np.zeros(3, int), 1.5), "float64 values into an array of int64"),
])
def test_onnx_export_refuses_other_ufuncs_and_casts(fn, args, match, tmp_path):
    pytest.importorskip("onnx")
    with pytest.raises(ag.ExportError, match=match):
        ag.convert(fn).get_concrete_function(*args).export_onnx(tmp_path / "at.onnx")
