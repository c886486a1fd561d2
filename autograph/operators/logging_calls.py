"""`logging` and `warnings.warn` calls in converted code: made each time the graph runs,
as `print` prints.

Eagerly, `log.info("step %d loss %.4f", i, loss)` logs at every call. While
tracing, the values are tracers, so calling the logger then would log once,
with tracer text (or fail inside `logging`, which reports "--- Logging error
---" and goes on). Converted code stages the call instead: a `py_function`
with no results, which makes the record when the graph runs, from the graph's
values, with the user's file, line and function as its location (the frames
of a running graph are not the user's). `logging.info(...)` and the methods of
a `Logger` or a `LoggerAdapter` (`debug`, `info`, `warning`, `warn`, `error`,
`critical`, `fatal`, `log`) are staged this way; levels, handlers, filters and
adapters' `process` are consulted when the graph runs, as eagerly.

    log.info("mean=%s", m)      # m traced: 'INFO mean=1.5' at every call of the graph

A scalar traced value reaches the record as the NumPy scalar (or, for a Python
number, the Python number) the eager code holds; arrays as arrays; an f-string
of traced values as its text.
"""
from __future__ import annotations

import logging
import sys
import types
import warnings

import numpy as np

from autograph_runtime import Tracer, current_builder
from autograph_runtime.ops.py_function import py_function
from autograph_runtime.source import user_source
from autograph_runtime.texts import FormattedText, render
from autograph_runtime.tree import flatten

from .conversions import eager_type

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
           "warn": logging.WARNING, "error": logging.ERROR, "critical": logging.CRITICAL,
           "fatal": logging.CRITICAL, "log": None}
_ROOT = object()   # `logging.info(...)`: the root logger, configured as `logging.info` does


def _owner(f):
    """The logger or adapter `f` logs through (`_ROOT` for `logging`'s own functions), or
    None where `f` is not a logging call."""
    name = getattr(f, "__name__", None)
    if name not in _LEVELS:
        return None
    if isinstance(f, types.MethodType) and \
            isinstance(f.__self__, (logging.Logger, logging.LoggerAdapter)):
        return f.__self__
    return _ROOT if f is getattr(logging, name, None) else None


def logging_call(f, args: tuple, kwargs: dict):
    """`f(*args, **kwargs)` for a logging call `f`: staged while tracing, so it logs each
    time the graph runs, else logged now (a `try` run as Python when the graph runs);
    NotImplemented for any other call."""
    owner = _owner(f)
    if owner is None:
        return NotImplemented
    level, where = _LEVELS[f.__name__], user_source()

    def emit(call_args, call_kwargs):
        if level is None:   # `log(level, msg, *args)`
            _record(owner, call_args[0], call_args[1], call_args[2:], call_kwargs, where)
        else:
            _record(owner, level, call_args[0], call_args[1:], call_kwargs, where)
    return when_the_graph_runs(emit, args, kwargs, f"logging call at {where}")


def warnings_call(f, args: tuple, kwargs: dict):
    """`warnings.warn(message, category, stacklevel)`, staged as a logging call is: it warns
    each time the graph runs (once per place, as Python's filters say), at the user's
    line; NotImplemented for any other call."""
    if f is not warnings.warn:
        return NotImplemented
    where = user_source()
    module = _module_of(where.filename if where is not None else None)

    def emit(call_args, call_kwargs):
        message, category = _message_and_category(*call_args, **call_kwargs)
        if isinstance(message, Warning):   # `warnings.warn(RuntimeWarning("..."))`
            category = type(message)
        warnings.warn_explicit(
            message, category or UserWarning, where.filename if where else "sys",
            where.lineno if where else 1, module=module.get("__name__", "__main__"),
            registry=module.setdefault("__warningregistry__", {}),
            module_globals=module)
    return when_the_graph_runs(emit, args, kwargs, f"warnings.warn at {where}")


def _module_of(filename) -> dict:
    """The globals of the module whose file is `filename` (its warnings registry is kept
    there, as `warnings.warn` keeps it), else a dict of its own."""
    for module in list(sys.modules.values()):
        if getattr(module, "__file__", None) == filename:
            return vars(module)
    return {"__name__": "__main__"}


def _message_and_category(message, category=None, stacklevel=1, source=None, **_):
    """What `warnings.warn`'s arguments say to warn of (the place is the user's line)."""
    return message, category


def when_the_graph_runs(emit, args: tuple, kwargs: dict, label: str):
    """`emit(args, kwargs)` now outside tracing; while tracing, a `py_function` with no
    results that calls it each time the graph runs, with the graph's values as eager code
    holds them (and an f-string of traced values as its text)."""
    if current_builder() is None:
        return emit(args, kwargs)
    leaves, tree = flatten((args, kwargs))
    slots, operands = [], []   # per leaf: the value, or how to make it from the operands
    for leaf in leaves:
        if isinstance(leaf, FormattedText):
            slots.append(("text", leaf.parts, len(operands), len(leaf.values)))
            operands.extend(leaf.values)
        elif isinstance(leaf, Tracer):
            slots.append(("traced", len(operands)))
            operands.append(leaf)
        else:
            slots.append(("value", leaf))
    kinds = [eager_type(x) if isinstance(x, Tracer) else None for x in operands]
    constants = [None if kind else x for x, kind in zip(operands, kinds)]   # (not tracers)

    def run(*values):   # (an f-string's Python values are passed as they are)
        values = [_as_eager(v, kind) if kind else x
                  for v, kind, x in zip(values, kinds, constants)]
        emit(*tree.unflatten([_filled(slot, values) for slot in slots]))
        return ()
    run.__name__ = label
    py_function(run, *operands, out=(), always_stage=True)   # with no traced value too
    return None


def _as_eager(value, kind: type):
    """A graph's value as the eager code holds it (`kind`, `conversions.eager_type`): a
    Python number for a weak value, a NumPy scalar, else an array (0-d for a 0-d array
    argument)."""
    if kind is np.ndarray:
        return np.asarray(value)
    return np.asarray(value)[()] if issubclass(kind, np.generic) else kind(value)


def _filled(slot, values):
    kind = slot[0]
    if kind == "value":
        return slot[1]
    if kind == "traced":
        return values[slot[1]]
    _, parts, start, count = slot
    return render(parts, values[start:start + count])


def _record(owner, level, msg, args, kwargs, where):
    """What `Logger._log` does, with `where` (the user's line) as the record's location."""
    if owner is _ROOT:
        if not logging.root.handlers:
            logging.basicConfig()
        owner = logging.root
    if not isinstance(level, int):
        if logging.raiseExceptions:
            raise TypeError("level must be an integer")
        return
    if isinstance(owner, logging.LoggerAdapter):
        if not owner.isEnabledFor(level):
            return
        msg, kwargs = owner.process(msg, kwargs)
        owner = owner.logger
    if not owner.isEnabledFor(level):
        return
    exc_info = kwargs.get("exc_info")
    if exc_info:
        if isinstance(exc_info, BaseException):
            exc_info = (type(exc_info), exc_info, exc_info.__traceback__)
        elif not isinstance(exc_info, tuple):
            exc_info = sys.exc_info()
    filename, lineno, function = (where.filename, where.lineno, where.function) \
        if where is not None else ("(unknown file)", 0, "(unknown function)")
    owner.handle(owner.makeRecord(owner.name, level, filename, lineno, msg, tuple(args),
                                  exc_info or None, function, kwargs.get("extra"), None))
