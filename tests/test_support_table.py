"""docs/numpy.md, the support table, is what tools/numpy_table.py generates now, and
the `TracingError` of a refused function names it, the user's line and the way out."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import autograph as ag

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "numpy_table.py"
sys.path.insert(0, str(TOOL.parent))
import numpy_table  # noqa: E402

TABLE_NUMPY = re.search(r"NumPy (\d+\.\d+)\.", (ROOT / "docs" / "numpy.md").read_text()).group(1)
same_numpy = pytest.mark.skipif(
    ".".join(np.__version__.split(".")[:2]) != TABLE_NUMPY,
    reason=f"docs/numpy.md lists NumPy {TABLE_NUMPY}'s functions; this is NumPy {np.__version__}")


@same_numpy
def test_docs_numpy_md_is_current():
    """Regenerate with `python tools/numpy_table.py --write` when this fails."""
    assert (ROOT / "docs" / "numpy.md").read_text() == numpy_table.render(), (
        "docs/numpy.md is stale: run `python tools/numpy_table.py --write`")


@same_numpy
def test_the_command_prints_the_table():
    text = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True,
                          check=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT),
                                                     "PATH": ""}).stdout
    assert text == (ROOT / "docs" / "numpy.md").read_text()


def _rows() -> dict[str, str]:
    rows = {}
    for line in (ROOT / "docs" / "numpy.md").read_text().splitlines():
        if line.startswith("| `"):
            name, status = (cell.strip() for cell in line.strip("|").split("|")[:2])
            rows[name.strip("`")] = status
    return rows


@same_numpy
def test_every_public_function_and_method_is_listed_once():
    rows = _rows()
    for module in numpy_table.NAMESPACES:
        for name, _ in numpy_table.public_callables(module):
            assert f"{module.__name__}.{name}" in rows
    for name in dir(np.ndarray):
        assert name.startswith("_") or f"ndarray.{name}" in rows
    assert set(rows.values()) == {"staged, gradient", "staged", "NumPy's own", "a text",
                                  "refused"}


@pytest.mark.parametrize("name, status", [
    ("numpy.sum", "staged, gradient"), ("numpy.linalg.solve", "staged, gradient"),
    ("numpy.argmax", "staged"), ("numpy.lexsort", "NumPy's own"),
    ("numpy.apply_along_axis", "staged"), ("numpy.apply_over_axes", "refused"),
    ("numpy.float32", "staged"), ("ndarray.sum", "staged, gradient"),
    ("ndarray.item", "staged"), ("ndarray.tofile", "refused"), ("ndarray.tobytes", "refused"),
    ("numpy.array2string", "a text"),
])
def test_statuses_follow_the_registries(name, status):
    assert _rows()[name] == status


def test_a_staged_function_is_staged_and_a_refused_one_refused():
    """The table's word against the code: each status is what tracing does."""
    rows, x = _rows(), np.eye(3)
    for name in ("numpy.cumsum", "numpy.linalg.inv", "numpy.trapezoid", "numpy.fft.fft2"):
        fn = eval(name.replace("numpy", "np", 1))
        refused = False
        try:
            ag.convert(lambda x: fn(x), autograph=False)(x)
        except ag.TracingError:
            refused = True
        assert refused == (rows[name] == "refused"), name


def test_refusal_names_function_reason_line_and_py_function_line():
    def use(x):
        return np.apply_over_axes(lambda a, k: a[::-1], x, [0])  # the message names this line
    with pytest.raises(ag.TracingError) as info:
        ag.convert(use)(np.eye(3))
    message = str(info.value)
    line = f"{use.__code__.co_filename}:{use.__code__.co_firstlineno + 1}"
    assert "numpy.apply_over_axes is not supported on traced values" in message
    assert "it calls a Python function, which probes would run" in message
    assert line in message, message
    assert "ag.py_function(np.apply_over_axes, x, out=ag.TensorSpec(shape, dtype))" in message
    fixed = ag.convert(lambda x: ag.py_function(
        lambda m: np.apply_along_axis(lambda row: row[::-1], 1, m), x,
        out=ag.TensorSpec((3, 3), np.float64)))
    np.testing.assert_array_equal(fixed(np.eye(3)), np.eye(3)[:, ::-1])
