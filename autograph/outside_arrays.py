"""NumPy arrays a trace reaches but does not own: read-only while it traces.

A trace runs the function's Python once, and the graph then runs without it.
A write, with values known while tracing, into an array the function did not
make (a global's `W[:] = W * 2`, a closure's, an object's `self.buf[i] = x`
for a Python float `x`) would happen once, while tracing: the graph would
never write it again, and later calls would compute with what the trace left
(eagerly, `W` doubles at every call). So while a graph function traces for
a call that may run eagerly instead (the eager fallback, on by default), the
arrays it can reach from outside are read-only: those of the globals and
closure cells its code names, and of `self` and its arguments' lists, dicts
and objects, those in their containers too. Such a write raises NumPy's
read-only error, which the trace turns into a refusal (`OutsideArrayWritten`);
with the eager fallback on, the call runs eagerly and writes the array, as
eager code does:

    BUFFER = np.zeros(3)

    @ag.convert
    def push(x, i):
        BUFFER[i] = x          # refused for a Python x: runs eagerly, BUFFER written
        return BUFFER.sum()

Where a graph is what was asked for (`get_concrete_function`, the fallback
off), such a write happens while tracing, as `tf.function` keeps Python side
effects. A traced value written into such an array is refused either way
(`operators/array_writes.py`). The arrays are read-only for the trace's
duration only; another thread writing one meanwhile meets the read-only error
too.
"""
from __future__ import annotations

import numpy as np

from autograph_runtime import TracingError
from autograph_runtime.source import is_user_file, location_note, original_location

from .operators.containers import items_of


class OutsideArrayWritten(TracingError):
    """A trace wrote, in place, an array it did not make (`outside_arrays`)."""


def outside_arrays(named: dict, watched: list) -> dict:
    """{id: (array, label)} of the writeable NumPy arrays a trace reaches from outside:
    those `named` (`ModuleWatch.named`: the globals and closure cells of the function and
    of the helpers it reaches), and those in `watched` containers (`argument_containers.
    watch`'s entries: its arguments', `self`'s, its module's)."""
    found: dict = {}

    def add(value, label):
        if type(value) is np.ndarray and value.flags.writeable:
            found.setdefault(id(value), (value, label))

    for name, value in named.items():
        add(value, name)
    for container, _, label in watched:
        for key, value in items_of(container).items():
            add(value, f"{label}.{key}" if isinstance(key, str) else f"{label}[{key!r}]")
    return found


def refusal(error: BaseException, arrays: dict, function: str) -> TracingError | None:
    """`OutsideArrayWritten` for NumPy's read-only `error` raised while `arrays` were
    read-only (None for another error)."""
    if not arrays or not isinstance(error, ValueError) or "read-only" not in str(error):
        return None
    where, tb = None, error.__traceback__
    while tb is not None:   # the innermost line of the user's (converted) code
        code = tb.tb_frame.f_code
        if is_user_file(code.co_filename):
            where = original_location(code.co_filename, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    labels = ", ".join(repr(label) for _, label in list(arrays.values())[:4])
    more = ", ..." if len(arrays) > 4 else ""
    return OutsideArrayWritten(
        f"{function} writes in place, while tracing, into an array it did not make (one of "
        f"{labels}{more}, or an array that is read-only){location_note(where)}: the write "
        f"would happen once, while tracing, and never when the graph runs; pass the array "
        f"as an argument and return the new one, or keep it in an ag.Variable")
