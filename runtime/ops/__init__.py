"""The primitives, one module per family; importing this package fills the tables."""
from . import (  # noqa: F401  # noqa: F401
    control_flow,
    creation,  # noqa: F401
    effects,  # noqa: F401
    elementwise,  # noqa: F401
    indexing,  # noqa: F401
    introspection,
    joining,
    linalg,  # noqa: F401
    py_function,
    reductions,  # noqa: F401
    shape_ops,
    sorting,  # noqa: F401
    state,
)
