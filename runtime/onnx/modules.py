"""`onnx` and `onnxruntime`, imported here only, when an export or a check needs them.

Both are the optional extra `.[onnx]`; a missing one is an `ExportError` saying
what to install. `default_opset()` is the newest opset the installed onnxruntime
runs: onnxruntime does not report it, so a table of its releases says (a
release newer than the table gets the table's last entry, capped by what the
installed `onnx` knows).
"""
from __future__ import annotations

import importlib

from ..errors import ExportError

# onnxruntime (major, minor) -> the newest ai.onnx opset it implements
ORT_OPSETS = {(1, 17): 20, (1, 18): 21, (1, 19): 21, (1, 20): 21, (1, 21): 22, (1, 22): 22,
              (1, 23): 23}


def load(name: str):
    """The module `onnx` or `onnxruntime` (or a submodule), or an `ExportError`."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise ExportError(f"exporting to ONNX needs the packages onnx and onnxruntime "
                          f"(pip install 'autograph-numpy[onnx]'): {error}") from None


def default_opset() -> int:
    """The newest opset both the installed onnx and onnxruntime know."""
    newest_onnx = load("onnx.defs").onnx_opset_version()
    try:
        version = tuple(int(p) for p in load("onnxruntime").__version__.split(".")[:2])
    except ExportError:
        return newest_onnx
    known = [opset for release, opset in ORT_OPSETS.items() if release <= version]
    return min(newest_onnx, known[-1] if known else min(ORT_OPSETS.values()))
