"""The primitives, one module per family; importing this package fills the tables."""
from . import elementwise  # noqa: F401
from . import indexing  # noqa: F401
from . import control_flow, introspection, py_function  # noqa: F401
from . import shape_ops, joining  # noqa: F401
from . import reductions  # noqa: F401
from . import linalg  # noqa: F401
from . import sorting  # noqa: F401
from . import creation  # noqa: F401
from . import effects  # noqa: F401
