"""Which attributes of `self` a method's source reads: `self.NAME`.

`reads_of` parses a method and gives each `self.NAME` its body reads, with the
line of its first read, following the methods of `self` it calls (a few calls
deep). `instance_and_function` takes a converted method apart: its object
(held weakly) and its plain function. `frozen_bindings.snapshot` records the
plain values of these attributes when a trace ends, so a later call that finds
one rebound traces again. Not seen: reads the source does not spell
`self.NAME` (`getattr(self, name)`), and methods without source.

>>> class Scaler:
...     def apply(self, x):
...         return self._shift(x) * self.factor
...     def _shift(self, x):
...         return x + self.offset
>>> sorted(reads_of(Scaler.apply, Scaler))
['_shift', 'factor', 'offset']
"""
from __future__ import annotations

import types
import weakref

import gast

from .pyct.parser import SourceUnavailable, parse_function

_reads_of: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # function -> its reads


def reads_of(function, cls, depth: int = 3) -> dict:
    """{NAME: 'file:line'} for each `self.NAME` that `function`'s source reads, and the
    methods of `cls` it calls on `self` (to `depth` calls deep)."""
    reads = _reads_of.get(function)
    if reads is None:
        reads = _reads_of[function] = _direct_reads(function)
    found = {name: where for name, (where, _) in reads.items()}
    if depth:
        for name, (_, called) in reads.items():
            method = getattr(cls, name, None) if called else None
            method = getattr(method, "python_function", method)   # a method ag.convert made
            if isinstance(method, types.FunctionType) and method is not function:
                for inner, where in reads_of(method, cls, depth - 1).items():
                    found.setdefault(inner, where)
    return found


def _direct_reads(function) -> dict:
    """{NAME: ('file:line', whether it is called)} for `self.NAME` in `function`'s source."""
    try:
        node, filename = parse_function(function)
    except SourceUnavailable:
        return {}
    params = node.args.posonlyargs + node.args.args
    if not params:
        return {}
    self_name = params[0].id
    called = {id(n.func) for n in gast.walk(node) if isinstance(n, gast.Call)}
    reads = {}
    for n in gast.walk(node):
        if (isinstance(n, gast.Attribute) and isinstance(n.ctx, gast.Load)
                and isinstance(n.value, gast.Name) and n.value.id == self_name):
            where, was_called = reads.get(n.attr, (None, False))
            here = f"{filename}:{n.lineno}"
            where = here if where is None or n.lineno < int(where.rsplit(":", 1)[1]) else where
            reads[n.attr] = (where, was_called or id(n) in called)
    return reads


def instance_and_function(fn):
    """(a callable returning the instance, the plain function) of a method, else None."""
    ref = getattr(fn, "_ag_self_ref", None)   # a method decorated with ag.convert, bound
    if ref is not None:
        return ref, fn._ag_function
    if isinstance(fn, types.MethodType) and not isinstance(fn.__self__, type) and \
            isinstance(fn.__func__, types.FunctionType):
        try:
            return weakref.ref(fn.__self__), fn.__func__
        except TypeError:
            instance = fn.__self__
            return (lambda: instance), fn.__func__
    return None
