"""runtime: the graph IR, the tracer and the executor (see runtime/README.md)."""
from . import codegen_control, dask_backend, dask_forms, ops, printing  # noqa: F401  (fill the tables; print graphs)
from .abstract import AbstractValue
from .backend import Backend, get_backend, gpu_available
from .codegen import compile_graph
from .errors import AutographError, DaskGatherError, PathTypeError, TracingError
from .ir import Eqn, Graph, Literal, Var
from .ops.call import call
from .ops.control_flow import cond
from .ops.while_loop import while_loop
from .ops.introspection import dynamic_shape
from .tracer import GraphBuilder, Tracer, bind, current_builder

__all__ = [
    "AbstractValue", "AutographError", "Backend", "DaskGatherError", "Eqn", "Graph",
    "GraphBuilder", "Literal", "Tracer", "PathTypeError", "TracingError", "Var", "bind", "call",
    "compile_graph", "cond", "current_builder", "dynamic_shape", "get_backend",
    "gpu_available", "while_loop",
]
