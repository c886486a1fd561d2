"""`agc FILE.py::Class.method --graph SPEC...`: the instance a method is traced on.

A method is traced as `instance.method`, as `ag.convert` traces one called on
an object: `self`'s attributes are read while tracing (arrays become constants
of the graph). The instance is `Class()` when the constructor needs no
argument, else `Class(*ARGS)` from `--init ARG...`, each a SPEC (`py:3`; an
array SPEC builds zeros of its dtype and shape) or `NAME=SPEC` for a keyword:

>>> class Dense:
...     def __init__(self, units, scale=1.0):
...         self.w, self.scale = np.zeros((3, units)), scale
>>> build_instance(Dense, ["py:4", "scale=py:0.5"], "Dense.step").w.shape
(3, 4)
>>> build_instance(Dense, None, "Dense.step")
Traceback (most recent call last):
autograph.cli_methods.UsageError: Dense.step is a method, so agc traces it on an
instance of Dense, and Dense() needs 'units': pass the constructor's arguments with
--init SPEC... (like --init py:3, or units=py:3)
"""
from __future__ import annotations

import inspect
import re
import traceback
import types

import numpy as np

from .function import GraphFunction
from .specs import TensorSpec, parse_spec


class UsageError(Exception):
    """Bad input to `agc`: reported in one line, exit status 2."""


def method_owner(parent, name: str):
    """`parent` where `parent.name` is a method that needs an instance (not a static
    or class method), else None."""
    if not isinstance(parent, type):
        return None
    try:
        attribute = inspect.getattr_static(parent, name)
    except AttributeError:
        return None
    return parent if isinstance(attribute, (types.FunctionType, GraphFunction)) else None


def build_instance(cls: type, init: list[str] | None, qualname: str):
    """`cls(*ARGS)` for the `--init` SPECs `init` (None: not given); a UsageError names
    the constructor's required parameters when they are missing."""
    args, kwargs = [], {}
    for text in init or ():
        keyword = _KEYWORD.fullmatch(text)
        value = _concrete(keyword.group(2) if keyword else text)
        if keyword:
            kwargs[keyword.group(1)] = value
        else:
            args.append(value)
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):   # a constructor without a readable signature
        signature = None
    if signature is not None:
        try:
            signature.bind(*args, **kwargs)
        except TypeError as error:
            raise UsageError(_missing(cls, signature, qualname, error, init is None)) from None
    try:
        return cls(*args, **kwargs)
    except Exception as error:
        frame = traceback.extract_tb(error.__traceback__)[-1]
        raise UsageError(f"{cls.__name__}(...) failed while building the instance of "
                         f"{qualname}, at {frame.filename}:{frame.lineno}: "
                         f"{type(error).__name__}: {error}") from None


def bound_method(instance, name: str) -> GraphFunction:
    """`instance.name` as a graph function (a method decorated with `ag.convert` binds
    its own)."""
    method = getattr(instance, name)
    return method if isinstance(method, GraphFunction) else GraphFunction(method)


_KEYWORD = re.compile(r"([A-Za-z_]\w*)=(.*)")


def _concrete(text: str):
    """The value a constructor gets for one `--init` SPEC."""
    try:
        spec = parse_spec(text)
    except ValueError as error:
        raise UsageError(f"--init: {error}") from None
    if not isinstance(spec, TensorSpec):
        return spec
    if None in spec.shape:
        raise UsageError(f"--init {text}: a constructor's array needs every dimension "
                         f"(it is built as zeros of that shape)")
    return np.zeros(spec.shape, spec.dtype)


def _missing(cls, signature, qualname, error, no_init: bool) -> str:
    required = [p.name for p in signature.parameters.values()
                if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    names = ", ".join(repr(n) for n in required)
    example = " ".join(["py:3"] * len(required)) or "py:3"
    if no_init:
        return (f"{qualname} is a method, so agc traces it on an instance of "
                f"{cls.__name__}, and {cls.__name__}() needs {names}: pass the "
                f"constructor's arguments with --init SPEC... (like --init {example}, or "
                f"{required[0] if required else 'name'}=py:3)")
    return (f"--init for {cls.__name__}: {error} (its parameters: "
            f"{', '.join(signature.parameters) or 'none'}; one SPEC each, or NAME=SPEC)")
