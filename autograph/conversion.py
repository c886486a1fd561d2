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


_by_code: dict = {}                          # code object -> [factory code, def node or source]
_by_function = weakref.WeakKeyDictionary()   # function -> converted function (or itself)
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
    entry = _by_code.get(fn.__code__)
    if entry is None:
        node = transformed(fn)
        origin = f"{os.path.basename(fn.__code__.co_filename)}:{fn.__code__.co_firstlineno}"
        factory_code, source, _ = loader.load(node, fn, origin)
        entry = _by_code[fn.__code__] = [factory_code, node]  # printed when asked for
    return entry


def convert_function(fn):
    """`fn` with its control flow converted; `fn` itself where it cannot be read."""
    converted = _by_function.get(fn)
    if converted is None:
        try:
            factory_code, _ = _conversion(fn)
            converted = loader.instantiate(factory_code, fn, operators)
        except SourceUnavailable as why:
            warnings.warn(f"{fn.__qualname__} is traced without converting its control "
                          f"flow: {why}", ConversionWarning, stacklevel=user_stacklevel())
            converted = fn
        _by_function[fn] = converted
    return converted


def to_code(fn) -> str:
    """The converted source of `fn`, as a string of valid Python."""
    fn = getattr(fn, "python_function", fn)
    fn = getattr(fn, "__func__", fn)
    entry = _conversion(fn)
    if not isinstance(entry[1], str):
        entry[1] = loader.to_source(entry[1])
    return entry[1] + "\n"
