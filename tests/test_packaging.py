"""What the package says about itself: its version, its exported errors, its type marker."""
from __future__ import annotations

import importlib.metadata
import pathlib
import pickle
import subprocess
import sys

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


def test_the_package_is_marked_typed():
    assert (pathlib.Path(ag.__file__).parent / "py.typed").is_file()


def test_errors_print_as_autographs(tmp_path):
    code = ("import numpy as np, autograph as ag\n"
            "f = ag.convert(lambda x: x if x.sum() > 0 else -x, autograph=False)\n"
            "f(np.ones(2))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    last = [line for line in run.stderr.splitlines() if "Error" in line][-1]
    assert last.startswith("autograph.TracingError: "), run.stderr
    for name in ag.__all__:
        obj = getattr(ag, name)
        if isinstance(obj, type) and issubclass(obj, (Exception, Warning)):
            assert obj.__module__ == "autograph"
            assert pickle.loads(pickle.dumps(obj("x"))).args == ("x",)
