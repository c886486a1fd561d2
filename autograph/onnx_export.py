"""`ag.export_onnx(f, path, *specs, opset=None)`: graph functions as ONNX models.

`f` is a graph function (`ag.convert`), a `ConcreteFunction` or a loaded one
(`ag.load`). With specs (arrays, `TensorSpec`s, Python values, as for
`get_concrete_function`), the one signature they choose is written to `path`.
Without, every signature `f` has (traced, or saved) is written: one to `path`
itself, several to `path`'s stem numbered in the order they were traced
(`model.onnx` -> `model_0.onnx`, `model_1.onnx`, ...). Returns the paths written.

The model computes what the graph does (`autograph_runtime.onnx`); `opset` caps
the ONNX opset it may use (default: the newest the installed onnxruntime runs).
"""
from __future__ import annotations

import os

from .device import current_device
from .function import ConcreteFunction, GraphFunction
from .saving import LoadedFunction


def export_onnx(f: GraphFunction | ConcreteFunction | LoadedFunction,
                path: str | os.PathLike, *specs: object, opset: int | None = None) -> list[str]:
    """Writes an ONNX model per signature of `f`; returns their paths."""
    concretes = _concretes(f, specs)
    if len(concretes) == 1:
        paths = [os.fspath(path)]
    else:
        stem, ext = os.path.splitext(os.fspath(path))
        paths = [f"{stem}_{i}{ext or '.onnx'}" for i in range(len(concretes))]
    for concrete, target in zip(concretes, paths):
        concrete.export_onnx(target, opset=opset)
    return paths


def _concretes(f, specs) -> list:
    if isinstance(f, ConcreteFunction):
        if specs:
            raise TypeError("a ConcreteFunction has one signature: export it without specs")
        return [f]
    if isinstance(f, LoadedFunction):
        if specs:
            return [f.get_concrete_function(*specs)]
        return [saved.concrete(current_device()) for saved in f._signatures]
    if not isinstance(f, GraphFunction):
        raise TypeError(f"ag.export_onnx takes a graph function (from ag.convert), a "
                        f"ConcreteFunction or a loaded function, not {f!r}")
    if specs:
        return [f.get_concrete_function(*specs)]
    concretes = list(dict.fromkeys(f._traces.values()))
    if not concretes:
        raise ValueError(f"{f.__qualname__} has no traced signature to export: call it first "
                         f"or pass the specs (ag.export_onnx(f, path, ag.TensorSpec(...)))")
    return concretes
