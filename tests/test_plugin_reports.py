"""The reports of `assert_graph_equivalent` and the leaf comparisons behind them."""
import numpy as np
import pytest

import autograph as ag
from autograph.testing import (
    NotEquivalent,
    assert_graph_equivalent,
    check_graph_equivalence,
    fuzz_graph_equivalence,
)
from autograph.testing.backends import to_host
from autograph.testing.compare import differences
from autograph_runtime.backend import gpu_available


def report_of(fn, *args, **kwargs) -> str:
    with pytest.raises(NotEquivalent) as failure:
        assert_graph_equivalent(fn, *args, **kwargs)
    return str(failure.value)


def lines_of(expected, got, **tolerances) -> list[str]:
    text = "\n".join(line for d in differences(expected, got, **tolerances) for line in d.lines())
    return text.splitlines()


# -- leaf by leaf -------------------------------------------------------------------------------

def test_a_structure_difference_names_both_structures():
    assert lines_of((1, {"a": 2}), [1, {"a": 2}])[0] == \
        "out: structure differs: eager returns (*, {'a': *}), the graph returns [*, {'a': *}]"


def test_dtype_and_shape_differences_name_the_leaf_path():
    lines = lines_of((np.zeros(2), {"loss": np.float32(1)}),
                     (np.zeros(3), {"loss": np.array(1.0)}))
    assert lines == [
        "out[0]: shape differs: eager (2,), graph (3,)",
        "  eager: [0. 0.]  (float64[2])",
        "  graph: [0. 0. 0.]  (float64[3])",
        "out[1]['loss']: dtype differs: eager float32, graph float64",
        "  eager: 1.  (float32[])",
        "  graph: 1.  (float64[])",
    ]


def test_value_differences_give_the_largest_errors_and_where():
    eager = np.arange(6.0).reshape(2, 3)
    graph = eager * [1, 1.01, 1]
    assert lines_of(eager, graph) == [
        "out: values differ in 2 of 6 element(s) (rtol=1e-06, atol=0)",
        "  eager: [[0. 1. 2.]",
        "          [3. 4. 5.]]  (float64[2,3])",
        "  graph: [[0.   1.01 2.  ]",
        "          [3.   4.04 5.  ]]  (float64[2,3])",
        "  largest absolute error 0.04 at [1, 1], largest relative error 0.01 at [0, 1]",
    ]
    assert lines_of(eager, graph, rtol=0.02) == []
    assert lines_of(eager, graph, rtol=0, atol=0.05) == []


def test_nan_and_inf_differences_are_counted_apart():
    lines = lines_of(np.array([1.0, np.nan, 3.0]), np.array([1.0, 2.0, np.inf]))
    assert lines[-1] == ("  2 element(s) differ in nan or inf, the first at [1]: eager nan, "
                         "graph 2.0")
    assert lines_of(np.array([np.nan]), np.array([np.nan])) == []


def test_python_numbers_match_arrays_of_their_kind_and_python_values_match_exactly():
    assert lines_of((3, 2.5, True), (np.array(3, np.int32), np.array(2.5, np.float32),
                                     np.array(True))) == []
    assert lines_of(3, np.array(3.5))[0] == "out: dtype differs: eager a Python int, graph float64"
    # a wider kind holding exactly the value: a Python number joined with a float path
    assert lines_of((3, True, 0.5), (np.array(3.0), np.array(1, np.int8), np.array(0.5 + 0j))) == []
    assert lines_of(2**60 + 1, np.array(float(2**60)))[0] == \
        "out: dtype differs: eager a Python int, graph float64"
    assert lines_of(("a", None), ("b", None))[:3] == [
        "out[0]: the graph returns another value (one fixed while tracing)", "  eager: 'a'", "  graph: 'b'"]
    assert lines_of(np.int64(1), 1)[0] == "out: type differs: eager int64[], graph int"


def test_integers_and_booleans_compare_exactly():
    assert lines_of(np.array([1, 2]), np.array([1, 3]))[0] == \
        "out: values differ in 1 of 2 element(s)"
    assert lines_of(np.array([True]), np.array([False]))[-1] == \
        "  largest absolute error 1 at [0], largest relative error 1 at [0]"


# -- whole checks -------------------------------------------------------------------------------

def test_a_graph_function_is_checked_against_its_python_function():
    f = ag.convert(lambda x: np.cumsum(x) * 2)
    assert_graph_equivalent(f, np.arange(4.0))
    assert f.trace_count == 0  # checks trace a fresh graph function of their own


def test_a_constant_of_the_graph_is_named():
    calls = [0]

    def constant(x):
        calls[0] += 1
        return x, np.full(2, float(calls[0]))
    report = report_of(constant, np.ones(2))
    assert "out[1]: values differ in 2 of 2 element(s)" in report
    assert "out[1] is a constant of the graph: computed while tracing, not from the inputs." \
        in report


def test_different_exception_types_are_a_difference():
    def to_index(x):
        return "abc"[x] + x
    report = report_of(to_index, np.arange(3))
    assert "  eager raised TypeError: only integer" in report
    assert "  the graph raised TracingError: " in report
    assert "->" in report  # the converted line that raised


def test_without_arrays_to_vary_the_first_inputs_are_called_again():
    import sys

    def greet(name):
        sys.stdout.write(f"hello {name}\n")
        return len(name)
    report = report_of(greet, "ada")
    assert report.startswith("greet is not equivalent to its graph on cpu, for the first "
                             "inputs, called again:")
    assert "  first inputs, called again: name='ada'" in report


def test_second_args_false_calls_with_the_first_inputs_again():
    calls = [0]

    def later_doubled(x):
        calls[0] += 1
        return x * (1.0 if calls[0] <= 2 else 2.0)
    assert "for the first inputs, called again:" in report_of(later_doubled, np.ones(2),
                                                              second_args=False)


def test_keyword_arguments_reach_the_function_and_the_second_call():
    def scaled(x, *, scale):
        return x * scale
    assert_graph_equivalent(scaled, np.ones(2), scale=np.float64(3))
    check_graph_equivalence(scaled, (np.ones(2),), {"scale": 3.0}, second_kwargs={"scale": 3.0})
    report = report_of(scaled, np.ones(2), scale=2.0, second_kwargs={"scale": 3.0})
    assert "Python argument 'scale' changed value from 2.0 to 3.0" in report


@pytest.mark.skipif(not gpu_available(), reason="CuPy cannot see a GPU on this machine")
def test_checks_run_on_the_gpu():
    assert_graph_equivalent(lambda x: np.tanh(x).sum(axis=0), np.ones((3, 2), np.float32),
                            backends=["gpu"])


# -- fuzzing and backends -----------------------------------------------------------------------

def test_fuzzing_takes_structures_of_specs_and_fixed_keyword_arguments():
    def weighted(pair, *, scale):
        return (pair[0] * pair[1]).sum() * scale
    fuzz_graph_equivalence(weighted, [(ag.TensorSpec((None,), np.float64),
                                       ag.TensorSpec((None,), np.float64))],
                           kwargs={"scale": 2.0}, examples=5)


def test_fuzzing_wants_tensor_specs():
    with pytest.raises(TypeError, match="specs must be TensorSpecs"):
        fuzz_graph_equivalence(lambda x, n: x * n, [ag.TensorSpec((2,), np.float64), 3])
    with pytest.raises(ValueError, match="examples must be a positive int"):
        fuzz_graph_equivalence(lambda x: x, [ag.TensorSpec((2,), np.float64)], examples=0)


def test_results_on_a_device_are_copied_back_to_the_host():
    class DeviceArray:  # what matters of a CuPy array here
        __cuda_array_interface__ = {}

        def get(self):
            return np.ones(2)
    leaves = to_host({"a": DeviceArray(), "b": 3})
    np.testing.assert_array_equal(leaves["a"], np.ones(2))
    assert leaves["b"] == 3
