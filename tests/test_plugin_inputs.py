"""The inputs of graph-equivalence checks: copies, second inputs, Hypothesis strategies, backends."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph.testing import arrays, default_elements
from autograph.testing.backends import parse_backends, select, selected_backends
from autograph.testing.equivalence import calls_for
from autograph.testing.inputs import copied, other_values, second_inputs


@pytest.mark.parametrize("value, expected", [
    (np.array([0.0, 2.0, -4.0, 0.5]), np.array([0.125, 1.5, -3.0, 0.375])),
    (np.array([0, 1, 2, 5, -3]), np.array([1, 2, 1, 4, -2])),
    (np.array([0, 1, 200], np.uint8), np.array([1, 2, 199], np.uint8)),
    (np.array([True, False]), np.array([False, True])),
    (np.array([1 + 2j]), np.array([0.75 + 1.5j])),
    (np.array(["a"]), np.array(["a"])),
])
def test_other_values_keep_dtype_and_shape(value, expected):
    changed = other_values(value)
    assert changed.dtype == value.dtype and changed.shape == value.shape
    np.testing.assert_array_equal(changed, expected)


def test_other_values_of_numpy_scalars_are_numpy_scalars():
    assert other_values(np.float32(2.0)) == np.float32(1.5)
    assert type(other_values(np.float32(2.0))) is np.float32
    assert type(other_values(np.int64(7))) is np.int64


def test_second_inputs_change_arrays_only():
    args, kwargs = second_inputs(([np.ones(2), 3], "tag"), {"flag": np.bool_(True), "n": 4})
    np.testing.assert_array_equal(args[0][0], np.full(2, 0.75))
    assert args[0][1] == 3 and args[1] == "tag"
    assert kwargs == {"flag": np.False_, "n": 4}


def test_copies_are_fresh_arrays_and_the_same_python_objects():
    x, marker = np.ones(2), object()
    (x2, y2), kwargs = copied((x, marker), {"z": [x]})
    assert x2 is not x and kwargs["z"][0] is not x and y2 is marker
    np.testing.assert_array_equal(x2, x)


def test_the_second_call_of_a_check():
    labels = [c.label for c in calls_for((np.ones(2),), {})]
    assert labels == ["first inputs", "second inputs (derived from the first)"]
    assert calls_for((3,), {})[1].label == "first inputs, called again"
    assert calls_for((np.ones(2),), {}, second_args=False)[1].label == "first inputs, called again"
    given_call = calls_for((np.ones(2),), {"k": 1}, second_args=[np.zeros(2)])[1]
    assert given_call.label == "second inputs" and given_call.kwargs == {"k": 1}


@settings(max_examples=30, deadline=None)
@given(arrays(ag.TensorSpec((None, 3, None), np.float32), max_side=3))
def test_arrays_match_their_spec(x):
    assert x.dtype == np.float32 and x.shape[1] == 3
    assert 1 <= x.shape[0] <= 3 and 1 <= x.shape[2] <= 3
    assert np.all(np.abs(x) <= 10)


@settings(max_examples=20, deadline=None)
@given(arrays({"x": ag.TensorSpec((2,), np.int8), "n": 5, "m": [ag.TensorSpec((), bool)]}))
def test_arrays_of_a_structure_keep_it(value):
    assert set(value) == {"x", "n", "m"} and value["n"] == 5
    assert value["x"].dtype == np.int8 and value["m"][0].dtype == bool


@settings(max_examples=20, deadline=None)
@given(arrays(ag.TensorSpec((4,), np.float64), elements=st.floats(0, 1)))
def test_arrays_take_their_elements_strategy(x):
    assert np.all((0 <= x) & (x <= 1))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint8", "int64",
                                   "bool", "complex64"])
def test_default_elements_are_small_and_finite(dtype):
    @settings(max_examples=20, deadline=None)
    @given(default_elements(dtype))
    def check(value):
        assert np.isfinite(value) and abs(value) <= 10 * (1 + 1e-6)  # float32 rounding
        np.asarray(value).astype(dtype)
    check()


def test_backends_are_chosen_by_name():
    assert parse_backends(" CPU, cpu ") == ["cpu"]
    with pytest.raises(ValueError, match="unknown backend 'tpu'"):
        parse_backends("cpu,tpu")
    previous = select(["cpu"])
    try:
        assert selected_backends() == ["cpu"]
    finally:
        select(previous)
