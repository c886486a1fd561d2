"""`converted_call`: how converted code calls other functions.

User functions, lambdas, nested functions and methods are converted too
(once each, cached); NumPy, the standard library, installed packages,
builtins and graph functions are called as they are.
"""
from __future__ import annotations

import functools
import os
import sysconfig
import types

import numpy as np

from .effects import print_
from .lists import LIST_FUNCTIONS, is_traced_list, list_call

_LIBRARY_DIRS = tuple({os.path.realpath(p) + os.sep for p in (
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"],
    sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
    os.path.dirname(np.__file__),
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))),      # autograph/
    os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                 "runtime"),
)})


@functools.lru_cache(maxsize=4096)
def _is_user_file(filename: str) -> bool:
    if filename.startswith("<"):
        return not filename.startswith(("<frozen", "<autograph"))
    return not os.path.realpath(filename).startswith(_LIBRARY_DIRS)


def is_user_function(fn) -> bool:
    """A Python function defined outside the libraries (so it is converted)."""
    return isinstance(fn, types.FunctionType) and _is_user_file(fn.__code__.co_filename)


def converted_call(f, args, kwargs):
    """`f(*args, **kwargs)`, with `f` converted where it is user code."""
    from ..conversion import convert_function
    from ..function import GraphFunction
    if f is print:
        return print_(*args, **kwargs)
    if f in LIST_FUNCTIONS and len(args) == 1 and not kwargs and is_traced_list(args[0]):
        return list_call(f, args)
    if isinstance(f, GraphFunction):
        return f(*args, **kwargs)
    if isinstance(f, functools.partial):
        return converted_call(f.func, (*f.args, *args), {**f.keywords, **kwargs})
    if isinstance(f, types.MethodType) and is_user_function(f.__func__):
        return convert_function(f.__func__)(f.__self__, *args, **kwargs)
    if is_user_function(f):
        return convert_function(f)(*args, **kwargs)
    call = getattr(type(f), "__call__", None)
    if not isinstance(f, type) and is_user_function(call):
        return convert_function(call)(f, *args, **kwargs)
    return f(*args, **kwargs)
