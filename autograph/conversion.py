"""Converting a function: parse, run the pipeline, load. Cached per function.

`convert_function(fn)` returns the converted function (same globals, defaults
and closure as `fn`), `to_code(fn)` its source. A function whose source cannot
be read is returned as it is, with one `ConversionWarning` naming it and why.
"""
from __future__ import annotations

import os
import warnings
import weakref

import gast

from runtime.source import user_stacklevel

from . import operators
from .converters.context import Context
from .pipeline import PIPELINE
from .pyct import anno, loader
from .pyct.activity import memoized
from .pyct.errors import ConversionError
from .pyct.naming import Namer
from .pyct.parser import SourceUnavailable, parse_function


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
    for child in gast.walk(node):
        if hasattr(child, "lineno"):
            anno.setanno(child, anno.Static.ORIGIN, (filename, child.lineno, function))


def _check_supported(node, filename):
    for child in gast.walk(node):
        what = _UNSUPPORTED.get(type(child))
        if what is None and isinstance(child, gast.Try):
            if any(isinstance(n, (gast.If, gast.While, gast.For))
                   for b in [child.body] + [h.body for h in child.handlers]
                   for s in b for n in gast.walk(s)):
                what = "`try` around control flow"
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


def transformed(fn, stages=None):
    """The converted `FunctionDef` of `fn` after the first `stages` converters (all: None)."""
    node, filename = parse_function(fn)
    _check_supported(node, filename)
    _annotate_origins(node, filename, fn.__code__.co_name)
    node = _as_function_def(node, fn)
    ctx = Context(Namer(node))
    for _, converter in PIPELINE[:stages]:
        with memoized():  # a converter asks for a node's activity before changing under it
            node = converter.transform(node, ctx)
    return node


def _conversion(fn):
    """The code of the factory that makes `fn` converted (converted once per code object)."""
    factory_code = _by_code.get(fn.__code__)
    if factory_code is None:
        node = transformed(fn)
        origin = f"{os.path.basename(fn.__code__.co_filename)}:{fn.__code__.co_firstlineno}"
        factory_code = _by_code[fn.__code__] = loader.load(node, fn, origin)[0]
    return factory_code


def convert_function(fn):
    """`fn` with its control flow converted; `fn` itself where it cannot be read."""
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


def convert_quietly(fn):
    """`convert_function(fn)` where `fn` converts without a warning or an error, else None.

    `ag.convert` converts ahead of the first call with it; a function that cannot
    be converted is left to that call, which reports why at the user's line.
    """
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


def to_code(fn) -> str:
    """The converted source of `fn`, as a string of valid Python.

    Converted again to print it: the trees of converted functions are not kept.
    """
    fn = getattr(fn, "python_function", fn)
    fn = getattr(fn, "__func__", fn)
    source = _sources.get(fn.__code__)
    if source is None:
        source = _sources[fn.__code__] = loader.to_source(transformed(fn))
    return source + "\n"
