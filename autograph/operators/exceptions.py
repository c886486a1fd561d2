"""`try`/`except`/`finally` around converted code.

Converted code keeps `try` a Python statement (the `tries` converter); two
things make it keep Python's meaning around converted control flow:

- **The values at the raise.** An exception that leaves a converted `if` or
  loop body (a generated function taking and returning its state) would lose
  the assignments the body made before it raised. `caught(error, values,
  names)`, the first statement of each handler, reads them back from the
  frames of the generated functions the exception passed through (its
  traceback), innermost last, as Python would have left them.
- **Errors a staged body raises when the graph runs.** An error raised while
  tracing a staged branch or loop body is staged, to be raised when that body
  runs (`runtime.ops.subgraphs.deferring_errors`); a staged `assert` (or a
  staged `UnboundLocalError`) is too. An `except` around it would have to catch
  an error raised inside the running graph, which it cannot: inside
  `try_region(handled, where)` such an error of a handled type is refused with
  a `TracingError` naming the `except`, while tracing, instead of escaping
  the handler at run time; where the `try` became `ag__.try_stmt` (its
  handlers may catch what a kernel raises, `staged_tries.py`), the statement
  runs as Python when the graph runs instead, and its handler catches it.
  Errors raised while tracing code that runs unconditionally are caught while
  tracing, as eagerly (the handler's code is traced instead).

>>> import numpy as np
>>> import autograph as ag
>>> @ag.convert
... def safe_inverse(x):
...     try:
...         if x > 0:
...             y = 1.0 / x
...         else:
...             y = -1.0
...         y = 1 // int(y * 0)
...     except ZeroDivisionError:
...         y = y + 100      # the `y` the converted `if` bound
...     return y
>>> safe_inverse(4.0), safe_inverse(-3.0)
(100.25, 99.0)
"""
from __future__ import annotations

import contextlib
import re
import sys
import threading

from autograph_runtime import Tracer, TracingError, current_builder
from autograph_runtime.errors import AutographError
from autograph_runtime.ops import subgraphs
from autograph_runtime.ops.effects import assert_p, raised_at, remade
from autograph_runtime.source import is_library_file, location_note, user_source

from ..pyct.errors import ConversionError

# The functions the converters generate for control-flow bodies (`if_true_1`, ...).
_GENERATED = re.compile(r"(if_true|if_false|loop_body|loop_test|extra_test|try_stmt)(_\d+)?$")


class _Regions(threading.local):
    def __init__(self):
        self.stack = []
        self.injected = None   # (where, depth, at, error): `raising_in`'s


_regions = _Regions()


class Probe:
    """A `try` statement being traced: whether it must run as Python in the graph."""

    def __init__(self, where: str):
        self.where = where
        self.staged_errors = []   # the types of staged `raise`s/`assert`s its handlers catch


class _Probes(threading.local):
    def __init__(self):
        self.stack = []


probes = _Probes()


def staging_instead(where: str, error: BaseException) -> bool:
    """Whether the `try` at `where` is being traced to run as Python when a staged error
    of its body says so (instead of refusing the error: `refuse_if_caught`)."""
    for probe in reversed(probes.stack):
        if probe.where == where:
            probe.staged_errors.append(type(error))
            return True
    return False


@contextlib.contextmanager
def try_region(handled, where: str):
    """Marks the body of a `try` whose handlers catch `handled()` (a tuple of types)."""
    _raise_injected(where, "start")
    _regions.stack.append((handled, where))
    try:
        yield
    finally:
        _regions.stack.pop()
    _raise_injected(where, "end")


@contextlib.contextmanager
def raising_in(where: str, at: str, error: BaseException):
    """Within it, the body of the `try` at `where` entered next at this depth raises
    `error` at its `at` ("start" or "end"), so that tracing the statement traces the
    handler that catches it (`staged_tries`)."""
    outer = _regions.injected
    _regions.injected = (where, len(_regions.stack), at, error)
    try:
        yield
    finally:
        _regions.injected = outer


def _raise_injected(where: str, at: str) -> None:
    injected = _regions.injected
    if injected is not None and injected[:3] == (where, len(_regions.stack), at):
        _regions.injected = None
        raise injected[3]


def refuse_if_caught(error: BaseException, what: str = "it") -> None:
    """Raises `TracingError` where an enclosing `try` would catch `error`, which the
    graph raises when it runs (so no handler traced now can catch it)."""
    for handled, where in reversed(_regions.stack):
        try:
            types = handled()
        except Exception:  # noqa: BLE001 - a handler type Python would only read on a raise
            types = BaseException
        if isinstance(error, types):
            if staging_instead(where, error):  # the statement runs as Python in the graph
                return
            at = location_note(raised_at(error) or user_source())
            raise TracingError(
                f"{type(error).__name__}({error}) {what}{at} is "
                f"raised inside the running graph, where the `except` at {where} cannot catch "
                f"it; test the condition before the `try`, or make it a Python value") from error


def refuse_graph_failures(eqns) -> None:
    """`refuse_if_caught` for each failure the equations (a graph function's `call`, traced
    before, perhaps outside any `try`) stage: its `assert`s."""
    if not _regions.stack:
        return
    for eqn in eqns:
        for inner in [eqn, *(e for g in eqn.subgraphs() for e in g.all_eqns())]:
            if inner.primitive is assert_p:
                params = inner.params
                args = params.get("args")
                error = remade(params.get("error", AssertionError), args) if args is not None \
                    else params.get("error", AssertionError)()
                refuse_if_caught(error, "of a graph function called in the `try`")


def _deferred(error):
    refuse_if_caught(error, "of a staged branch or loop body")
    return False


subgraphs.undeferred_errors.append(_deferred)


def _values_at_raise(error: BaseException, frame) -> dict:
    """The locals of the generated control-flow functions `error` left, below `frame`."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame is not frame:
        tb = tb.tb_next
    values = {}
    filename = frame.f_code.co_filename
    tb = tb.tb_next if tb is not None else None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not is_library_file(code.co_filename):
            if code.co_filename != filename or not _GENERATED.match(code.co_name):
                break  # a function of the user's: its locals are not this function's
            values.update(tb.tb_frame.f_locals)
        tb = tb.tb_next
    return values


def suppressed(manager, types: tuple) -> tuple:
    """The types `with manager(*types):` suppresses, where it is `contextlib.suppress`."""
    if manager is not contextlib.suppress:
        raise TypeError(f"autograph converted `with {getattr(manager, '__name__', manager)}"
                        f"(...)` as `contextlib.suppress`, which it is not; rename it")
    return types


def entered_suppress(manager, types: tuple) -> None:
    """What `with manager(*types) as name` binds `name` to: None, where it is
    `contextlib.suppress` (whose `__enter__` gives None)."""
    suppressed(manager, types)


def caught(error: BaseException, values: tuple, names: tuple) -> tuple:
    """`values` of `names` as Python leaves them where `error` was raised.

    The project's own errors are never caught by the user's handlers: eagerly
    there would have been none.
    """
    if isinstance(error, (AutographError, ConversionError)):
        raise error
    if not names:
        return ()
    recovered = _values_at_raise(error, sys._getframe(1))
    return tuple(recovered[name] if name in recovered and _usable(recovered[name]) else value
                 for name, value in zip(names, values))


def _usable(value) -> bool:
    """False for a traced value of a staged body (an error both branches raised left it)."""
    if not isinstance(value, Tracer):
        return True
    builder = current_builder()
    while builder is not None and builder is not value.builder:
        builder = builder.parent
    return builder is not None
