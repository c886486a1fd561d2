"""What retraces and what does not: the cache of `ag.convert` graph functions.

Every call is checked against the eager oracle (`f.python_function`), and
`f.trace_count` tells how many graphs were traced.
"""
import gc
import linecache
import logging
import warnings
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph import conversion
from autograph.cache_keys import ArrayKey, PyKey
from autograph.trace_cache import MAX_ENTRIES
from autograph_runtime import gpu_available


def check(f, *args, **kwargs):
    """Calls `f` as a graph and eagerly; asserts equal results; returns the graph's."""
    got = f(*args, **kwargs)
    want = f.python_function(*args, **kwargs)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert np.result_type(got) == np.result_type(want)
    return got


def affine(x, y):
    return np.tanh(x) * y + 1


# -- arrays: dtype and shape are the key ---------------------------------------------

def test_same_dtype_and_shape_traces_once():
    f = ag.convert(affine)
    rng = np.random.default_rng(0)
    for _ in range(5):
        x, y = rng.standard_normal((2, 4)).astype(np.float32)
        check(f, x, y)
    assert f.trace_count == 1


def test_new_shape_retraces():
    f = ag.convert(affine)
    check(f, np.ones(3), np.ones(3))
    check(f, np.ones(4), np.ones(4))
    check(f, np.ones((2, 3)), np.ones(3))
    assert f.trace_count == 3
    check(f, np.full(3, 2.0), np.full(3, 3.0))
    assert f.trace_count == 3


def test_new_dtype_retraces():
    f = ag.convert(affine)
    check(f, np.ones(3, np.float32), np.ones(3, np.float32))
    check(f, np.ones(3, np.float64), np.ones(3, np.float32))
    check(f, np.ones(3, np.int32), np.ones(3, np.float32))
    assert f.trace_count == 3


def test_numpy_scalars_are_graph_inputs():
    f = ag.convert(affine)
    check(f, np.float32(1), np.float32(2))
    check(f, np.float32(2), np.float32(-3))
    assert f.trace_count == 1
    check(f, np.float64(2), np.float32(-3))
    assert f.trace_count == 2


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["float32", "float64", "int32"]),
                          st.lists(st.integers(0, 3), max_size=2).map(tuple),
                          st.integers(-2, 2)),
                min_size=1, max_size=8))
def test_one_trace_per_distinct_signature(calls):
    f = ag.convert(scaled)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.RetracingWarning)
        for dtype, shape, n in calls:
            x = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
            check(f, x, n)
    assert f.trace_count == len({(dtype, shape, n) for dtype, shape, n in calls})


# -- Python values: their value is the key ---------------------------------------------

def scaled(x, n):
    return x * n


def test_python_scalars_are_part_of_the_key():
    f = ag.convert(scaled)
    x = np.arange(3, dtype=np.float32)
    check(f, x, 1)
    check(f, x, 1)
    assert f.trace_count == 1
    check(f, x, 2)
    assert f.trace_count == 2


def test_one_one_point_oh_and_true_are_different_keys():
    f = ag.convert(scaled)
    x = np.arange(3, dtype=np.float32)
    outs = [check(f, x, n) for n in (1, 1.0, True)]
    assert f.trace_count == 3
    assert [o.dtype for o in outs] == [np.float32, np.float32, np.float32]


def test_strings_and_none_are_part_of_the_key():
    def pick(x, mode):
        return x * 2 if mode == "double" else (x if mode is None else -x)
    f = ag.convert(pick)
    x = np.arange(3.0)
    for mode in ("double", None, "negate", "double", None):
        check(f, x, mode)
    assert f.trace_count == 3


def test_negative_zero_is_not_confused_with_zero():
    f = ag.convert(scaled)
    x = np.ones(2)
    check(f, x, 0.0)
    assert np.signbit(scaled(x, -0.0)).all()
    assert np.signbit(f(x, -0.0)).all()


# -- binding: positional, keyword, defaults, structure ---------------------------------

def with_default(x, n=2, *, scale=1.0):
    return x * n * scale


def test_positional_keyword_and_default_binding_share_a_trace():
    f = ag.convert(with_default)
    x = np.arange(4.0)
    check(f, x)
    check(f, x, 2)
    check(f, x, n=2)
    check(f, x=x)
    check(f, x, 2, scale=1.0)
    assert f.trace_count == 1
    check(f, x, scale=3.0)
    assert f.trace_count == 2


def test_new_structure_retraces():
    f = ag.convert(lambda xs: sum(x * 2 for x in xs))
    a = np.ones(3)
    for xs in ([a, a], [a, a], (a, a), [a, a, a], [a]):
        np.testing.assert_array_equal(f(xs), f.python_function(xs))
    assert f.trace_count == 4


@pytest.mark.parametrize("wrap", [lambda a: [a], lambda a: (a,), lambda a: {"k": a}])
def test_one_array_in_a_container_and_a_bare_array_are_different_keys(wrap):
    def unwrap(xs):
        if isinstance(xs, dict):
            return -xs["k"]
        return -xs[0] if isinstance(xs, (list, tuple)) else xs * 2
    f = ag.convert(unwrap)
    x = np.arange(3.0)
    check(f, wrap(x))
    check(f, x)
    assert f.trace_count == 2


# -- devices ------------------------------------------------------------------------------

def test_explicit_cpu_device_shares_the_default_cache():
    f = ag.convert(affine)
    x = np.ones(3)
    check(f, x, x)
    with ag.device("cpu"):
        check(f, x, x)
    assert f.trace_count == 1


@pytest.mark.skipif(gpu_available(), reason="this machine has a GPU")
def test_asking_for_a_missing_gpu_fails_at_once():
    with pytest.raises(RuntimeError, match="GPU"):
        with ag.device("gpu"):
            pass


@pytest.mark.skipif(not gpu_available(), reason="needs CuPy and a GPU")
def test_new_device_retraces():
    f = ag.convert(affine)
    x = np.linspace(-1, 1, 5)
    check(f, x, x)
    with ag.device("gpu"):
        out = f(x, x)
    np.testing.assert_allclose(out.get(), affine(x, x))
    assert f.trace_count == 2


# -- reduce_retracing ------------------------------------------------------------------

def test_reduce_retracing_reuses_one_relaxed_graph():
    f = ag.convert(lambda x: np.cumsum(x * 2, axis=-1), reduce_retracing=True)
    for n in (2, 3, 4, 5, 9):
        check(f, np.arange(n, dtype=np.float32))
    assert f.trace_count == 2
    graph = f.get_concrete_function(np.ones(11, np.float32)).graph
    assert f.trace_count == 2
    assert graph.inputs[0].aval.shape == (None,)
    assert "f32[?]" in str(graph)


def test_reduce_retracing_keeps_known_dims_and_retraces_on_dtype():
    f = ag.convert(lambda x: x.sum(axis=1), reduce_retracing=True)
    for n in (1, 2, 3):
        check(f, np.ones((n, 4), np.float32))
    assert f.trace_count == 2
    assert f.get_concrete_function(np.ones((7, 4), np.float32)).graph.inputs[0].aval.shape \
        == (None, 4)
    check(f, np.ones((2, 4), np.float64))
    assert f.trace_count == 3


# -- what ag.convert accepts ---------------------------------------------------------------

def test_python_function_is_the_original():
    f = ag.convert(affine)
    assert f.python_function is affine
    assert f.__name__ == "affine"
    assert ag.convert(f).python_function is affine


def test_decorator_with_arguments_and_lambdas():
    @ag.convert(reduce_retracing=False)
    def square(x):
        return x * x
    check(square, np.arange(3.0))
    lam = ag.convert(lambda a, b: a @ b)
    check(lam, np.ones((2, 3)), np.ones((3, 4)))
    assert square.trace_count == lam.trace_count == 1


def test_nested_function_closing_over_a_python_value_traces_again_when_it_is_rebound():
    k = 2.0

    def outer():
        def inner(x):
            return x * k
        return ag.convert(inner)
    f = outer()
    x = np.arange(3.0)
    np.testing.assert_array_equal(f(x), x * 2.0)
    k = 5.0  # noqa: F841  (the cell the trace read now holds another value)
    with pytest.warns(ag.FrozenValueWarning, match="read the closure variable k"):
        np.testing.assert_array_equal(f(x), x * 5.0)
    assert f.trace_count == 2


def test_closure_over_array_is_captured_once_so_later_mutation_is_not_seen():
    offset = np.ones(3)
    f = ag.convert(lambda x: x + offset)
    x = np.zeros(3)
    np.testing.assert_array_equal(f(x), np.ones(3))
    offset[:] = 5.0
    np.testing.assert_array_equal(f(x), np.ones(3))  # like tf.function
    assert f.trace_count == 1


class Scaler:
    def __init__(self, scale):
        self.scale = scale

    @ag.convert
    def apply(self, x):
        return x * self.scale


def test_methods_are_bound_per_instance():
    a, b = Scaler(2.0), Scaler(3.0)
    x = np.arange(3.0)
    np.testing.assert_array_equal(a.apply(x), x * 2.0)
    np.testing.assert_array_equal(b.apply(x), x * 3.0)
    assert a.apply is a.apply
    assert a.apply is not b.apply
    assert a.apply.trace_count == b.apply.trace_count == 1
    a.apply(x)
    assert a.apply.trace_count == 1


def test_method_reads_instance_attributes_and_traces_again_when_one_is_rebound():
    a = Scaler(2.0)
    x = np.arange(3.0)
    np.testing.assert_array_equal(a.apply(x), x * 2.0)
    a.scale = 10.0  # the attribute the trace read now holds another value
    with pytest.warns(ag.FrozenValueWarning, match="read self.scale"):
        np.testing.assert_array_equal(a.apply(x), x * 10.0)
    np.testing.assert_array_equal(a.apply(np.arange(4.0)), np.arange(4.0) * 10.0)
    assert a.apply.trace_count == 3


def test_instances_with_converted_methods_can_be_garbage_collected():
    a = Scaler(2.0)
    a.apply(np.ones(2))
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is None


# -- typed keys; conversion before tracing ------------------------------------------------------

def test_cache_keys_are_typed():
    g = ag.convert(lambda x, k, model=None: x * k)
    g(np.ones(3, np.float32), 2)
    (key,) = g._traces.entries
    assert key.device == "cpu" and key.trees.names == ("x", "k", "model")
    assert key.leaves == (ArrayKey(np.dtype(np.float32), (3,)), PyKey(int, 2), PyKey(type(None), None))
    assert str(key.leaves[0]) == "float32[3]" and str(PyKey(float, repr(0.5))) == "0.5"


def test_the_function_is_converted_when_convert_is_applied(monkeypatch):
    def clipped_sum(x):
        total = 0.0
        for v in x:
            if v > 0:
                total += v
        return total

    g = ag.convert(clipped_sum)

    def no_conversion(*args, **kwargs):
        raise AssertionError("converted while tracing")
    monkeypatch.setattr(conversion, "transformed", no_conversion)
    x = np.array([1.0, -2.0, 3.0])
    assert g(x) == clipped_sum(x) and g.trace_count == 1


# -- reduce_retracing never breaks a call that works without it ----------------------------

def longer_than_one(x):
    if x.shape[0] > 1:
        return x * 2
    return x


def summed_by_index(x):
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i]
    return total


@pytest.mark.parametrize("fn", [longer_than_one, summed_by_index])
def test_reduce_retracing_falls_back_to_exact_shapes_where_python_reads_a_dim(fn, caplog):
    f = ag.convert(fn, reduce_retracing=True)
    with caplog.at_level(logging.INFO, logger="autograph"):
        for n in (1, 3, 4, 5, 4):
            check(f, np.arange(n, dtype=np.float32))
    assert f.trace_count == 4  # one exact trace per shape; the relaxed one failed
    fallbacks = [r.getMessage() for r in caplog.records if "abandoned" in r.getMessage()]
    assert len(fallbacks) == 1  # later shapes do not try the relaxed key again
    assert "x: float32[?]" in fallbacks[0] and "reads a dimension" in fallbacks[0]


def test_reduce_retracing_surfaces_the_error_of_the_exact_trace():
    def at_most_three(x):
        if x.shape[0] > 3:
            raise ValueError(f"at most 3 rows, got {x.shape[0]}")
        return x + 1
    f = ag.convert(at_most_three, reduce_retracing=True)
    check(f, np.ones(2))
    with pytest.raises(ValueError, match="at most 3 rows, got 4"):
        f(np.ones(4))
    check(f, np.ones(3))


def test_reduce_retracing_still_relaxes_where_python_reads_no_shape():
    f = ag.convert(lambda x: x.sum(axis=0) * 3.0 + x.ndim, reduce_retracing=True)
    for n in (1, 2, 3, 4):
        check(f, np.ones((n, 3), np.float32))
    assert f.trace_count == 2


def shape_dependent(x):
    if x.shape[0] == 1:          # False for every size of a relaxed (unknown) dimension
        return x * 2
    return x * 3


def test_reduce_retracing_never_answers_for_a_dimension_python_compared():
    """A relaxed graph is kept only where the Python code read no shape with a dimension
    it made unknown: `x.shape[0] == 1` in a graph for `f64[?]` would answer False for a
    length-1 input."""
    f = ag.convert(shape_dependent, reduce_retracing=True)
    for n in (2, 3, 1, 4, 1):
        check(f, np.ones(n))


def test_reduce_retracing_sees_shape_reads_in_graph_functions_it_calls():
    inner = ag.convert(shape_dependent)
    first = ag.convert(lambda x: inner(x), reduce_retracing=True)
    second = ag.convert(lambda x: inner(x) + 0.0, reduce_retracing=True)
    for n in (2, 5):             # traces inner for f64[?] inside a relaxed trace
        check(first, np.ones(n))
    for n in (2, 5, 1):          # reuses that graph of inner in a relaxed trace of its own
        check(second, np.ones(n))


# -- the cache is bounded ---------------------------------------------------------------------

def graph_sources(name):
    return sum(1 for filename in linecache.cache if filename.startswith(f"<graph {name} #"))


def distinct_python_ints(x, n):
    return x * n


def test_ten_thousand_python_values_keep_a_bounded_cache():
    f = ag.convert(distinct_python_ints)
    x = np.arange(3.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.RetracingWarning)
        for n in range(10_000):
            out = f(x, n)
            if n % 997 == 0:
                np.testing.assert_array_equal(out, x * n)
                assert len(f._traces.entries) <= MAX_ENTRIES
    assert f.trace_count == 10_000 and len(f._traces.entries) == MAX_ENTRIES
    np.testing.assert_array_equal(f(x, 9_999), x * 9_999)  # the newest are kept
    assert f.trace_count == 10_000
    np.testing.assert_array_equal(f(x, 0), x * 0)  # the oldest was dropped: traced anew
    assert f.trace_count == 10_001
    gc.collect()  # compiled graphs sit in reference cycles
    f(x, -1)      # a compile drops the sources of dead graphs from linecache
    assert graph_sources("distinct_python_ints") <= MAX_ENTRIES + 1


def test_the_short_path_table_is_bounded_with_the_cache():
    f = ag.convert(lambda x: x + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.RetracingWarning)
        for n in range(MAX_ENTRIES + 10):
            check(f, np.ones(n))
    assert len(f._fast) <= MAX_ENTRIES and len(f._traces.entries) == MAX_ENTRIES
    check(f, np.ones(MAX_ENTRIES + 9))
    assert f.trace_count == MAX_ENTRIES + 10


def test_an_evicted_key_does_not_keep_a_finalizer_on_a_live_object():
    class Model:
        scale = 2.0
    model = Model()
    f = ag.convert(lambda x, model, n: x * model.scale + n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.RetracingWarning)
        for n in range(MAX_ENTRIES * 3):
            check(f, np.ones(2), model, n)
    on_model = [fin for fin in weakref.finalize._registry  # CPython's live finalizers
                if (fin.peek() or (None,))[0] is model]
    assert len(on_model) == MAX_ENTRIES
    ref = weakref.ref(model)
    del model
    gc.collect()
    assert ref() is None and len(f._traces.entries) == 0


# -- the trace log ------------------------------------------------------------------------------

def test_the_trace_log_says_what_traced_and_why(caplog):
    f = ag.convert(distinct_python_ints)
    with caplog.at_level(logging.INFO, logger="autograph"):
        f(np.ones(3, np.float32), 2)
        f(np.ones(3, np.float32), 2)
        f(np.ones(4, np.float32), 2)
        f(np.ones(4, np.float32), 3)
    assert [r.levelno for r in caplog.records] == [logging.INFO] * 3
    assert [r.getMessage() for r in caplog.records] == [
        "autograph: traced distinct_python_ints (trace 1) for (x: float32[3], n=2) on cpu: "
        "a new function",
        "autograph: traced distinct_python_ints (trace 2) for (x: float32[4], n=2) on cpu: "
        "argument 'x' changed from float32[3] to float32[4]",
        "autograph: traced distinct_python_ints (trace 3) for (x: float32[4], n=3) on cpu: "
        "Python argument 'n' changed value from 2 to 3",
    ]


def test_the_trace_log_records_evictions(caplog, monkeypatch):
    f = ag.convert(distinct_python_ints)
    x = np.ones(2)
    with warnings.catch_warnings(), caplog.at_level(logging.INFO, logger="autograph"):
        warnings.simplefilter("ignore", ag.RetracingWarning)
        for n in range(MAX_ENTRIES + 2):
            f(x, n)
    dropped = [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()]
    assert dropped == [
        f"autograph: distinct_python_ints dropped its graph for (x: float64[2], n={n}): "
        f"its cache keeps {MAX_ENTRIES}" for n in (0, 1)]
    last = [r.getMessage() for r in caplog.records
            if f"(trace {MAX_ENTRIES + 2})" in r.getMessage()]
    assert len(last) == 1
    assert f"changed value from {MAX_ENTRIES} to {MAX_ENTRIES + 1}" in last[0]
