"""What the package says about itself: its version, its exported errors, its type marker."""
from __future__ import annotations

import builtins
import configparser
import importlib
import importlib.metadata
import inspect
import os
import pathlib
import pickle
import re
import shutil
import subprocess
import sys
import typing
import zipfile

import numpy as np
import pytest

import autograph as ag


def test_the_version_is_the_distributions():
    assert ag.__version__ == importlib.metadata.version("autograph-numpy")


@pytest.mark.parametrize("command", [["agc", "--version"],
                                     [sys.executable, "-m", "autograph", "--version"]])
def test_agc_prints_the_version(command):
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"agc {ag.__version__}"


@pytest.mark.parametrize("name, base", [
    ("ConversionError", ag.AutographError), ("TracingError", ag.AutographError),
    ("PathTypeError", ag.TracingError), ("LoadError", ag.AutographError),
    ("SerializationError", ag.AutographError), ("SerializationError", ValueError),
    ("CheckpointMismatchError", ValueError), ("ConversionWarning", UserWarning),
    ("RetracingWarning", UserWarning), ("UnrolledLoopWarning", UserWarning),
    ("FrozenRandomWarning", UserWarning)])
def test_every_error_and_warning_the_docs_name_is_exported(name, base):
    assert name in ag.__all__
    assert issubclass(getattr(ag, name), base)


def test_every_error_and_warning_class_a_doc_names_is_exported():
    """Read from the docs themselves: a class name ending in Error or Warning that is not
    Python's or NumPy's is one of ours, and `autograph` exports it."""
    text = " ".join(p.read_text() for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
    named = set(re.findall(r"\b([A-Z][A-Za-z]+(?:Error|Warning))\b", text))
    numpy_internal = importlib.import_module("numpy._core._exceptions")   # UFuncTypeError
    theirs = {n for n in named if any(hasattr(m, n) for m in (
        builtins, np, np.linalg, np.exceptions, numpy_internal))}
    assert len(named - theirs) > 10
    assert sorted(named - theirs - set(ag.__all__)) == []


def test_the_package_is_marked_typed():
    assert (pathlib.Path(ag.__file__).parent / "py.typed").is_file()


def test_errors_print_as_autographs(tmp_path):
    code = ("import numpy as np, autograph as ag\n"
            "f = ag.convert(lambda x: x if x.sum() > 0 else -x, autograph=False,\n"
            "               eager_fallback=False)\n"
            "f(np.ones(2))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    last = [line for line in run.stderr.splitlines() if "Error" in line][-1]
    assert last.startswith("autograph.TracingError: "), run.stderr
    for name in ag.__all__:
        obj = getattr(ag, name)
        if isinstance(obj, type) and issubclass(obj, (Exception, Warning)):
            assert obj.__module__ == "autograph"
            assert pickle.loads(pickle.dumps(obj("x"))).args == ("x",)


ROOT = pathlib.Path(__file__).resolve().parent.parent
USE = ("import sys, numpy as np, autograph as ag\n"
       "def f(x):\n"
       "    while x.sum() < 10:\n"
       "        x = x * 2\n"
       "    return x\n"
       "print(ag.convert(f)(np.ones(2)), 'runtime' in sys.modules,\n"
       "      sys.modules['autograph_runtime'].__file__)\n")


def _run_beside_a_user_runtime(folder: pathlib.Path, env: dict | None = None) -> list[str]:
    (folder / "runtime.py").write_text("raise ImportError('the user runtime.py was imported')\n")
    (folder / "use.py").write_text(USE)
    run = subprocess.run([sys.executable, "use.py"], cwd=folder, capture_output=True,
                         text=True, env=env)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_setup_cfg_installs_every_package():
    """The runtime's folders install under `autograph_runtime`, none left out."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    listed = config["options"]["packages"].split()
    found = [".".join(("autograph_runtime" if p.parts[0] == "runtime" else p.parts[0],)
                      + p.parts[1:-1])
             for folder in ("autograph", "runtime")
             for p in (i.relative_to(ROOT) for i in (ROOT / folder).rglob("__init__.py"))]
    assert sorted(listed) == sorted(found)
    assert config["options"]["package_dir"].split() == ["autograph_runtime", "=", "runtime"]


def test_a_runtime_py_in_the_working_directory_is_not_imported(tmp_path):
    """This checkout's autograph (as installed, or on `PYTHONPATH`), run from a folder
    holding a user's runtime.py, which comes first on `sys.path`."""
    printed = _run_beside_a_user_runtime(tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert printed[:3] == ["[8.", "8.]", "False"]
    assert pathlib.Path(printed[3]) == ROOT / "runtime" / "__init__.py"


def test_the_wheel_holds_autograph_runtime_and_no_runtime(tmp_path):
    """Built as `pip install .` builds it (PyPI reachable for the build's setuptools),
    from a copy of the sources (a build writes `build/` beside them), and unpacked on
    `PYTHONPATH`: the installed layout imports beside a user's runtime.py."""
    source = tmp_path / "source"
    for name in ("autograph", "runtime"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("setup.cfg", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                            "-w", str(tmp_path / "dist"), str(source)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    [wheel] = (tmp_path / "dist").glob("*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(site)
    assert "autograph_runtime/tracer.py" in names and "autograph/py.typed" in names
    assert not [n for n in names if n.startswith("runtime/")]
    work = tmp_path / "work"
    work.mkdir()
    printed = _run_beside_a_user_runtime(work, env=dict(os.environ, PYTHONPATH=str(site)))
    assert printed[:3] == ["[8.", "8.]", "False"]
    assert pathlib.Path(printed[3]) == site / "autograph_runtime" / "__init__.py"


def test_the_public_functions_have_type_hints():
    """What `py.typed` promises: every public function's parameters and result annotated."""
    functions = [getattr(ag, name) for name in ag.__all__
                 if inspect.isfunction(getattr(ag, name))]
    assert len(functions) > 10
    for function in functions:
        typing.get_type_hints(function)   # every annotation resolves
        signature = inspect.signature(function)
        unannotated = [name for name, p in signature.parameters.items()
                       if p.annotation is inspect.Parameter.empty]
        assert not unannotated, f"{function.__name__}: {unannotated}"
        assert signature.return_annotation is not inspect.Signature.empty, function.__name__
