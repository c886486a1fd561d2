"""Naming traced values after the user's variables.

While a function is traced, a line tracer (`sys.settrace`, this thread only)
looks at the locals of the user's frames before each line and on return, and
gives each still-unnamed traced value the name of the variable holding it. The
graph then prints `h = ...` where the user wrote `h = ...`. Where another
tracer is installed (a debugger, coverage), names fall back to `t0, t1, ...`.
"""
from __future__ import annotations

import contextlib
import sys

from .source import is_user_file
from .tracer_value import Tracer


def _name_locals(frame):
    for name, value in frame.f_locals.items():
        if type(value) is Tracer and value.node.name is None:
            value.node.name = name


def _local_tracer(frame, event, arg):
    if event == "line" or event == "return":
        _name_locals(frame)
    return _local_tracer


def _global_tracer(frame, event, arg):
    if is_user_file(frame.f_code.co_filename):
        return _local_tracer
    return None


@contextlib.contextmanager
def variable_names():
    """Within the block, traced values take the names of the locals holding them."""
    if sys.gettrace() is not None:
        yield
        return
    sys.settrace(_global_tracer)
    try:
        yield
    finally:
        sys.settrace(None)
