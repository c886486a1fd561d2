"""The examples in docstrings are real output: run them."""
import doctest
import importlib
import pkgutil

import pytest

import autograph
import autograph_runtime as runtime


OPTIONAL = {"numba", "cupy", "onnx", "onnxruntime", "dask", "distributed"}


def _modules():
    for package in (runtime, autograph):
        yield package.__name__
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith("__main__"):
                yield info.name


@pytest.mark.parametrize("name", sorted(_modules()))
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name not in OPTIONAL:
            raise
        pytest.skip(f"{name} needs {error.name}, an optional extra not installed")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
