"""The functions converted code calls (as `ag__.*`): Python on concrete values, staged on traced ones."""
from runtime.ops.effects import print_
from runtime.undefined import Placeholder, Undefined

from .calls import converted_call
from .conditionals import if_exp, if_stmt
from .lists import list_append
from .logical import and_, not_, or_
from .loops import enumerate_, for_stmt, range_, while_stmt, zip_
from .writes import check_global_write, setattr_, setitem

__all__ = ["Placeholder", "Undefined", "and_", "assert_", "bound_or_undefined", "check_global_write", "converted_call",
           "enumerate_", "for_stmt", "if_exp", "if_stmt", "list_append", "not_", "or_", "print_", "range_",
           "setattr_", "setitem", "while_stmt", "zip_"]


def bound_or_undefined(read, name: str):
    """The value `read()` gives, or `Undefined(name)` where the variable is unbound."""
    try:
        return read()
    except NameError:
        return Undefined(name)


def assert_(condition, message_fn=None):
    """`assert condition, message`: the message is evaluated only when needed."""
    from runtime import Tracer
    from runtime.ops.effects import assert_ as staged_assert
    if not isinstance(condition, Tracer):
        if not condition:
            raise AssertionError(message_fn()) if message_fn is not None else AssertionError
        return
    staged_assert(condition, message_fn() if message_fn is not None else None)
