"""`converted_call`: how converted code calls other functions.

User functions, lambdas, nested functions and methods are converted too
(once each, cached); NumPy, the standard library, installed packages,
builtins and graph functions are called as they are.

The converter itself is injected, not imported (it imports this package):
`autograph` calls `set_converter(convert_function, is_graph_function)` when
it is imported.
"""
from __future__ import annotations

import functools
import types

import numpy as np

from runtime import current_builder
from runtime.ops.errstate import errstate
from runtime.source import is_library_file

from .effects import print_
from .lists import LIST_FUNCTIONS, is_traced_list, list_call
from .exceptions import refuse_graph_failures
from .undefined import ld

_CONVERTED_CODE = "<autograph"


class _Hooks:
    convert = None                         # fn -> its converted function
    is_graph_function = staticmethod(lambda f: False)


def set_converter(convert, is_graph_function) -> None:
    """Sets how `converted_call` converts a user function and spots a graph function
    (called as it is: it converts and caches its own function)."""
    _Hooks.convert = staticmethod(convert)
    _Hooks.is_graph_function = staticmethod(is_graph_function)


def is_convertible_file(filename: str) -> bool:
    """The user's own code (`runtime.source.is_user_file`), less converted code itself."""
    return not is_library_file(filename) and not filename.startswith(_CONVERTED_CODE)


def is_user_function(fn) -> bool:
    """A Python function defined outside the libraries (so it is converted)."""
    return isinstance(fn, types.FunctionType) and is_convertible_file(fn.__code__.co_filename)


def converted_call(f, args, kwargs):
    """`f(*args, **kwargs)`, with `f` converted where it is user code."""
    if f is print:
        return print_(*args, **kwargs)
    if f is np.errstate and current_builder() is not None:  # its body's kernels run within it
        return errstate(*args, **kwargs)
    if args and is_traced_list(args[0]) and f in LIST_FUNCTIONS:
        return list_call(f, args, kwargs)
    if _Hooks.is_graph_function(f):
        ld(args)  # passing a variable is reading it (its graph takes the value alone)
        builder = current_builder()
        mark = len(builder.eqns) if builder is not None else 0
        result = f(*args, **kwargs)
        if builder is not None:  # its graph may have been traced outside any `try`
            refuse_graph_failures(builder.eqns[mark:])
        return result
    if isinstance(f, functools.partial):
        return converted_call(f.func, (*f.args, *args), {**f.keywords, **kwargs})
    if isinstance(f, types.MethodType) and is_user_function(f.__func__):
        return _Hooks.convert(f.__func__)(f.__self__, *args, **kwargs)
    if is_user_function(f):
        return _Hooks.convert(f)(*args, **kwargs)
    call = getattr(type(f), "__call__", None)
    if not isinstance(f, type) and is_user_function(call):
        return _Hooks.convert(call)(f, *args, **kwargs)
    return f(*args, **kwargs)
