"""autograph: ordinary NumPy functions, traced into graphs and run fast.

    import autograph as ag

    @ag.convert
    def f(x):
        return np.tanh(x) * 2

`f` runs as a graph traced once per input signature. The public surface is
described in the project's API document and the README.
"""
from . import runtime_package as _runtime_package  # noqa: F401  (first: binds `autograph_runtime`)
from autograph_runtime import source as _source
from autograph_runtime.errors import (AutographError, ContainerStagingError, DaskGatherError,
                                      ExportError, NoneOnThisPathError, PathTypeError,
                                      TracingError, UnhashableTracedValue,
                                      UnsupportedAttributeError)
from autograph_runtime.dask_gather import OneChunkWarning
from autograph_runtime.onnx import ExportWarning
from autograph_runtime.ops.introspection import dynamic_shape as shape
from autograph_runtime.ops.random import FrozenRandomWarning
from autograph_runtime.ops.py_function import py_function
from autograph_runtime.serialization import SerializationError
from autograph_runtime.variables import Variable

from .checkpoint import Checkpoint, CheckpointMismatchError
from .conversion import ConversionWarning
from .conversion import convert_callee as _convert_callee
from .conversion import to_code
from .convert import convert
from .device import device
from . import error_hints as _error_hints  # noqa: F401 - the runtime's hints, in ag's names
from .eager_fallback import FallbackWarning, set_eager_fallback
from .eager_mode import functions_run_eagerly, run_functions_eagerly
from .function import ConcreteFunction, GraphFunction, RetracingWarning
from .gradients import grad, value_and_grad
from .operators import calls as _calls
from .operators.calls import do_not_convert
from .operators.frozen import FrozenValueWarning
from .operators.loops import UnrolledLoopWarning
from .pyct import errors as _errors
from .pyct import source_map as _source_map
from .pyct.errors import ConversionError
from .saved_files import LoadError
from .onnx_export import export_onnx
from .saving import LoadedFunction, load, save
from .specs import TensorSpec
from .tiers import set_tier
from .trace_log import set_verbosity
from .tracebacks import set_traceback_filtering
from .version import __version__

# What the converter owns, tied into the runtime (which knows nothing of it):
# its error becomes an AutographError, its folder is library code, its source
# maps are how tracebacks and equations find the user's lines in converted
# code, and converted_call converts with it (graph functions are called as they are).
_errors.make_subclass_of(AutographError)
_source.register_library_dir(__path__[0])
_source.register_location_resolver(_source_map.original_location)
_calls.set_converter(_convert_callee, lambda f: isinstance(f, GraphFunction))

__all__ = [
    "AutographError", "ConcreteFunction", "ConversionError", "ConversionWarning",
    "GraphFunction", "RetracingWarning", "TensorSpec", "PathTypeError", "TracingError", "convert", "device",
    "do_not_convert", "py_function", "shape", "to_code", "grad", "value_and_grad", "Variable",
    "save", "load", "LoadedFunction", "LoadError", "Checkpoint", "CheckpointMismatchError",
    "set_tier", "__version__", "UnrolledLoopWarning", "FrozenRandomWarning",
    "SerializationError", "run_functions_eagerly", "functions_run_eagerly", "set_verbosity",
    "set_traceback_filtering", "FrozenValueWarning", "export_onnx", "ExportError",
    "ExportWarning", "OneChunkWarning", "DaskGatherError", "FallbackWarning",
    "set_eager_fallback", "UnhashableTracedValue", "ContainerStagingError",
    "NoneOnThisPathError", "UnsupportedAttributeError",
]

# The errors and warnings print as `autograph.TracingError`, never `runtime.errors....`
# (where they are defined is internal); `autograph.X` is also where pickle finds them.
for _name in __all__:
    _obj = globals()[_name]
    if isinstance(_obj, type) and issubclass(_obj, (Exception, Warning)):
        _obj.__module__ = __name__
