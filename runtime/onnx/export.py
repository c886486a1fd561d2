"""`export_graph`: a graph as an ONNX model, checked by `onnx.checker` and written atomically.

The model's inputs are the graph's array inputs, named after the user's
arguments, with each unknown dimension a symbolic one (`x_dim0`); its outputs
are the graph's outputs, then the values after of the variables it writes. A
variable only read is an initializer holding its value at export time; one
written is also an input (its value before). Metadata `autograph.variables`
(JSON) maps each variable to its input/initializer and output names. The
model's opset is the highest any lowering used needs (at least 13), and an
`ExportError` where that is above `opset`.
"""
from __future__ import annotations

import json
import os
import tempfile

import numpy as np

from ..errors import ExportError
from . import modules
from .builder import ModelBuilder, Scope, VariableSlot
from .lower import lower_graph, output_names


def build_model(graph, variables=(), opset: int | None = None, name: str | None = None):
    """The ONNX `ModelProto` of `graph`; `variables` are bound to its last inputs."""
    helper = modules.load("onnx.helper")
    limit = modules.default_opset() if opset is None else int(opset)
    model = ModelBuilder(limit)
    scope = Scope(model)
    n_arrays = len(graph.inputs) - len(variables)
    inputs = []
    for i, var in enumerate(graph.inputs[:n_arrays]):
        input_name = model.fresh(var.name or f"input{i}")
        dims = [d if d is not None else f"{input_name}_dim{k}" for k, d in enumerate(var.aval.shape)]
        inputs.append((input_name, var.aval.dtype, dims))
        scope.env[var.id] = input_name
    slots = []
    for var, variable in zip(graph.inputs[n_arrays:], variables):
        slot = VariableSlot(variable, model.fresh(_identifier(variable.name)))
        scope.env[var.id] = slot
        slots.append((slot, slot.name))
    lower_graph(scope, graph)
    dtypes = [a.aval.dtype for a in graph.outputs]
    outs = output_names(scope, graph.outputs, dtypes)
    outputs = [(n, a.aval.dtype, list(a.aval.shape)) for n, a in zip(outs, graph.outputs)]
    initializers, mapping = list(model.initializers), []
    for slot, before in slots:
        variable = slot.variable
        entry = {"variable": variable.name, "shape": list(variable.shape),
                 "dtype": np.dtype(variable.dtype).name}
        if slot.written:
            inputs.append((before, variable.dtype, list(variable.shape)))
            after = scope.node("Identity", [slot.name], hint=f"{before}_after")
            outputs.append((after, variable.dtype, list(variable.shape)))
            entry.update(input=before, output=after)
        else:
            initializers.append((before, np.array(variable.numpy(), order="C")))
            entry.update(initializer=before)
        mapping.append(entry)
    graph_name = _identifier(name or graph.name)
    proto = scope.graph_proto(graph_name, inputs, outputs, initializers)
    opsets = [helper.make_opsetid("", model.opset)]
    result = helper.make_model(proto, opset_imports=opsets, producer_name="autograph-numpy",
                               ir_version=helper.find_min_ir_version_for(opsets))
    helper.set_model_props(result, {"autograph.variables": json.dumps(mapping)})
    checker = modules.load("onnx.checker")
    try:
        checker.check_model(result, full_check=True)
    except Exception as error:  # noqa: BLE001 - onnx raises its own ValidationError types
        raise ExportError(f"the ONNX model of {graph_name} fails onnx.checker: {error}") from None
    return result


def write_model(model, path) -> str:
    """Writes `model` to `path` atomically (a temporary file, then `os.replace`)."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".onnx-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(model.SerializeToString())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return path


def export_graph(graph, path, variables=(), opset: int | None = None, name: str | None = None):
    """Builds, checks and writes the model of `graph`; returns the `ModelProto`."""
    model = build_model(graph, variables, opset, name)
    write_model(model, path)
    return model


def _identifier(text: str) -> str:
    cleaned = "".join(c if c.isalnum() or c == "_" else "_" for c in str(text))
    return cleaned if cleaned and not cleaned[0].isdigit() else f"v_{cleaned}"
