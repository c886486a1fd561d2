"""`print` and `assert` in converted code."""
from __future__ import annotations

from runtime import Tracer
from runtime.ops.effects import assert_ as staged_assert
from runtime.ops.effects import print_ as staged_print
from runtime.tracer import read_if_variable

from .undefined import ld


def assert_(condition, message_fn=None):
    """`assert condition, message`: the message is evaluated only when needed."""
    condition = read_if_variable(condition)
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
    staged_print(*values, sep=sep, end=end, always_stage=True)
