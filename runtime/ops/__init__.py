"""The primitives, one module per family; importing this package fills the tables."""
from . import (  # noqa: F401
    call,
    control_flow,
    creation,
    effects,
    elementwise,
    indexing,
    introspection,
    joining,
    linalg,
    py_function,
    reductions,
    shape_ops,
    sorting,
    state,
    while_loop,
    while_primitive,
)
