"""Attributes of `self` that a method's trace read: frozen into its graph.

A converted method (`ag.convert(model.step)`, or a method decorated with
`ag.convert` called on an instance) reads `self.scale` while it is traced, and
the graph holds that value. When the trace ends, `snapshot` records the
plain values (numbers, bools, strings, NumPy arrays and scalars; not
`ag.Variable`s, not objects) of the attributes the method's source reads,
`self.NAME` in its body and in the methods of `self` it calls. A later call of
that graph checks them by identity (`guard`, on the short path too), and one
that finds an attribute holding a different value warns once per attribute and
line (`FrozenValueWarning`), naming the fix: pass it as an argument, or make it
an `ag.Variable`.

Not seen: an array changed in place (`self.w[0] = 1`: the same object), an
attribute of an object without a `__dict__`, and reads the source does not
spell as `self.NAME`.

>>> import numpy as np, warnings
>>> import autograph as ag
>>> class Scaler:
...     def __init__(self):
...         self.factor = 2.0
...     def apply(self, x):
...         return x * self.factor
>>> scaler = Scaler()
>>> apply = ag.convert(scaler.apply)
>>> apply(np.ones(2))
array([2., 2.])
>>> scaler.factor = 3.0
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     apply(np.ones(2))
array([2., 2.])
>>> print(caught[0].message)   # doctest: +ELLIPSIS
Scaler.apply read self.factor while it was traced (at <doctest ...>:5): its graph holds
2.0, but self.factor is now 3.0, and the call ran the graph with 2.0; pass it to the
method as an argument, or make it an ag.Variable (v.assign(...) to change it)
"""
from __future__ import annotations

import operator
import types
import warnings
import weakref

import gast
import numpy as np

from autograph_runtime.source import user_stacklevel

from .operators.frozen import FrozenValueWarning
from .pyct.parser import SourceUnavailable, parse_function

PLAIN = (int, float, complex, bool, str, bytes, np.generic, np.ndarray)
_reads_of: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # function -> its reads
_warned: set = set()   # (method, attribute, line) already warned about


class SelfReads:
    """The plain attributes of one instance that a trace read, and their values then."""

    __slots__ = ("instance", "method", "names", "values", "getter", "where")

    def __init__(self, instance, method: str, found: dict):
        self.instance = instance      # a callable returning the instance (a weak reference)
        self.method = method
        self.names = tuple(found)
        self.values = tuple(value for value, _ in found.values())
        self.where = [where for _, where in found.values()]
        # attrgetter of one name returns the value, not a tuple: ask for it twice
        names = self.names if len(self.names) > 1 else self.names * 2
        if len(self.names) == 1:
            self.values, self.where = self.values * 2, self.where * 2
        self.getter = operator.attrgetter(*names)

    def compare(self) -> None:
        """Warns once for each attribute that changed since the trace (the slow check)."""
        instance = self.instance()
        if instance is None:
            return
        for i, (name, then) in enumerate(zip(self.names, self.values)):
            now = getattr(instance, name, _MISSING)
            if now is then:
                continue
            if now is not _MISSING and _same(now, then):
                self._keep(i, now)        # an equal new object: identity passes next time
                continue
            key = (self.method, name, self.where[i])
            if key not in _warned:
                _warned.add(key)
                shown = "deleted" if now is _MISSING else _short(now)
                warnings.warn(
                    f"{self.method} read self.{name} while it was traced (at {self.where[i]}): "
                    f"its graph holds {_short(then)}, but self.{name} is now {shown}, and "
                    f"the call ran the graph with {_short(then)}; pass it to the method as "
                    f"an argument, or make it an ag.Variable (v.assign(...) to change it)",
                    FrozenValueWarning, stacklevel=user_stacklevel())
            if now is not _MISSING:
                self._keep(i, now)        # warned once: quiet until it changes again

    def _keep(self, i: int, value) -> None:
        values = list(self.values)
        values[i] = value
        if len(self.names) == 1:
            values = [value, value]
        self.values = tuple(values)


def snapshot(fn) -> SelfReads | None:
    """The plain attributes of `self` that method `fn` reads, as they are now (None where
    `fn` is not a method of an instance, or reads none)."""
    bound = _instance_and_function(fn)
    if bound is None:
        return None
    ref, function = bound
    instance = ref()
    attributes = getattr(instance, "__dict__", None)
    if attributes is None:
        return None
    found = {}
    for name, where in reads_of(function, type(instance)).items():
        value = attributes.get(name, _MISSING)
        if isinstance(value, PLAIN):
            found[name] = (value, where)
    if not found:
        return None
    return SelfReads(ref, function.__qualname__, found)


def guard(run, reads: SelfReads):
    """`run` (the short path's callable) checking `reads` before each call: one tuple
    comparison, which compares by identity first, then by `==` (an array's raises)."""
    instance, getter = reads.instance, reads.getter

    def run_checked(*arrays):
        try:
            if getter(instance()) != reads.values:
                reads.compare()
        except Exception:             # an array not the same object, a deleted attribute
            reads.compare()
        return run(*arrays)
    return run_checked


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


def _instance_and_function(fn):
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


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b))
    try:
        return bool(a == b)
    except Exception:
        return False


def _short(value) -> str:
    text = repr(value) if not isinstance(value, np.ndarray) else \
        f"an array {value.dtype}{list(value.shape)}"
    return text if len(text) <= 40 else text[:37] + "..."


_MISSING = object()
