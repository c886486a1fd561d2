"""The functions converted code calls (as `ag__.*`): Python on concrete values, staged on traced ones."""
from runtime.ops import effects
from runtime.undefined import Placeholder, Undefined

from .calls import converted_call
from .conditionals import if_exp, if_stmt
from .lists import list_append
from .logical import and_, compare_chain, not_, or_
from .loops import enumerate_, for_stmt, range_, while_stmt, zip_
from .writes import check_global_write, setattr_, setitem

__all__ = ["Placeholder", "Undefined", "and_", "assert_", "bound_or_undefined", "compare_chain", "check_global_write", "converted_call",
           "enumerate_", "for_stmt", "if_exp", "if_stmt", "ld", "list_append", "not_", "or_", "print_", "range_",
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


def print_(*values, sep=" ", end="\n", file=None, flush=False):
    """`print` in converted code: while tracing it prints each time the graph runs.

    The eager function prints at every call, so the graph does too, for Python
    values as well as traced ones (a `file` other than stdout prints while tracing).
    """
    ld(values)
    if file is not None:
        print(*values, sep=sep, end=end, file=file, flush=flush)
        return
    effects.print_(*values, sep=sep, end=end, always_stage=True)


def ld(value):
    """`value`, or the `UnboundLocalError` Python raises for an unbound variable in it."""
    if isinstance(value, Undefined):
        raise value.error()
    if type(value) in (tuple, list):
        for item in value:
            ld(item)
    return value
