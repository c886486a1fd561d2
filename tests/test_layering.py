"""The import rules that keep the layers apart.

`runtime/` (graphs, tracer, kernels) never imports `autograph/` (source to
source): it would work the same with no converter at all. The converter's
front half (`autograph/converters/`, `autograph/pyct/`) rewrites source and
imports nothing of the runtime.
"""
from __future__ import annotations

import ast
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
OPTIONAL = {"numba", "cupy", "onnx", "onnxruntime", "dask", "distributed"}   # extras


def _modules(package: str) -> list[str]:
    names = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _imported(path: pathlib.Path) -> set[str]:
    """The top-level packages a file imports (relative imports resolved to its package)."""
    package = path.relative_to(ROOT).parts[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add(package if node.level else (node.module or "").split(".")[0])
    return found


def test_runtime_imports_no_autograph():
    offenders = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "runtime").rglob("*.py"))
                 if "autograph" in _imported(p)]
    assert not offenders, f"runtime modules importing autograph: {offenders}"
    script = (f"import importlib, sys\n"
              f"for name in {_modules('runtime')!r}:\n"
              f"    try:\n"
              f"        importlib.import_module(name)\n"
              f"    except ModuleNotFoundError as error:  # an optional extra's module\n"
              f"        if error.name not in {sorted(OPTIONAL)!r}:\n"
              f"            raise\n"
              f"loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'autograph')\n"
              f"assert not loaded, loaded\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert result.returncode == 0, result.stderr


def test_runtime_modules_import_each_other_at_module_level():
    """The runtime's own modules are imported at the top of each file, never inside a
    function: a cycle is broken by registration (ops install Tracer methods and rules),
    not hidden in a deferred import. Only optional backends (CuPy) load lazily."""
    deferred = []
    for path in sorted((ROOT / "runtime").rglob("*.py")):
        for function in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and (
                        node.level or node.module in ("runtime", "autograph_runtime")):
                    deferred.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not deferred, f"function-level imports of runtime modules: {deferred}"


def test_converters_and_pyct_import_no_runtime():
    offenders = [str(p.relative_to(ROOT))
                 for folder in ("autograph/converters", "autograph/pyct")
                 for p in sorted((ROOT / folder).rglob("*.py"))
                 if "autograph_runtime" in _imported(p)]
    assert not offenders, f"converter modules importing runtime: {offenders}"


def test_converters_and_pyct_load_without_runtime():
    """Transitively too: importing them (without `autograph/__init__`) loads no runtime."""
    script = ("import importlib.util, sys, types\n"
              "sys.modules['autograph'] = types.ModuleType('autograph')\n"
              "sys.modules['autograph'].__path__ = ['autograph']\n"
              f"for name in {_modules('autograph/pyct') + _modules('autograph/converters')!r}:\n"
              "    importlib.import_module(name)\n"
              "loaded = sorted(m for m in sys.modules\n"
              "                if m.split('.')[0] in ('runtime', 'autograph_runtime'))\n"
              "assert not loaded, loaded\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert result.returncode == 0, result.stderr


def test_runtime_control_flow_only_stages():
    """Python on concrete predicates is the converter's rule; the runtime stages, or refuses."""
    import autograph as ag
    import autograph_runtime as runtime
    with pytest.raises(runtime.TracingError, match="stages into a graph being traced"):
        runtime.cond(True, lambda: 1, lambda: 2)
    with pytest.raises(runtime.TracingError, match="stages into a graph being traced"):
        runtime.while_loop(lambda s: s < 3, lambda s: s + 1, 0)
    f = ag.convert(lambda x: runtime.cond(True, lambda a: a * 2, lambda a: a - 1, x),
                   autograph=False)
    np.testing.assert_array_equal(f(np.ones(2)), np.full(2, 2.0))
    assert "= cond True x" in str(f.get_concrete_function(np.ones(2)).graph)


def test_one_library_predicate():
    """The stdlib, installed packages, NumPy, both packages and graph code are library code."""
    import autograph as ag
    from autograph.operators.calls import is_convertible_file
    from autograph_runtime.source import is_library_file, is_user_file
    for library in (json.__file__, np.__file__, pytest.__file__, ag.__file__,
                    is_library_file.__code__.co_filename, "<graph f #3>",
                    "<frozen importlib._bootstrap>"):
        assert is_library_file(library) and not is_convertible_file(library), library
    assert is_user_file(__file__) and is_convertible_file(__file__)
    assert is_user_file("<autograph f (model.py:3) #1>")  # converted code locates lines...
    assert not is_convertible_file("<autograph f (model.py:3) #1>")  # ...but is not converted
