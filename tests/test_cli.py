"""`agc` and `python -m autograph`, run as subprocesses (all started at once, to keep
the file fast); a few more bad-input cases run in-process through `autograph.cli.main`."""
import os
import shutil
import subprocess
import sys

import pytest

from autograph.cli import main

MODEL = '''\
import numpy as np
import autograph as ag


def layer(x, w):
    hidden = x @ w
    return np.maximum(hidden, 0)


def scale(x, k):
    return x * k


def broken(x):
    count = x.sum()
    return "abc"[count]


@ag.convert
def decorated(x):
    doubled = x * 2
    return doubled


class Model:
    @staticmethod
    def step(x):
        return np.tanh(x)


VALUE = 3
'''


def _console_script():
    beside = os.path.join(os.path.dirname(sys.executable), "agc")
    return beside if os.access(beside, os.X_OK) else shutil.which("agc")


AGC = _console_script()
GOOD_LAYER = ("{model}::layer", "--graph", "float32[None,5]", "float32[5,2]")
BAD_INPUTS = {  # run as subprocesses
    "missing file": (("{dir}/no_such_file.py::layer", "--graph", "float32[3]"),
                     "no_such_file.py"),
    "unknown function": (("{model}::no_such_function", "--graph", "float32[3]"),
                         "no_such_function"),
    "bad dimension": (("{model}::layer", "--graph", "float32[None,x]"), "float32[None,x]"),
    "trace fails": (("{model}::broken", "--graph", "float32[3]"), "count"),
}
MORE_BAD_INPUTS = {  # run in-process through autograph.cli.main, which agc calls
    "not a function": (("{model}::VALUE", "--graph"), "VALUE"),
    "no ::FUNC": (("{model}", "--graph", "float32[3]"), "FILE.py::FUNC"),
    "bad dtype": (("{model}::layer", "--graph", "floatx[3]"), "floatx"),
    "unclosed bracket": (("{model}::layer", "--graph", "float32[3"), "float32[3"),
    "bad py literal": (("{model}::scale", "--graph", "float32[3]", "py:(("), "py:(("),
    "too few specs": (("{model}::layer", "--graph", "float32[3]"),
                      "--graph for layer: missing a required argument: 'w' (one SPEC per"),
    "too many specs": (("{model}::scale", "--dot", "int64[]", "py:3", "py:4"),
                       "--dot for scale: too many positional arguments"),
    "unknown dotted name": (("{model}::Model.nope", "--graph"), "Model.nope"),
}
RUNS = {
    "graph": (False, GOOD_LAYER),
    "graph -m": (True, GOOD_LAYER),
    "dot": (False, ("{model}::layer", "--dot", "float32[None,5]", "float32[5,2]")),
    "py spec": (False, ("{model}::scale", "--graph", "int64[]", "py:3")),
    "decorated": (False, ("{model}::decorated", "--graph", "float64[3]")),
    "source": (False, ("{model}::scale",)),
    "missing -m": (True, ("missing.py::f", "--graph")),
    **{name: (False, args) for name, (args, _) in BAD_INPUTS.items()},
}


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "model.py"
    path.write_text(MODEL)
    return path


@pytest.fixture(scope="module")
def runs(model_path):
    """Every invocation in RUNS, started at once (each is a fresh interpreter)."""
    path = model_path
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    processes = {}
    for name, (module, args) in RUNS.items():
        if not module and AGC is None:
            continue
        command = [sys.executable, "-m", "autograph"] if module else [AGC]
        args = [a.format(model=path, dir=path.parent) for a in args]
        processes[name] = subprocess.Popen(command + args, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, text=True, env=env)
    results = {}
    for name, process in processes.items():
        stdout, stderr = process.communicate(timeout=120)
        results[name] = subprocess.CompletedProcess(process.args, process.returncode,
                                                    stdout, stderr)
    return results


def assert_usage_error(result, *fragments):
    assert result.returncode == 2, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


needs_console_script = pytest.mark.skipif(AGC is None, reason="the agc console script is not "
                                                              "on PATH (package not installed)")


@needs_console_script
def test_graph_prints_the_traced_graph(runs):
    result = runs["graph"]
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "graph layer(x:f32[?,5], w:f32[5,2]) {"
    assert lines[1].strip().startswith("hidden:f32[?,2] = matmul x w")
    assert any("maximum" in line for line in lines)
    assert lines[-2] == "}"
    assert lines[-1] == "# native tier: every primitive has a lowering"


@needs_console_script
def test_dot_prints_graphviz(runs):
    result = runs["dot"]
    assert result.returncode == 0, result.stderr
    out = result.stdout.strip()
    assert out.startswith('digraph "layer" {') and out.endswith("}")
    assert "->" in out and "matmul" in out and "x:f32[?,5]" in out


@needs_console_script
def test_python_value_spec(runs):
    result = runs["py spec"]
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "graph scale(x:i64[]) {"
    assert "multiply x 3" in result.stdout


@needs_console_script
def test_already_converted_and_dotted_names(runs):
    result = runs["decorated"]
    assert result.returncode == 0, result.stderr
    assert "doubled:f64[3] = multiply x 2" in result.stdout



def test_dotted_names_in_process(model_path, capsys):
    assert main([f"{model_path}::Model.step", "--graph", "float32[2,2]"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("graph step(x:f32[2,2]) {") and "tanh" in out


def test_a_module_of_a_package_with_relative_imports(tmp_path, monkeypatch, capsys):
    package = tmp_path / "shop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("def scale(x):\n    return x * 2.0\n")
    (package / "model.py").write_text(
        "from .helpers import scale\n\n\ndef f(x):\n    if x.sum() > 0:\n"
        "        return scale(x) + 1.0\n    return x\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    assert main(["shop.model::f", "--graph", "f64[3]"]) == 0
    assert capsys.readouterr().out.startswith("graph f(x:f64[3]) {")
    assert main(["shop/model.py::f"]) == 2      # as a file its relative import fails: a hint
    assert "shop.model::FUNC" in capsys.readouterr().err
    assert main(["shop.nope::f"]) == 2
    assert capsys.readouterr().err.strip() == "agc: error: no such file or module: shop.nope"


def test_svg_without_graphviz_says_what_is_missing(model_path, capsys, monkeypatch):
    monkeypatch.setenv("PATH", "")
    args = [f"{model_path}::layer", "--dot", "float32[None,5]", "float32[5,2]", "--svg", "g.svg"]
    assert main(args) == 2
    assert "--svg needs Graphviz's dot program, which is not on PATH" in capsys.readouterr().err
    assert main([f"{model_path}::layer", "--png", "g.png"]) == 2
    assert "give its SPECs with --graph or --dot" in capsys.readouterr().err


def test_png_is_rendered_by_graphviz(model_path, tmp_path, capsys, monkeypatch):
    fake = tmp_path / "dot"   # stands for Graphviz: writes its input and arguments
    fake.write_text(f"#!{sys.executable}\nimport sys\n"
                    "out = sys.argv[sys.argv.index('-o') + 1]\n"
                    "open(out, 'w').write(sys.argv[1] + '\\n' + sys.stdin.read())\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    out = tmp_path / "g.png"
    assert main([f"{model_path}::layer", "--graph", "f32[?,5]", "f32[5,2]", "--png", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    written = out.read_text()
    assert written.startswith("-Tpng\ndigraph \"layer\" {") and "matmul" in written


def test_specs_read_as_graphs_print_types(model_path, capsys):
    assert main([f"{model_path}::layer", "--graph", "f32[?,5]", "f32[5,2]"]) == 0
    assert capsys.readouterr().out.startswith("graph layer(x:f32[?,5], w:f32[5,2]) {")


def test_help_documents_specs_with_examples(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "agc FILE.py::FUNC --graph SPEC..." in out
    assert "float32[None,5]" in out and "f32[?,5]" in out and "py:3" in out


def test_python_dash_m_is_the_same_program(runs):
    by_module = runs["graph -m"]
    assert by_module.returncode == 0, by_module.stderr
    assert by_module.stdout.startswith("graph layer(")
    if AGC is not None:
        assert by_module.stdout == runs["graph"].stdout
    assert_usage_error(runs["missing -m"], "missing.py")


@needs_console_script
@pytest.mark.parametrize("name", BAD_INPUTS)
def test_bad_input_is_one_line_and_status_2(runs, name):
    assert_usage_error(runs[name], BAD_INPUTS[name][1])


@pytest.mark.parametrize("name", MORE_BAD_INPUTS)
def test_more_bad_input_in_process(model_path, capsys, name):
    args, fragment = MORE_BAD_INPUTS[name]
    args = [a.format(model=model_path) for a in args]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert_usage_error(subprocess.CompletedProcess(args, 2, captured.out, captured.err),
                       fragment)


@needs_console_script
def test_trace_failure_names_the_users_line(runs):
    assert_usage_error(runs["trace fails"], "TracingError", "model.py:16")


@needs_console_script
def test_without_mode_prints_the_converted_source(runs):
    result = runs["source"]
    assert result.returncode == 0, result.stderr
    compile(result.stdout, "<agc output>", "exec")
    assert "def " in result.stdout and "x * k" in result.stdout
