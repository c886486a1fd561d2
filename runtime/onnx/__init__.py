"""Export to ONNX: a graph as an ONNX model that onnxruntime runs.

Each primitive's lowering is a row of `primitives.onnx_lowerings` (`lower.Lowering`:
`fn(cx)` writing the equation's nodes through `builder.Scope`, and the opset it
needs), filled by one module per family: `elementwise_rules.py` (ufuncs, casts,
`where`, `clip`, Python's operators; NumPy's `//` and `%` in `arithmetic.py`),
`reduction_rules.py`, `shape_rules.py` (shapes, joins, basic indexing),
`linalg_rules.py`, `control_rules.py` (`cond` as `If`, `while_loop` as `Loop`,
`call` inlined) and `state_rules.py` (variables; `print`, `py_function` refused,
`assert` dropped with a warning). `export.export_graph` builds, checks and writes
a model; `onnx` and `onnxruntime` are imported by `modules.py` alone, when used.
"""
from . import control_rules, elementwise_rules, linalg_rules, reduction_rules, shape_rules
from . import state_rules
from .export import build_model, export_graph, write_model
from .modules import default_opset
from .state_rules import ExportWarning

__all__ = ["ExportWarning", "build_model", "control_rules", "default_opset",
           "elementwise_rules", "export_graph", "linalg_rules", "reduction_rules",
           "shape_rules", "state_rules", "write_model"]
