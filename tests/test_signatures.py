"""Input signatures: `input_signature=`, `TensorSpec` annotations, concrete functions."""
import importlib.util
import sys

import numpy as np
import pytest

import autograph as ag
from autograph_runtime.verify import verify

BATCH_SPEC = ag.TensorSpec((None, 5), np.float32)


def row_norms(x):
    return np.sqrt((x * x).sum(axis=1))


def test_tensor_spec_basics():
    spec = ag.TensorSpec((None, 5), np.float32)
    assert spec.shape == (None, 5) and spec.dtype == np.float32
    assert ag.TensorSpec[np.float32, (None, 5)] == spec
    assert ag.TensorSpec[np.float32, (None, 5)] != ag.TensorSpec((None, 5), np.float64)
    assert ag.TensorSpec(3, np.int64).shape == (3,)


def test_input_signature_traces_once_for_many_batch_sizes():
    f = ag.convert(row_norms, input_signature=[BATCH_SPEC])
    rng = np.random.default_rng(1)
    for batch in (1, 2, 7, 64, 0):
        x = rng.standard_normal((batch, 5)).astype(np.float32)
        got = f(x)
        assert got.dtype == np.float32 and got.shape == (batch,)
        np.testing.assert_allclose(got, row_norms(x), rtol=1e-6)
    assert f.trace_count == 1


def test_wrong_dtype_is_a_type_error_naming_the_argument():
    f = ag.convert(row_norms, input_signature=[BATCH_SPEC])
    with pytest.raises(TypeError, match=r"'x'.*float64"):
        f(np.ones((2, 5), np.float64))
    assert f.trace_count == 0


def test_wrong_shape_is_a_value_error_naming_the_argument():
    f = ag.convert(row_norms, input_signature=[BATCH_SPEC])
    with pytest.raises(ValueError, match=r"'x'.*\(2, 4\)"):
        f(np.ones((2, 4), np.float32))
    with pytest.raises(ValueError, match="'x'"):
        f(np.ones(5, np.float32))
    assert f.trace_count == 0
    np.testing.assert_allclose(f(np.ones((2, 5), np.float32)), np.full(2, np.sqrt(5)), rtol=1e-6)


def test_python_scalars_are_converted_to_the_spec_dtype():
    f = ag.convert(lambda x, y: x * y + 1,
                   input_signature=[ag.TensorSpec((), np.float32), ag.TensorSpec((), np.int8)])
    out = f(3, 2)
    assert out.dtype == np.float32 and out == 7
    out = f(2.5, True)
    assert out.dtype == np.float32 and out == 3.5
    assert f.python_function(np.float32(2.5), np.int8(True)).dtype == np.float32
    assert f.trace_count == 1


def test_python_lists_are_converted_to_the_spec_array():
    f = ag.convert(row_norms, input_signature=[BATCH_SPEC])
    out = f([[3, 4, 0, 0, 0]])
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [5.0])


def test_signature_with_nested_specs():
    def f(pair, scale):
        a, b = pair
        return (a + b) * scale
    sig = [(ag.TensorSpec((None,), np.float64), ag.TensorSpec((None,), np.float64)),
           ag.TensorSpec((), np.float64)]
    g = ag.convert(f, input_signature=sig)
    for n in (1, 3, 8):
        pair = (np.arange(n, dtype=np.float64), np.ones(n))
        np.testing.assert_allclose(g(pair, np.float64(2)), f(pair, 2.0))
    assert g.trace_count == 1
    with pytest.raises(TypeError, match="must be a sequence of 2"):
        g([np.ones(2), np.ones(2), np.ones(2)], np.float64(1))


def test_input_signature_longer_than_the_parameters_is_rejected():
    with pytest.raises(TypeError, match="input_signature"):
        ag.convert(row_norms, input_signature=[BATCH_SPEC, BATCH_SPEC])


def test_input_signature_on_a_method_skips_self():
    class Model:
        def __init__(self, k):
            self.k = k

        @ag.convert(input_signature=[ag.TensorSpec((None,), np.float64)])
        def apply(self, x):
            return x * self.k

    model = Model(3.0)
    for n in (1, 4, 6):
        np.testing.assert_array_equal(model.apply(np.arange(n, dtype=np.float64)),
                                      np.arange(n) * 3.0)
    assert model.apply.trace_count == 1
    with pytest.raises(TypeError, match="'x'"):
        model.apply(np.ones(2, np.float32))


def test_variadic_parameters_bind_like_python():
    f = ag.convert(lambda *xs, **kw: sum(xs) * kw.get("s", 1))
    a = np.arange(2.0)
    for args, kwargs in [((a, a), {}), ((a, a, a), {}), ((a,), {"s": 3}), ((a, a), {})]:
        np.testing.assert_array_equal(f(*args, **kwargs), f.python_function(*args, **kwargs))
    assert f.trace_count == 3


# -- annotations -------------------------------------------------------------------------

def test_annotation_acts_as_a_signature_for_that_parameter():
    @ag.convert
    def f(x: ag.TensorSpec[np.float32, (None, 5)], k):
        return x * k

    for batch in (1, 3, 4):
        x = np.full((batch, 5), 2, np.float32)
        np.testing.assert_array_equal(f(x, 3), x * 3)
    assert f.trace_count == 1
    f(np.ones((2, 5), np.float32), 4)  # k is not annotated: a Python value, part of the key
    assert f.trace_count == 2
    with pytest.raises(TypeError, match="'x'"):
        f(np.ones((2, 5), np.float64), 3)
    with pytest.raises(ValueError, match="'x'"):
        f(np.ones((2, 6), np.float32), 3)


FUTURE_MODULE = '''\
from __future__ import annotations

import numpy as np
import autograph as ag


@ag.convert
def scale(x: ag.TensorSpec[np.float32, (None, 5)], k: int = 2):
    return x * k
'''


@pytest.fixture
def future_module(tmp_path):
    path = tmp_path / "future_annotations_module.py"
    path.write_text(FUTURE_MODULE)
    spec = importlib.util.spec_from_file_location("future_annotations_module", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


def test_annotation_works_with_postponed_evaluation(future_module):
    f = future_module.scale
    for batch in (1, 2, 9):
        x = np.ones((batch, 5), np.float32)
        out = f(x)
        assert out.dtype == np.float32
        np.testing.assert_array_equal(out, x * 2)
    assert f.trace_count == 1
    with pytest.raises(TypeError, match="'x'"):
        f(np.ones((1, 5), np.float64))
    with pytest.raises(ValueError, match="'x'"):
        f(np.ones((1, 4), np.float32))


# -- concrete functions ---------------------------------------------------------------------

def layer(x, w):
    hidden = x @ w
    return np.maximum(hidden, 0)


def test_get_concrete_function_with_specs_and_calling_it():
    f = ag.convert(layer)
    concrete = f.get_concrete_function(ag.TensorSpec((None, 5), np.float32),
                                       ag.TensorSpec((5, 2), np.float32))
    assert f.trace_count == 1
    verify(concrete.graph)
    rng = np.random.default_rng(2)
    w = rng.standard_normal((5, 2)).astype(np.float32)
    for batch in (1, 6):
        x = rng.standard_normal((batch, 5)).astype(np.float32)
        out = concrete(x, w)
        assert out.dtype == np.float32
        np.testing.assert_allclose(out, layer(x, w), rtol=1e-6)
        np.testing.assert_allclose(f(x, w), layer(x, w), rtol=1e-6)
    assert f.trace_count == 3  # calls with arrays key on their own shapes
    with pytest.raises((TypeError, ValueError)):
        concrete(np.ones((2, 4), np.float32), w)
    with pytest.raises((TypeError, ValueError)):
        concrete(np.ones((2, 5), np.float64), w)


def test_get_concrete_function_with_arrays_reuses_the_call_cache():
    f = ag.convert(layer)
    x, w = np.ones((3, 5)), np.ones((5, 2))
    f(x, w)
    concrete = f.get_concrete_function(x, w)
    assert f.trace_count == 1
    assert concrete is f.get_concrete_function(np.zeros((3, 5)), np.zeros((5, 2)))
    np.testing.assert_array_equal(concrete(x, w), layer(x, w))
    assert [v.aval.shape for v in concrete.graph.inputs] == [(3, 5), (5, 2)]


def test_get_concrete_function_with_a_python_value():
    f = ag.convert(lambda x, n: x ** n)
    concrete = f.get_concrete_function(ag.TensorSpec((None,), np.float64), 3)
    x = np.arange(4.0)
    np.testing.assert_array_equal(concrete(x), x ** 3)
    assert "3" in str(concrete.graph)


def test_concrete_graph_prints_text_and_dot():
    f = ag.convert(layer)
    graph = f.get_concrete_function(ag.TensorSpec((None, 5), np.float32),
                                    ag.TensorSpec((5, 2), np.float32)).graph
    text = str(graph)
    assert text.splitlines()[0] == "graph layer(x:f32[?,5], w:f32[5,2]) {"
    assert "matmul" in text and "maximum" in text
    dot = graph.to_dot()
    assert dot.startswith('digraph "layer" {') and dot.rstrip().endswith("}")
    assert "matmul" in dot and "x:f32[?,5]" in dot and "->" in dot


def test_concrete_function_with_signature_equals_eager_on_edge_values():
    f = ag.convert(lambda x: np.where(x > 0, np.log1p(x), x * 0.5),
                   input_signature=[ag.TensorSpec((None,), np.float32)])
    x = np.array([-np.inf, -1, -0.0, 0.0, 1e-30, 3, np.inf, np.nan], np.float32)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(f(x), f.python_function(x))
