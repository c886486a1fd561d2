"""The developer tools in tools/ run on real functions."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_graph_profile_lists_every_equation(tmp_path):
    source = tmp_path / "model.py"
    source.write_text("import numpy as np\n"
                      "def f(x, w):\n"
                      "    hidden = np.tanh(x @ w)\n"
                      "    return hidden.sum(axis=1)\n")
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "graph_profile.py"), f"{source}::f",
         "float32[8,4]", "float32[4,3]", "--runs", "5"],
        capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    assert any("matmul(f32[8,4], f32[4,3])" in line for line in lines[1:-1])
    assert any("tanh(f32[8,3])" in line and "model.py:3" in line for line in lines)
    assert any("sum(f32[8,3])" in line for line in lines)
    assert lines[-1].strip().endswith("total of medians over 5 runs")


def test_graph_profile_rejects_bad_spec(tmp_path):
    source = tmp_path / "model.py"
    source.write_text("def f(x):\n    return x\n")
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "graph_profile.py"), f"{source}::f", "f32[3"],
        capture_output=True, text=True)
    assert result.returncode == 2
    assert "malformed SPEC" in result.stderr


def test_graph_profile_times_the_equations_inside_a_loop(tmp_path):
    source = tmp_path / "loop.py"
    source.write_text("import numpy as np\n"
                      "def f(x):\n"
                      "    total = x.sum() * 0.0\n"
                      "    while total < 10.0:\n"
                      "        total = np.tanh(x).sum() * 0.0 + total + 1.0\n"
                      "    return total\n")
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "graph_profile.py"), f"{source}::f",
         "float32[3]", "--runs", "3"],
        capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    [loop] = [k for k, line in enumerate(lines) if "  while_loop(" in line]
    inner = lines[loop + 1:-1]
    assert any("%    cond: less(f32[], f64[]~weak)  x11" in line for line in inner)
    assert any("body: tanh(f32[3])  x10" in line and "loop.py:5" in line for line in inner)
    assert all(line[9:].startswith("  ") for line in lines[1:-1]), "µs and share columns"
