"""`agc FILE.py::Class.method`: the converted source, and graphs traced on an instance
built as `Class()` or from `--init SPEC...` (or refused in one line, status 2)."""
import numpy as np
import pytest

from autograph.cli import main

MODEL = '''\
import numpy as np
import autograph as ag


class Dense:
    def __init__(self, units, scale=2.0):
        self.w = np.ones((3, units))
        self.scale = scale

    def apply(self, x):
        if x.sum() > 0:
            return x @ self.w * self.scale
        return -(x @ self.w)

    @ag.convert
    def shift(self, x):
        return x + self.scale


class Counter:
    def __init__(self):
        self.step_size = 3.0

    def step(self, x):
        return x * self.step_size

    @staticmethod
    def twice(x):
        return x * 2.0


class Picky:
    def __init__(self, width):
        if width < 0:
            raise ValueError("width must be positive")
        self.width = width

    def step(self, x):
        return x * self.width
'''


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "layers.py"
    path.write_text(MODEL)
    return path


def agc(capsys, *args):
    """(status, stdout, stderr) of `agc ARGS`."""
    status = main([str(a) for a in args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_source_of_a_method(model, capsys):
    status, out, _ = agc(capsys, f"{model}::Dense.apply")
    assert status == 0
    assert out.startswith("def apply(self, x):") and "ag__.if_stmt(" in out
    compile(out, "<agc output>", "exec")


def test_a_constructor_without_arguments_builds_the_instance(model, capsys):
    status, out, err = agc(capsys, f"{model}::Counter.step", "--graph", "f64[3]")
    assert status == 0, err
    assert out.splitlines()[:3] == ["graph step(x:f64[3]) {", "  t0:f64[3] = multiply x 3.0",
                                    "  return t0"]


def test_the_graph_matches_the_method_called_on_the_same_instance(model, capsys):
    status, out, err = agc(capsys, f"{model}::Dense.apply", "--graph", "f32[?,3]",
                           "--init", "py:4", "scale=py:0.5")
    assert status == 0, err
    assert out.startswith("graph apply(x:f32[?,3]) {")
    assert "const" in out and "matmul" in out and "multiply" in out and "0.5" in out
    # the same instance and method, run as a graph, against eager
    import importlib.util
    spec = importlib.util.spec_from_file_location("layers_oracle", model)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import autograph as ag
    layer = module.Dense(4, scale=0.5)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(ag.convert(layer.apply)(x), layer.apply(x))


def test_a_method_decorated_with_convert_binds_its_own(model, capsys):
    status, out, err = agc(capsys, f"{model}::Dense.shift", "--graph", "f64[2]",
                           "--init", "units=py:1")
    assert status == 0, err
    assert "add x 2.0" in out


def test_a_dot_picture_of_a_method(model, capsys):
    status, out, err = agc(capsys, f"{model}::Dense.apply", "--dot", "f64[2,3]",
                           "--init", "py:5")
    assert status == 0, err
    assert out.startswith('digraph "apply" {') and "f64[3,5]" in out


def test_a_static_method_needs_no_instance(model, capsys):
    status, out, err = agc(capsys, f"{model}::Counter.twice", "--graph", "f64[2]")
    assert status == 0, err
    assert "multiply x 2.0" in out


@pytest.mark.parametrize("args, message", [
    (("Dense.apply", "--graph", "f64[3]"),
     "Dense.apply is a method, so agc traces it on an instance of Dense, and Dense() needs "
     "'units': pass the constructor's arguments with --init SPEC... (like --init py:3, or "
     "units=py:3)"),
    (("Dense.apply", "--graph", "f64[3]", "--init", "py:1", "py:2", "py:3"),
     "--init for Dense: too many positional arguments (its parameters: units, scale; one "
     "SPEC each, or NAME=SPEC)"),
    (("Dense.apply", "--graph", "f64[3]", "--init", "py:1", "sise=py:1"),
     "--init for Dense: got an unexpected keyword argument 'sise'"),
    (("Dense.apply", "--graph", "f64[3]", "--init", "f32[?]"),
     "--init f32[?]: a constructor's array needs every dimension"),
    (("Dense.apply", "--graph", "f64[3]", "--init", "py:(("), "--init: malformed SPEC 'py:(('"),
    (("Picky.step", "--graph", "f64[3]", "--init", "py:-1"),
     "Picky(...) failed while building the instance of Picky.step, at {model}:{line}: "
     "ValueError: width must be positive"),
    (("Counter.step", "--init"), "--init is for a graph: give its SPECs with --graph or --dot"),
    (("Counter.twice", "--graph", "f64[3]", "--init"),
     "--init builds the instance of a method's class; Counter.twice is not a method"),
], ids=["required", "too many", "bad keyword", "unknown dim", "bad spec", "raises",
        "no graph", "static"])
def test_refused_in_one_line_with_status_2(model, capsys, args, message):
    status, out, err = agc(capsys, f"{model}::{args[0]}", *args[1:])
    assert status == 2 and out == ""
    assert err.count("\n") == 1, err
    line = MODEL.splitlines().index('            raise ValueError("width must be positive")') + 1
    assert message.format(model=model, line=line) in err, err
