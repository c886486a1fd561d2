"""runtime: the graph IR, the tracer and the executor (see runtime/README.md)."""
from . import ops  # noqa: F401  (fills the primitive tables)
from .abstract import AbstractValue
from .errors import AutographError, ConversionError, TracingError
from .ir import Eqn, Graph, Literal, Var
from .tracer import GraphBuilder, Tracer, bind, current_builder
from . import codegen_control  # noqa: F401  (registers the if/while emitters)
from .backend import Backend, get_backend, gpu_available
from .codegen import compile_graph
from .ops.control_flow import call, cond, while_loop
from .ops.introspection import dynamic_shape
