"""`agc --graph SPEC --optimized`: the graph after the passes, the one that runs."""
from __future__ import annotations

from autograph.cli import run

SOURCE = """
import numpy as np

def f(x):
    return np.exp(x * 1) + np.exp(x * 1)
"""


def test_optimized_graph_is_shown(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(SOURCE)
    traced = run([f"{path}::f", "--graph", "float32[3]"])
    optimized = run([f"{path}::f", "--graph", "float32[3]", "--optimized"])
    assert traced.count("exp") == 2 and "multiply" in traced
    assert optimized == ("graph f(x:f32[3]) {\n"
                         "  t0:f32[3] = exp x\n"
                         "  t1:f32[3] = add t0 t0\n"
                         "  return t1\n"
                         "}\n"
                         "# native tier: every primitive has a lowering")
    assert "digraph" in run([f"{path}::f", "--dot", "float32[3]", "--optimized"])
