"""The pytest plugin, run by pytest itself (`pytester`): marker, fixture, options and reports."""
import importlib.metadata
import importlib.util
import os
import textwrap

import pytest

from autograph_runtime import native
from autograph_runtime.backend import gpu_available

pytest_plugins = ["pytester"]

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRELUDE = "import sys\nimport numpy as np\nimport pytest\nimport autograph as ag\n"


def run(pytester, source: str, *options, subprocess: bool = False):
    """Runs pytest on one test module made of `source`, with --strict-markers."""
    pytester.makepyfile(test_user=PRELUDE + textwrap.dedent(source))
    runner = pytester.runpytest_subprocess if subprocess else pytester.runpytest
    return runner("-p", "no:cacheprovider", "--strict-markers", *options)


EQUIVALENT = """
    @pytest.mark.graph_equivalence(args=[np.arange(6.0).reshape(2, 3)])
    def normalize(x, eps=1e-6):
        centered = x - x.mean(axis=-1, keepdims=True)
        return centered / np.sqrt((centered ** 2).mean(axis=-1, keepdims=True) + eps)

    @pytest.mark.graph_equivalence(args=[np.int64(27)])
    @pytest.mark.graph_equivalence(args=[np.int64(1)])
    @ag.convert
    def collatz(n):
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    def test_fixture(graph_equivalence):
        graph_equivalence(lambda x, k: np.tanh(x) * k, np.linspace(-1, 1, 5), k=3)
"""


def test_the_marker_and_the_fixture_pass_equivalent_functions(pytester):
    result = run(pytester, EQUIVALENT, "-v")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["*test_user.py::normalize PASSED*",
                                 "*test_user.py::collatz?0? PASSED*",
                                 "*test_user.py::collatz?1? PASSED*"])


def test_a_trace_time_side_effect_fails_with_a_readable_report(pytester):
    result = run(pytester, """
        calls = [0]

        @pytest.mark.graph_equivalence(args=[np.arange(3.0)])
        def warmup(x):
            calls[0] += 1
            scale = min(calls[0], 2) / 2
            return {"y": x * scale, "n": np.int64(3)}
    """)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "warmup is not equivalent to its graph on cpu, for the first inputs:",
        "  out['y']: values differ in 2 of 3 element(s) (rtol=1e-06, atol=0)",
        "    eager: [0.  0.5 1. ]  (float64[3])",
        "    graph: [0. 1. 2.]  (float64[3])",
        "    largest absolute error 1 at [2], largest relative error 1 at [1]",
        "  first inputs: x=[0. 1. 2.] (float64[3])",
        "  converted code of warmup (test_user.py:8; ag.to_code prints it all), around line 12:",
        "        9 | def warmup(x):",
        "  ->   12 |     return {'y': x * scale, *",
    ])


def test_a_value_frozen_while_tracing_fails_on_the_second_inputs(pytester):
    result = run(pytester, """
        calls = [0]

        @pytest.mark.graph_equivalence(args=[np.arange(3.0)])
        def later_doubled(x):
            calls[0] += 1
            return x * (1.0 if calls[0] <= 2 else 2.0)
    """)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*for the second inputs (derived from the first):",
        "  out: values differ in 3 of 3 element(s)*",
        "  The earlier inputs matched and these have the same signature, so the graph kept*",
        "  second inputs (derived from the first): x=[0.125 0.75 1.5 ] (float64[3])",
        "  first inputs (matched): x=[0. 1. 2.] (float64[3])",
    ])


def test_a_print_difference_fails(pytester):
    result = run(pytester, """
        @pytest.mark.graph_equivalence(args=[np.arange(3.0)])
        def chatty(x):
            sys.stdout.write("called\\n")  # a Python side effect: while tracing only
            return x * 2

        @pytest.mark.graph_equivalence(args=[np.arange(3.0)])
        def prints_traced_values(x):
            print("total", x.sum())  # converted: prints at every call
            return x * 2
    """, "-v")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines([
        "*prints_traced_values PASSED*",
        "chatty is not equivalent to its graph on cpu, for the second inputs *",
        "  printed output differs:",
        "    eager printed 'called\\n'",
        "    graph printed ''",
        "  Output printed only while tracing:*",
    ])


def test_a_retrace_is_reported(pytester):
    result = run(pytester, """
        @pytest.mark.graph_equivalence(args=[np.ones(3), 1], second_args=[np.ones(3), 2])
        def power(x, n):
            return x ** n

        def test_shapes(graph_equivalence):
            graph_equivalence(power, np.ones(3), 2, second_args=(np.ones(4), 2))
    """)
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*the graph function traced again (2 traces) for the second inputs: Python argument "
        "'n' changed value from 1 to 2",
        "*Each new cache key traces anew*",
        "*NotEquivalent: power is not equivalent to its graph on cpu, for the second inputs:",
        "*argument 'x' changed from float64[[]3[]] to float64[[]4[]]",
    ])


def test_exceptions_match_by_type(pytester):
    result = run(pytester, """
        @pytest.mark.graph_equivalence(args=[np.arange(3.0), np.int64(5)])
        def out_of_range(x, i):
            return x[i]  # IndexError both ways

        CALLS = []

        @pytest.mark.graph_equivalence(args=[np.arange(3.0)])
        def eager_only_error(x):
            CALLS.append(1)
            if len(CALLS) == 1:  # the first call only: eager's, not the graph's trace
                raise ValueError("an array")
            return x

        @pytest.mark.graph_equivalence(args=[np.arange(3.0)])
        def needs_a_python_float(x):
            import math
            total = math.fsum([x.sum()])  # a float, which math.fsum asks of a traced value
            return x / total
    """, "-v")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "*out_of_range PASSED*",
        "eager_only_error is not equivalent to its graph on cpu, for the first inputs:",
        "  eager raised ValueError: an array",
        "  the graph returned [[]0. 1. 2.]  (float64[[]3])",
    ])
    result.stdout.fnmatch_lines([
        "needs_a_python_float is not equivalent to its graph on cpu, for the first inputs:",
        "  the graph raised TracingError: *Python float (at *test_user.py:22 in "
        "needs_a_python_float)",    # the line is said once, not again in a note
        "  eager returned [[]0. *0.33333333 0.66666667]  (float64[[]3])",
        "*->   *|     total = *fsum*",
    ])


def test_the_fuzz_marker_draws_many_inputs_through_one_trace(pytester):
    result = run(pytester, """
        @pytest.mark.graph_equivalence(specs=[ag.TensorSpec((None, 3), np.float32)],
                                       examples=15)
        def relu_sum(x):
            return np.maximum(x, 0).sum(axis=1)

        calls = [0]

        @pytest.mark.graph_equivalence(specs=[ag.TensorSpec((2,), np.float64)], examples=15)
        def counts_calls(x):
            calls[0] += 1
            return x * min(calls[0], 3)
    """, "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*relu_sum PASSED*",
        "counts_calls is not equivalent to its graph on cpu, for the generated inputs:",
        "  out: values differ in *",
    ])


MALFORMED = {  # marker arguments -> the collection error they give
    "(np.ones(3))": "pass the function's arguments as args=[...], not positionally",
    "(args=[np.ones(3)], tol=1)": "unknown option 'tol'; the options are args, kwargs, *",
    "()": "give the inputs, as args=[...] (one call) or as specs=*",
    "(args=[1], specs=[ag.TensorSpec((), 'f8')])": "give the inputs, as args=*",
    "(args=[np.ones(3)], examples=5)": "examples goes with specs, not with args",
    "(args=np.ones(3))": "args must be a list or tuple, got array(*",
}


def test_a_malformed_marker_is_a_collection_error(pytester):
    modules = {f"test_malformed{i}": PRELUDE + textwrap.dedent(f"""
        @pytest.mark.graph_equivalence{marker}
        def double(x):
            return x * 2
    """) for i, marker in enumerate(MALFORMED)}
    pytester.makepyfile(**modules)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=len(MALFORMED))
    for message in MALFORMED.values():
        pattern = message.replace("[", "[[]")  # fnmatch reads [...] as a character class
        result.stdout.fnmatch_lines([f"@pytest.mark.graph_equivalence on double: {pattern}"])


def test_the_marker_inside_a_class_is_a_collection_error(pytester):
    result = run(pytester, """
        class TestMath:
            @pytest.mark.graph_equivalence(args=[np.ones(3)])
            def test_double(self, x):
                return x * 2
    """)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*functions at the top level of a test module*"])


def test_other_marks_apply_to_marked_functions(pytester):
    result = run(pytester, """
        @pytest.mark.skip(reason="not today")
        @pytest.mark.graph_equivalence(args=[np.ones(3)])
        def skipped(x):
            return x * 2

        @pytest.mark.xfail(strict=True, raises=AssertionError)
        @pytest.mark.graph_equivalence(args=[np.ones(3)])
        def test_prints_only_while_tracing(x):
            sys.stdout.write("tracing\\n")
            return x
    """, "-m", "graph_equivalence", "-rs")
    result.assert_outcomes(skipped=1, xfailed=1)
    result.stdout.fnmatch_lines(["*not today*"])


def test_ag_backend_chooses_the_backends(pytester):
    result = run(pytester, EQUIVALENT, "--ag-backend=cpu")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["autograph backends: cpu*"])


@pytest.mark.skipif(not native.available(), reason="Numba is not installed (the native tier)")
def test_checks_run_on_the_native_tier(pytester):
    result = run(pytester, EQUIVALENT, "--ag-backend=cpu,native", "-v")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["autograph backends: cpu, native* (checking on cpu, native: "
                                 "--ag-backend)"])


@pytest.mark.skipif(importlib.util.find_spec("dask") is None,
                    reason="Dask is not installed (pip install '.[dask]')")
def test_checks_run_on_dask(pytester, monkeypatch):
    # in a process of its own: an in-process run unloads what Dask imports, our plugin too
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        filter(None, [REPO, os.environ.get("PYTHONPATH")])))
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    result = run(pytester, EQUIVALENT, "--ag-backend=dask", "-v", subprocess=True)
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["autograph backends: cpu*dask (checking on dask: "
                                 "--ag-backend)"])


@pytest.mark.parametrize("value, message", [
    ("tpu", "unknown backend 'tpu': choose from cpu, native, gpu, dask"),
    (",", "no backend named: write cpu, native, gpu, dask or a list (cpu,native)"),
])
def test_ag_backend_rejects_unknown_names(pytester, value, message):
    result = run(pytester, EQUIVALENT, f"--ag-backend={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: --ag-backend={value}: {message}"])


@pytest.mark.skipif(gpu_available(), reason="this machine has a GPU")
def test_asking_for_a_gpu_without_one_is_a_usage_error(pytester):
    result = run(pytester, EQUIVALENT, "--ag-backend=cpu,gpu")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --ag-backend=cpu,gpu: gpu was asked for, but CuPy "
                                 "cannot see a GPU on this machine (backends found: cpu*)"])


@pytest.mark.skipif(not gpu_available(), reason="CuPy cannot see a GPU on this machine")
def test_checks_run_on_the_gpu(pytester):
    result = run(pytester, EQUIVALENT, "--ag-backend=gpu")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["autograph backends: cpu, gpu (checking on gpu: --ag-backend)"])


def _installed() -> bool:
    return any(ep.value == "autograph.pytest_plugin"
               for ep in importlib.metadata.entry_points(group="pytest11"))


@pytest.mark.skipif(not _installed(), reason="the package is not installed (pip install -e .)")
def test_a_fresh_pytest_process_loads_the_plugin_from_its_entry_point(pytester, monkeypatch):
    # Only the entry point can load the plugin here: no conftest, no -p. PYTHONPATH makes the
    # package importable wherever its installed copy points.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        filter(None, [REPO, os.environ.get("PYTHONPATH")])))
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    result = run(pytester, EQUIVALENT, "-v", subprocess=True)
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["autograph backends: cpu*", "*normalize PASSED*",
                                 "*test_fixture PASSED*"])


def test_the_plugin_loads_without_hypothesis(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", REPO)
    result = pytester.run(
        pytester._getpytestargs()[0], "-c",
        "import sys; sys.modules['hypothesis'] = None\n"
        "import autograph.pytest_plugin, autograph.testing as t, numpy as np\n"
        "t.assert_graph_equivalent(lambda x: x * 2, np.ones(3))\n"
        "print('hypothesis' in sys.modules and sys.modules['hypothesis'] is None)")
    assert result.ret == 0, result.stderr.str()
    result.stdout.fnmatch_lines(["True"])
