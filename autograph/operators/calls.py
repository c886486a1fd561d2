"""`converted_call`: how converted code calls other functions.

User functions, lambdas, nested functions and methods are converted too
(once each, cached); so are the `__init__` of a user class called to make an
instance and the `__call__` of a user object called. NumPy, the standard
library, installed packages, builtins, graph functions, classes whose
`__init__` is not the user's (dataclasses, named tuples, library classes) and
functions marked with `do_not_convert` are called as they are. A function the
converter cannot rewrite (a generator, unsupported syntax, no source) runs as
it is too, with one `ConversionWarning` (the converter's `convert_callee`).

The converter itself is injected, not imported (it imports this package):
`autograph` calls `set_converter(convert_callee, is_graph_function)` when
it is imported.
"""
from __future__ import annotations

import functools
import types
from collections.abc import Callable

import numpy as np

from autograph_runtime import TracingError, Tracer, current_builder
from autograph_runtime.ops.comparisons import isscalar as traced_isscalar
from autograph_runtime.ops.errstate import errstate
from autograph_runtime.ops.staged_calls import staged_call
from autograph_runtime.source import is_library_file

from .array_likes import construct, with_arrays
from .conversions import conversion_call, type_query
from .effects import print_
from .logging_calls import logging_call, warnings_call
from .ordering import ordering_call
from .outside_iterators import refuse_consuming
from .truths import truth_call
from .frozen import warn_if_frozen
from .in_place import refuse_probe_at
from .lists import LIST_FUNCTIONS, is_traced_list, list_call
from .numpy_callbacks import apply_along_axis, fromiter, ndenumerate, vectorize_call
from .exceptions import refuse_graph_failures
from .staging import initializing
from .undefined import ld

_CONVERTED_CODE = "<autograph"
_DO_NOT_CONVERT = "__autograph_do_not_convert__"


def do_not_convert(fn: Callable) -> Callable:
    """Marks `fn` to be called as it is from converted code (and traced as it is by
    `ag.convert`): its Python control flow is not rewritten. Returns `fn`.

    Usable as a decorator or as `ag.do_not_convert(fn)`; a method, a class (its
    constructor) or a callable object's class (its `__call__`) is marked too.
    """
    target = getattr(fn, "__func__", fn)  # a bound method: mark its function
    for marked in (target, type(target)):  # a slotted object: mark its class
        try:
            setattr(marked, _DO_NOT_CONVERT, True)
            break
        except (AttributeError, TypeError):  # a builtin: called as it is anyway
            continue
    return fn


def is_do_not_convert(fn) -> bool:
    """Whether `fn` (or the function of a method) was marked with `do_not_convert`."""
    return bool(getattr(getattr(fn, "__func__", fn), _DO_NOT_CONVERT, False))


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


def user_init(cls):
    """The `__init__` to convert when converted code makes an instance of `cls`, or None
    (called as it is: not the user's, generated like a dataclass's, or under a metaclass
    that overrides how instances are made)."""
    if type(cls).__call__ is not type.__call__ or is_do_not_convert(cls):
        return None
    init = cls.__init__
    if not is_user_function(init) or init.__code__.co_filename.startswith("<"):
        return None
    return init


def _construct(cls, init, args, kwargs):
    """`cls(*args, **kwargs)` as `type.__call__` does it, with `init` converted."""
    new = cls.__new__
    obj = new(cls) if new is object.__new__ else new(cls, *args, **kwargs)
    if isinstance(obj, cls):
        with initializing():  # `self.a = v` sets up the new object: not a staged write
            _Hooks.convert(init)(obj, *args, **kwargs)
    return obj


def converted_call(f, args, kwargs):
    """`f(*args, **kwargs)`, with `f` converted where it is user code."""
    if f is print:
        return print_(*args, **kwargs)
    refuse_consuming(f, args, kwargs)   # an outside iterator, advanced while tracing
    logged = logging_call(f, args, kwargs)   # `log.info("loss %.3f", loss)`: when the graph runs
    if logged is not NotImplemented:
        return logged
    warned = warnings_call(f, args, kwargs)  # `warnings.warn(...)`: when the graph runs too
    if warned is not NotImplemented:
        return warned
    if f is isinstance or f is type:
        answer = type_query(f, args, kwargs)  # a traced value is what eager code would hold
        if answer is not NotImplemented:
            return answer
    if f is np.isscalar and len(args) == 1 and isinstance(args[0], Tracer):
        return traced_isscalar(args[0])  # NumPy does not dispatch it; the type answers
    staged = staged_call(f, args, kwargs)  # `np.random.rand(3)`, `np.zeros(k)` of a traced k
    if staged is not NotImplemented:
        return staged
    if f is np.errstate and current_builder() is not None:  # its body's kernels run within it
        return errstate(*args, **kwargs)
    if args and is_traced_list(args[0]) and f in LIST_FUNCTIONS:
        return list_call(f, args, kwargs)
    if f is np.apply_along_axis and len(args) >= 3 and isinstance(args[2], Tracer):
        return apply_along_axis(converted_call, *args, **kwargs)   # func1d converted
    if f is np.fromiter and current_builder() is not None:
        return fromiter(*args, **kwargs)   # its items may be traced numbers
    if f is np.ndenumerate and len(args) == 1 and not kwargs and isinstance(args[0], Tracer) \
            and None not in args[0].shape:
        return ndenumerate(args[0])
    if isinstance(f, np.vectorize) and any(isinstance(a, Tracer) for a in args):
        vectorized = vectorize_call(converted_call, f, args, kwargs)
        if vectorized is not NotImplemented:
            return vectorized
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
    warn_if_frozen(f)   # `time.time()`: its value is frozen into the graph
    converted = conversion_call(f, args, kwargs)  # `float(x)`, `math.sqrt(x)`, `np.float32(x)`
    if converted is not NotImplemented:
        return converted
    picked = ordering_call(f, args, kwargs)   # `min(max(i, 0), n - 1)`, `sorted(xs)`
    if picked is not NotImplemented:
        return picked
    answered = truth_call(f, args, kwargs)   # `any(v < 0 for v in x)`
    if answered is not NotImplemented:
        return answered
    if isinstance(f, type):
        init = user_init(f)
        return f(*args, **kwargs) if init is None else _construct(f, init, args, kwargs)
    call = getattr(type(f), "__call__", None)
    if is_user_function(call) and not is_do_not_convert(f):
        return _Hooks.convert(call)(f, *args, **kwargs)
    built = construct(f, args, kwargs)   # `np.array([s, t])`, s and t traced
    if built is not NotImplemented:
        return built
    refuse_probe_at(f, args)
    try:
        return f(*args, **kwargs)
    except TracingError:  # `np.sum(L)`, L a list of traced values: NumPy wanted an array
        arrays = with_arrays(f, args, kwargs) if _is_numpy(f) else None
        if arrays is None:
            raise
        return f(*arrays[0], **arrays[1])


def _is_numpy(f) -> bool:
    return isinstance(f, np.ufunc) or (getattr(f, "__module__", None) or "").startswith("numpy")
