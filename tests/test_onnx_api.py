"""`ag.export_onnx`, `ConcreteFunction.export_onnx`, a loaded function's, `agc --onnx`; the
model file (checked, written atomically, symbolic dimensions, opsets), variables, and the
errors and warnings of what ONNX cannot express."""
from __future__ import annotations

import functools
import json
import os

import numpy as np
import pytest
from onnx_check import check, run_model

import autograph as ag
from autograph.cli import main as agc
from autograph_runtime.onnx import default_opset

onnx = pytest.importorskip("onnx", reason="the ONNX tests need onnx (pip install -e '.[onnx]')")


def scale(x, k):
    return np.tanh(x) * k + x.sum(axis=-1, keepdims=True)


def test_export_with_specs_writes_one_checked_model(tmp_path):
    f = ag.convert(scale)
    path = tmp_path / "scale.onnx"
    assert ag.export_onnx(f, path, ag.TensorSpec((None, 3), np.float32), 2.0) == [str(path)]
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    assert [i.name for i in model.graph.input] == ["x"]   # the Python 2.0 is in the graph
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(run_model(path, [x])[0], scale(x, 2.0), rtol=1e-6)
    assert os.listdir(tmp_path) == ["scale.onnx"]   # no temporary file left behind


def test_every_traced_signature_is_numbered(tmp_path):
    f = ag.convert(scale)
    with pytest.raises(ValueError, match="no traced signature"):
        ag.export_onnx(f, tmp_path / "m.onnx")
    f(np.ones((2, 3)), 1.0)
    f(np.ones((4,), np.float32), 1.0)
    paths = ag.export_onnx(f, tmp_path / "m.onnx")
    assert paths == [str(tmp_path / "m_0.onnx"), str(tmp_path / "m_1.onnx")]
    types = [onnx.load(p).graph.input[0].type.tensor_type.elem_type for p in paths]
    assert types == [onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT]


def test_an_existing_file_is_replaced_whole(tmp_path):
    path = tmp_path / "m.onnx"
    path.write_bytes(b"old")
    ag.convert(scale).get_concrete_function(np.ones(3), 1.0).export_onnx(path)
    assert onnx.load(path).graph.name == "scale"


def test_loaded_functions_export_their_saved_signatures(tmp_path):
    f = ag.convert(scale)
    ag.save(f, tmp_path / "saved", np.ones((2, 3)), 3.0)
    loaded = ag.load(tmp_path / "saved")
    paths = loaded.export_onnx(tmp_path / "loaded.onnx")
    x = np.linspace(0, 1, 6).reshape(2, 3)
    np.testing.assert_allclose(run_model(paths[0], [x])[0], scale(x, 3.0), rtol=1e-12)
    assert ag.export_onnx(loaded, tmp_path / "again.onnx", x, 3.0) == [str(tmp_path / "again.onnx")]


def test_unknown_dimensions_are_named_after_the_argument(tmp_path):
    f = ag.convert(lambda x, y: x @ y)
    model = f.get_concrete_function(ag.TensorSpec((None, 3), np.float64),
                                    ag.TensorSpec((3, None), np.float64)).export_onnx(
        tmp_path / "m.onnx")
    dims = [[d.dim_param or d.dim_value for d in i.type.tensor_type.shape.dim]
            for i in model.graph.input]
    assert dims == [["x_dim0", 3], [3, "y_dim1"]]


def test_opset_is_what_the_lowerings_need_and_refused_above_the_request(tmp_path):
    f = ag.convert(lambda x: x * 2)
    model = f.get_concrete_function(np.ones(3)).export_onnx(tmp_path / "m.onnx")
    assert model.opset_import[0].version == 13
    g = ag.convert(lambda x: x.max(axis=0))
    model = g.get_concrete_function(np.ones((2, 3))).export_onnx(tmp_path / "g.onnx")
    assert model.opset_import[0].version == 18 <= default_opset()
    with pytest.raises(ag.ExportError, match="needs ONNX opset 18, above the requested opset 17"):
        g.get_concrete_function(np.ones((2, 3))).export_onnx(tmp_path / "h.onnx", opset=17)
    assert not (tmp_path / "h.onnx").exists()


def test_print_and_py_function_are_refused_at_the_users_line(tmp_path):
    def shows(x):
        print("x is", x)
        return x + 1
    line = shows.__code__.co_firstlineno + 1
    with pytest.raises(ag.ExportError, match=rf"cannot export print at .*test_onnx_api.py:"
                                             rf"{line} in shows to ONNX: a model cannot print"):
        ag.export_onnx(ag.convert(shows), tmp_path / "m.onnx", np.ones(2))
    assert issubclass(ag.ExportError, ag.AutographError)

    def helper(a):
        return a * 2

    def calls_python(x):
        return ag.py_function(helper, x, out=ag.TensorSpec((2,), np.float64))
    with pytest.raises(ag.ExportError, match="runs the Python function 'helper'"):
        ag.export_onnx(ag.convert(calls_python), tmp_path / "m.onnx", np.ones(2))


def test_assert_is_dropped_with_a_warning_naming_its_line(tmp_path):
    def checked(x):
        assert x.sum() > 0, "positive"
        return x * 2
    line = checked.__code__.co_firstlineno + 1
    with pytest.warns(ag.ExportWarning, match=rf"the assert at .*:{line} in checked is not "
                                              rf"exported") as caught:
        ag.export_onnx(ag.convert(checked), tmp_path / "m.onnx", np.ones(2))
    assert caught[0].lineno == line
    np.testing.assert_array_equal(run_model(tmp_path / "m.onnx", [-np.ones(2)])[0], -2 * np.ones(2))


def test_read_variables_are_initializers_and_written_ones_inputs_and_outputs(tmp_path):
    w = ag.Variable(np.array([1.0, 2.0]), name="w")
    counter = ag.Variable(np.int64(0), name="counter")

    @ag.convert
    def step(x):
        counter.assign_add(1)
        return x * w

    model = step.get_concrete_function(np.ones(2)).export_onnx(tmp_path / "m.onnx")
    assert [i.name for i in model.graph.input] == ["x", "counter"]
    assert [o.name for o in model.graph.output][1:] == ["counter_after"]
    assert "w" in [i.name for i in model.graph.initializer]
    mapping = json.loads({p.key: p.value for p in model.metadata_props}["autograph.variables"])
    assert mapping == [
        {"variable": "counter", "shape": [], "dtype": "int64", "input": "counter",
         "output": "counter_after"},
        {"variable": "w", "shape": [2], "dtype": "float64", "initializer": "w"}]
    out, after = run_model(tmp_path / "m.onnx", [np.array([3.0, 4.0]), np.array(5)])
    np.testing.assert_array_equal(out, [3.0, 8.0])
    assert after == 6


def _writes_in_a_branch(v, x):
    if x.sum() > 0:
        v.assign(x)
    else:
        v.assign_add(1.0)
    return x * v


def _writes_in_one_branch(v, x):
    if x.sum() > 0:
        v.assign(x * 2)
    return x + v


def _writes_in_a_loop(v, x):
    total = x
    while v.read_value().sum() < 10.0:   # the test reads what the last trip wrote
        v.assign_add(np.abs(x) + 0.5)
        total = total + v
    return total


def _writes_in_nested_blocks(v, x):
    i = 0
    while i < 3 and x.sum() > -100.0:   # a traced test: a staged loop
        if x[i % 2] > 0:
            v.assign_add(x)
        else:
            v.assign_sub(x * 0.5)
        i += 1
    return v.read_value()


@pytest.mark.parametrize("fn", [_writes_in_a_branch, _writes_in_one_branch,
                                _writes_in_a_loop, _writes_in_nested_blocks])
@pytest.mark.parametrize("x", [np.array([1.5, 2.0]), np.array([-1.0, 0.25])])
def test_a_variable_written_in_a_staged_if_or_loop_is_an_input_and_an_output(fn, x, tmp_path):
    start = np.array([0.5, -1.0])
    v = ag.Variable(start.copy(), name="v")
    f = ag.convert(functools.partial(fn, v))
    ag.export_onnx(f, tmp_path / "m.onnx", x)
    eager_v = ag.Variable(start.copy(), name="v")
    with ag.run_functions_eagerly(True):
        want = ag.convert(functools.partial(fn, eager_v))(x)
    got, after = run_model(tmp_path / "m.onnx", [x, start])
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(after, eager_v.numpy())


def test_agc_writes_an_onnx_model(tmp_path, capsys):
    source = tmp_path / "model.py"
    source.write_text("import numpy as np\n\ndef f(x, n):\n    while n > 0:\n"
                      "        x = x * 2\n        n -= 1\n    return x\n")
    out = tmp_path / "f.onnx"
    assert agc([f"{source}::f", "--onnx", str(out), "float32[None]", "int64[]"]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out} (ONNX opset 13")
    got = run_model(out, [np.ones(3, np.float32), np.array(3)])[0]
    np.testing.assert_array_equal(got, np.full(3, 8, np.float32))
    assert agc([f"{source}::f", "--onnx", str(out)]) == 2
    assert "missing a required argument" in capsys.readouterr().err


def test_the_model_reads_as_the_source(tmp_path):
    def f(x):
        centered = x - x.mean()
        return centered * 2
    concrete = check(f, np.arange(4.0), path=tmp_path / "m.onnx")
    names = {o for n in onnx.load(tmp_path / "m.onnx").graph.node for o in n.output}
    assert "centered" in names and concrete is not None


def test_a_variable_update_computes_in_numpys_promoted_dtype(tmp_path):
    v = ag.Variable(np.array([0.1, 0.2, 0.3], np.float32), name="v")

    @ag.convert
    def nudge(x):
        v.assign_add(x)         # float32 + float64: added as float64, stored as float32
        v.assign_sub(1)
        return v.read_value()

    x = np.array([0.6369616873214543, 2.0, 1e-9])   # 0.1f + x rounds apart in float32
    before = v.numpy().copy()
    nudge.get_concrete_function(x).export_onnx(tmp_path / "m.onnx")
    got, after = run_model(tmp_path / "m.onnx", [x, before])
    want = nudge(x)
    assert got.dtype == np.float32 and np.array_equal(got, want) and np.array_equal(after, want)
