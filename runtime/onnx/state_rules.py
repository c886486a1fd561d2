"""ONNX lowerings of `Variable` access and of the effects ONNX has no operator for.

A variable's value is one ONNX value at a time (`VariableSlot.name`): a read is
that value, a write (`assign`, `add`, `sub`, cast to the variable's dtype and
broadcast to its shape as `np.copyto` does) makes the next one. A variable only
read is an initializer; one written is an extra input (its value before) and an
extra output (its value after), recorded in the model's metadata
(`runtime.onnx.export`). Inside an `if` each branch writes a copy of the slot, and
a variable either branch writes is one more output of the `If`; a loop carries
the variables its body reads (`control_rules`).

`print`, `py_function` and `python_block` (a `try` run as Python) run Python, which a
model cannot: refused. An
`assert` is dropped, with an `ExportWarning` naming its line: ONNX has no
operator that fails a run.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..abstract import python_example
from ..ops.effects import assert_p, print_p
from ..ops.py_function import py_function_p
from ..ops.python_block import python_block_p
from ..ops.state import assign_variable_p, read_variable_p
from .builder import VariableSlot
from .lower import lowering


class ExportWarning(UserWarning):
    """Something of the graph the ONNX model leaves out (an `assert`)."""


def _slot(cx) -> VariableSlot:
    return cx.scope.env[cx.eqn.inputs[0].id]


@lowering(read_variable_p)
def _read(cx):
    return [_slot(cx).name]


@lowering(assign_variable_p)
def _assign(cx):
    slot = _slot(cx)
    dtype, mode = cx.out_dtype, cx.params["mode"]
    if mode == "assign":
        value = cx.arg(1, dtype)
    else:   # NumPy's `current + value` in their promoted dtype, then stored as the variable's
        value_aval = cx.in_avals[1]
        compute = np.result_type(np.empty((), dtype), python_example(value_aval)
                                 if value_aval.weak else np.empty((), value_aval.dtype))
        current = cx.cast(slot.name, dtype, compute)
        value = cx.node("Add" if mode == "add" else "Sub", [current, cx.arg(1, compute)])
        value = cx.cast(value, compute, dtype)
    shape = cx.out_avals[0].shape
    if tuple(cx.in_avals[1].shape) != tuple(shape):
        value = cx.node("Expand", [value, cx.ints(shape)])
    elif value == slot.name or value not in cx.scope.produced:
        value = cx.node("Identity", [value])
    slot.name, slot.written = value, True
    return [value]


@lowering(assert_p)
def _assert(cx):
    source = cx.eqn.source
    message = (f"the assert{f' at {source}' if source else ''} is not exported: ONNX has no "
               f"operator that fails a run, so the model computes on where the function "
               f"would raise")
    if source is None:
        warnings.warn(message, ExportWarning, stacklevel=2)
    else:
        warnings.warn_explicit(message, ExportWarning, source.filename, source.lineno)
    return []


@lowering(print_p)
def _print(cx):
    raise cx.refuse("a model cannot print (ONNX has no output to a console); "
                    "leave print out of the exported function")


@lowering(python_block_p)
def _python_block(cx):
    raise cx.refuse(f"{cx.params['what']} runs as Python when the graph runs "
                    f"({cx.params['why']}), which an ONNX model cannot; export a function "
                    f"without it")


@lowering(py_function_p)
def _py_function(cx):
    name = getattr(cx.params["fn"], "__name__", "?")
    raise cx.refuse(f"ag.py_function runs the Python function {name!r}, which an ONNX model "
                    f"cannot call")

