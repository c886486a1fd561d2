"""autograph: ordinary NumPy functions, traced into graphs and run fast.

    import autograph as ag

    @ag.convert
    def f(x):
        return np.tanh(x) * 2

`f` runs as a graph traced once per input signature. The public surface is
described in the project's API document and the README.
"""
from runtime.errors import AutographError, ConversionError, TracingError
from runtime.ops.introspection import dynamic_shape as shape
from runtime.ops.py_function import py_function
from runtime.variables import Variable

from .checkpoint import Checkpoint, CheckpointMismatchError
from .conversion import to_code
from .convert import convert
from .device import device
from .function import ConcreteFunction, GraphFunction, RetracingWarning
from .gradients import grad, value_and_grad
from .saved_files import LoadError
from .saving import LoadedFunction, load, save
from .specs import TensorSpec

__all__ = [
    "AutographError", "ConcreteFunction", "ConversionError", "GraphFunction",
    "RetracingWarning", "TensorSpec", "TracingError", "convert", "device", "py_function", "shape",
    "to_code", "grad", "value_and_grad", "Variable", "save", "load", "LoadedFunction",
    "LoadError", "Checkpoint", "CheckpointMismatchError",
]
