"""Converting a function: parse, run the pipeline, load. Cached per function.

`convert_function(fn)` returns the converted function (same globals, defaults
and closure as `fn`), `to_code(fn)` its source. A function whose source cannot
be read is returned as it is, with one `ConversionWarning` naming it and why.

What can be converted (`check_convertible`, asked by `ag.convert` at
decoration): Python functions, lambdas and methods; `functools.partial`s of
them; objects whose class defines `__call__` in Python; and NumPy's own
callables (ufuncs such as `np.sin`, C functions such as `np.concatenate`),
Python's builtins (`len`, `abs`), `operator` functions and classes, traced on arrays as they are.
Generators, coroutines (`async def`) and async generators, and other
callables without Python source (`math.sqrt`, C extensions) are a
`ConversionError` at decoration. Called from converted code instead
(`convert_callee`), a function that cannot be converted runs as it is, with
one `ConversionWarning`; one marked with `ag.do_not_convert` runs as it is
without a word. `source_function(obj)`
is the Python function whose source `to_code` and `agc` show.
"""
from __future__ import annotations

import functools
import inspect
import os
import time
import types
import warnings
import weakref
from collections.abc import Callable

import gast
import numpy as np

from autograph_runtime.source import user_stacklevel

from . import operators, trace_log
from .operators.calls import is_do_not_convert
from .converters import suppress
from .converters._blocks import contains
from .converters.context import Context
from .late_binding import refuse_late_binding
from .pipeline import PIPELINE
from .pyct import anno, loader, naming
from .pyct.activity import memoized
from .pyct.errors import ConversionError
from .pyct.gc_pause import gc_paused
from .pyct.naming import Namer
from .pyct.parser import SourceUnavailable, parse_function
from .pyct.transformer import children, walk


class ConversionWarning(UserWarning):
    """A function could not be converted and is traced as it is."""


_by_code: dict = {}                          # code object -> code of its converted factory
_sources: dict = {}                          # code object -> converted source (for to_code)
_by_function = weakref.WeakKeyDictionary()   # function -> (its code, converted function or itself)
_UNSUPPORTED = {
    gast.Yield: "`yield` (generators)", gast.YieldFrom: "`yield from` (generators)",
    gast.Await: "`await`", gast.AsyncFor: "`async for`", gast.AsyncWith: "`async with`",
    gast.Match: "`match` statements",
}


def _annotate_origins(node, filename: str, function: str):
    """Each node's (file, line, function): the innermost def or lambda holding it."""
    stack = [(node, function)]
    while stack:
        node, function = stack.pop()
        if hasattr(node, "lineno"):
            anno.setanno(node, anno.Static.ORIGIN, (filename, node.lineno, function))
        kind = type(node)
        if kind is gast.FunctionDef or kind is gast.AsyncFunctionDef:
            function = node.name
        elif kind is gast.Lambda:
            function = "<lambda>"
        for child in children(node):
            stack.append((child, function))


def _jumps_out_of(block) -> bool:
    """Whether `block` holds a `return`, or a `break`/`continue` of a loop outside it."""
    return contains(block, gast.Return, into_loops=True) or \
        contains(block, (gast.Break, gast.Continue), into_loops=False)


def _becomes_control_flow(block) -> bool:
    """Whether converted `block` calls `if_stmt` or a loop: for an `if` or loop of its
    own, or for the guard that skips what follows a nested `with` or `try` that jumps.

    An exception leaving such a call loses the assignments made inside it, so a
    handler, or a manager that suppresses it, would see the values from before.
    """
    for i, statement in enumerate(block):
        if any(isinstance(n, (gast.If, gast.While, gast.For)) for n in walk(statement)):
            return True
        if not isinstance(statement, (gast.With, gast.Try)):
            continue
        guarded_else = isinstance(statement, gast.Try) and statement.orelse and \
            _jumps_out_of(statement.body)
        if guarded_else or i + 1 < len(block) and _jumps_out_of([statement]):
            return True
        inner = [statement.body] + [getattr(statement, f, []) for f in ("orelse", "finalbody")]
        if any(_becomes_control_flow(b) for b in inner + [
                h.body for h in getattr(statement, "handlers", ())]):
            return True
    return False


def _suppresses(node) -> bool:
    """Whether a `with` uses `contextlib.suppress`, the manager known to swallow exceptions,
    in a form the `suppress` converter does not make a `try` (with keywords)."""
    for item in node.items:
        call = item.context_expr
        func = call.func if isinstance(call, gast.Call) else None
        if (getattr(func, "id", None) == "suppress" or getattr(func, "attr", None) == "suppress") \
                and not suppress.becomes_try(item):
            return True
    return False


def _check_supported(nodes, filename):
    """Raises `ConversionError` at the first of `nodes` (the function's, in `walk`'s
    order) that cannot be converted, naming its line."""
    for child in nodes:
        what = _UNSUPPORTED.get(type(child))
        if what is None and isinstance(child, gast.Try) and _jumps_out_of(child.finalbody):
            what = "`return`, `break` or `continue` in `finally`"  # it drops the exception
        if what is None and isinstance(child, gast.With) and _suppresses(child) \
                and _becomes_control_flow(child.body):
            what = "`contextlib.suppress` around control flow"
        if what is not None:
            raise ConversionError(f"{what} cannot be converted (at {filename}:"
                                  f"{getattr(child, 'lineno', '?')})")


def _as_function_def(node, fn):
    if isinstance(node, gast.Lambda):
        node = gast.FunctionDef(name="lambda_", args=node.args,
                                body=[gast.Return(value=node.body)], decorator_list=[],
                                returns=None, type_comment=None, type_params=[])
    node.decorator_list = []
    node.returns = None
    for arg in node.args.args + node.args.posonlyargs + node.args.kwonlyargs + \
            [a for a in (node.args.vararg, node.args.kwarg) if a is not None]:
        arg.annotation = None
    return node


def _explicit_super(node, fn):
    """`super()` becomes `super(__class__, self)`: converted code is not in a class body,
    so Python would not find the method's class by itself (`__class__` is one of
    the closure cells the converted function keeps)."""
    if "__class__" not in fn.__code__.co_freevars:
        return
    scopes = [node]
    while scopes:
        scope = scopes.pop()
        params = scope.args.posonlyargs + scope.args.args
        stack = list(scope.body) if isinstance(scope.body, list) else [scope.body]
        while stack:
            child = stack.pop()
            if isinstance(child, (gast.FunctionDef, gast.Lambda)):
                scopes.append(child)  # its `super()` means its own first parameter
                continue
            if isinstance(child, gast.Call) and getattr(child.func, "id", None) == "super" \
                    and not child.args and not child.keywords and params:
                child.args = [gast.Name(id=n, ctx=gast.Load(), annotation=None, type_comment=None)
                              for n in ("__class__", params[0].id)]
            stack.extend(children(child))


def _contents(nodes) -> frozenset:
    """The kinds of node (`"IfExp"`), the names (variables, attributes) and `%`-formatting
    of a literal (`"PercentFormat"`) among `nodes`."""
    found = set()
    for child in nodes:
        found.add(type(child).__name__)
        if isinstance(child, gast.Name):
            found.add(child.id)
        elif isinstance(child, gast.Attribute):
            found.add(child.attr)
        elif isinstance(child, gast.BinOp) and isinstance(child.op, gast.Mod) and \
                isinstance(child.left, gast.Constant) and isinstance(child.left.value, str):
            found.add("PercentFormat")   # `"%.2f" % x`
    return frozenset(found)


def _has_work(converter, contents: frozenset) -> bool:
    """False where `converter` declares what it rewrites (`ACTS_ON`: kinds of node and
    names that no converter before it makes) and the user's function holds none of it."""
    acts_on = getattr(converter, "ACTS_ON", None)
    return acts_on is None or not acts_on.isdisjoint(contents)


def transformed(fn, stages=None):
    """The converted `FunctionDef` of `fn` after the first `stages` converters (all: None)."""
    node, filename = parse_function(fn)
    nodes = list(walk(node))
    _check_supported(nodes, filename)
    refuse_late_binding(node, nodes, filename)
    # What the user's function holds (decorators and annotations, dropped below, too:
    # a converter that finds nothing to do after all runs as it would anyway).
    contents = _contents(nodes)
    _annotate_origins(node, filename, fn.__code__.co_name)
    node = _as_function_def(node, fn)
    _explicit_super(node, fn)
    namer = Namer(node)
    hidden = naming.hide_module_name(node, namer)  # a user's own `ag__` keeps its meaning
    ctx = Context(namer)
    for _, converter in PIPELINE[:stages]:
        if not _has_work(converter, contents):
            continue   # a walk of the whole tree that would change nothing
        with memoized():  # a converter asks for a node's activity before changing under it
            node = converter.transform(node, ctx)
    anno.setanno(node, anno.Static.MODULE_NAME, naming.restore_module_name(node, namer, hidden))
    return node


def _conversion(fn):
    """The code of the factory that makes `fn` converted (converted once per code object)."""
    factory_code = _by_code.get(fn.__code__)
    if factory_code is None:
        start = time.perf_counter()
        with gc_paused():   # what converting makes, reference counting frees
            node = transformed(fn)
            origin = f"{os.path.basename(fn.__code__.co_filename)}:{fn.__code__.co_firstlineno}"
            factory_code = _by_code[fn.__code__] = loader.load(node, fn, origin)[0]
        trace_log.converted(fn.__qualname__, origin, time.perf_counter() - start,
                            lambda: loader.to_source(node))
    return factory_code


def convert_function(fn):
    """`fn` with its control flow converted; `fn` itself where it cannot be read or is
    marked with `ag.do_not_convert`."""
    if is_do_not_convert(fn):
        return fn
    converted = _cached(fn)
    if converted is None:
        try:
            converted = loader.instantiate(_conversion(fn), fn, operators)
        except SourceUnavailable as why:
            warnings.warn(f"{fn.__qualname__} is traced without converting its control "
                          f"flow: {why}", ConversionWarning, stacklevel=user_stacklevel())
            converted = fn
        _by_function[fn] = (fn.__code__, converted)
    return converted


def _not_convertible(fn):
    """Why `fn` can never be converted (a generator, a coroutine), or None."""
    return ("it is an async generator function" if inspect.isasyncgenfunction(fn) else
            "it is a coroutine function (`async def`)" if inspect.iscoroutinefunction(fn) else
            "it is a generator function" if inspect.isgeneratorfunction(fn) else None)


def convert_callee(fn):
    """`convert_function(fn)` for a function that converted code calls.

    One the converter cannot rewrite (a generator, a coroutine, a construct it
    does not support, source it cannot read) runs as it is, with one
    `ConversionWarning` naming it and why (per function, not per call); the
    top-level `ag.convert` refuses these instead.
    """
    converted = _cached(fn)
    if converted is not None or is_do_not_convert(fn):
        return converted or fn
    why = _not_convertible(fn)
    if why is None:
        try:
            return convert_function(fn)
        except ConversionError as error:
            why = str(error)
    warnings.warn(f"{fn.__qualname__} is called without converting its control flow: {why}",
                  ConversionWarning, stacklevel=user_stacklevel())
    _by_function[fn] = (fn.__code__, fn)
    return fn


def convert_quietly(fn):
    """`convert_function(fn)` where `fn` converts without a warning or an error, else None.

    `ag.convert` converts ahead of the first call with it; a function that cannot
    be converted is left to that call, which reports why at the user's line.
    """
    if is_do_not_convert(fn):
        return fn
    converted = _cached(fn)
    if converted is None:
        try:
            factory_code = _conversion(fn)
        except Exception:  # noqa: BLE001  (reported by the first call)
            return None
        converted = loader.instantiate(factory_code, fn, operators)
        _by_function[fn] = (fn.__code__, converted)
    return converted


def _cached(fn):
    """The converted `fn`, unless its code was replaced since it was converted."""
    code, converted = _by_function.get(fn, (None, None))
    return converted if code is fn.__code__ else None


def describe_callable(obj) -> str:
    """How error messages name `obj`: `len`, `numpy.sin`, `a Model object`."""
    if isinstance(obj, functools.partial):
        return f"functools.partial({describe_callable(obj.func)}, ...)"
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if name is None or not isinstance(name, str):
        return f"a {type(obj).__qualname__} object"
    module = getattr(obj, "__module__", None)
    return f"{module}.{name}" if module and module not in ("builtins", "__main__") else name


def _traced_as_is(obj) -> bool:
    """NumPy's callables, Python's builtins and operators, classes: traced as they are."""
    owner = getattr(obj, "__self__", None)   # a C method: `np.add.reduce`, `x.sum`
    if owner is not None and not isinstance(owner, types.ModuleType) and \
            not isinstance(obj, (types.FunctionType, types.MethodType)):
        return _traced_as_is(owner) or _traced_as_is(type(owner))
    module = getattr(obj, "__module__", None) or ""
    return (isinstance(obj, (np.ufunc, type)) or module.startswith("numpy.")
            or module in ("numpy", "builtins", "operator", "_operator"))


def source_function(obj):
    """The Python function whose source converts for `obj` (a ConversionError if none).

    A graph function gives its Python function, a method its function, a
    `functools.partial` the function it wraps, a callable object its class's
    `__call__`.
    """
    obj = getattr(obj, "python_function", obj)
    while isinstance(obj, functools.partial):
        obj = obj.func
    obj = getattr(obj, "python_function", obj)
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    if getattr(obj, "_ag_method", False):   # a graph function's method, bound per instance
        obj = obj.__wrapped__
    if isinstance(obj, types.FunctionType):
        return obj
    call = getattr(type(obj), "__call__", None)
    call = getattr(call, "python_function", call)   # a `__call__` decorated with ag.convert
    if callable(obj) and not isinstance(obj, type) and isinstance(call, types.FunctionType):
        return call
    if not callable(obj):
        raise ConversionError(f"{obj!r} is not a function: only functions, methods, "
                              f"functools.partial objects and callable objects convert")
    if isinstance(obj, type):
        raise ConversionError(f"{describe_callable(obj)} is a class: convert its methods")
    kind = "a NumPy ufunc" if isinstance(obj, np.ufunc) else (
        "a built-in function" if isinstance(obj, types.BuiltinFunctionType)
        else f"a {type(obj).__qualname__}")
    raise ConversionError(f"{describe_callable(obj)} has no Python source to convert (it is "
                          f"{kind}): call it inside a converted function instead")


def check_convertible(fn) -> None:
    """Raises `ConversionError` now where `fn` can never run as a graph function.

    NumPy's ufuncs and C functions, Python's builtins (`len`, `abs`),
    `operator` functions and classes pass (they are traced on arrays as they are, through the array
    protocols); other callables without Python source (`math.sqrt`, which
    would need a Python float), generators and coroutines do not.
    """
    while isinstance(fn, functools.partial):  # a partial of np.sum is traced as np.sum is
        fn = fn.func
    if _traced_as_is(fn) and not isinstance(fn, types.FunctionType):
        return
    function = source_function(fn)
    kind = ("an async generator function" if inspect.isasyncgenfunction(function) else
            "a coroutine function (`async def`)" if inspect.iscoroutinefunction(function) else
            "a generator function" if inspect.isgeneratorfunction(function) else None)
    if kind is None:
        return
    if kind == "a generator function":
        try:
            transformed(function, stages=0)  # raises, naming the `yield` and its line
        except SourceUnavailable:
            pass
    code = function.__code__
    raise ConversionError(f"{function.__qualname__} is {kind}, which cannot be converted: "
                          f"graph functions return arrays (at {code.co_filename}:"
                          f"{code.co_firstlineno})")


def to_code(fn: Callable) -> str:
    """The converted source of `fn`, as a string of valid Python.

    `fn` is anything `source_function` accepts (a `ConversionError` for
    callables without Python source, such as `len` or `np.sin`). Converted
    again to print it: the trees of converted functions are not kept.
    """
    check_convertible(fn)
    fn = source_function(fn)
    source = _sources.get(fn.__code__)
    if source is None:
        source = _sources[fn.__code__] = loader.to_source(transformed(fn))
    return source + "\n"
