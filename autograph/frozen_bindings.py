"""Plain values a trace read by name: attributes of `self`, globals, closure cells.

A graph holds what its trace read: `x * self.scale`, `X @ W` for a module-level
`W`, `x + offset` for a variable of the enclosing function. When a trace ends,
`snapshot` records those bindings that hold a plain value (a number, bool,
string, None, NumPy array or scalar, a tuple of them; not an `ag.Variable`, a
module, function, class or other object): the attributes a method's source
reads as `self.NAME` (`self_reads.py`), the globals the function's own code
reads (`module_state.globals_read`) and those the helpers of its module that it
reaches read (`module_state.reached`), and its closure cells. Every later call of
that graph checks them (`stale` on the full path, `binding_guard.guard` on the
short path, by identity). One holding another value (not the same object,
and not equal: the same type, and for arrays the same dtype, shape and bytes)
makes the call trace again with the value it holds now, never run the old
graph; it warns `FrozenValueWarning` once per binding and line, saying how to
keep one graph (pass the value as an argument, or hold it in an `ag.Variable`).
An equal new object (`m.w = m.w.copy()`) is taken in, and does not retrace.

Not seen: an array changed in place (the same object: its graphs keep what
they captured, as `jax.jit`), what functions of other modules it calls read
(and the closure cells of the helpers it calls), attributes of an object
without a `__dict__`, and reads the source does not spell `self.NAME`
(`getattr(self, name)`).

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
array([3., 3.])
>>> apply.trace_count
2
>>> print(caught[0].message)   # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
Scaler.apply read self.factor while it was traced (at <doctest ...>:5): it held 2.0
then and holds 3.0 now, so the call traced it again; to keep one graph, pass it to the
function as an argument, or make it an ag.Variable (v.assign(...) to change it)
"""
from __future__ import annotations

import dis
import functools
import types
import warnings

import numpy as np

from autograph_runtime.source import user_stacklevel

from .module_state import globals_read, reached
from .operators.frozen import FrozenValueWarning
from .self_reads import instance_and_function, reads_of

PLAIN = (int, float, complex, bool, str, bytes, type(None), np.generic, np.ndarray)
MISSING = object()   # a binding deleted (or an empty cell)
_warned: set = set()   # (function, binding, line) already warned about


class Binding:
    """One name a trace read: `self.NAME`, a global or a closure cell."""

    __slots__ = ("label", "name", "where", "read")

    def __init__(self, label: str, name: str, where: str, read):
        self.label = label   # in messages: 'self.w', 'the global W', 'the closure variable w'
        self.name = name     # as the user writes it: 'self.w', 'W', 'w'
        self.where = where   # 'file:line' of its first read
        self.read = read     # its value now, MISSING where unbound


class FrozenBindings:
    """The plain bindings one trace read, and their values then (see the module docstring).

    `instance`/`attributes`, `module`/`global_names` and `cells` say where the values
    are, in the order of `values`, for `binding_guard.guard`'s compiled check.
    """

    __slots__ = ("function", "bindings", "values", "instance", "attributes", "module",
                 "global_names", "cells")

    def __init__(self, function: str, instance, attributes: list, module, globals_: list,
                 cells: list):
        self.function = function
        self.instance = instance   # a callable returning `self` (a weak reference), or None
        self.module = module       # the function's globals dict
        self.attributes = tuple(name for name, _, _ in attributes)
        self.global_names = tuple(name for name, _, _ in globals_)
        self.cells = tuple(cell for cell, _, _ in cells)
        self.bindings = (
            [Binding(f"self.{name}", f"self.{name}", where,
                     functools.partial(_attribute, instance, name))
             for name, where, _ in attributes] +
            [Binding(f"the global {name}", name, where,
                     functools.partial(module.get, name, MISSING))
             for name, where, _ in globals_] +
            [Binding(f"the closure variable {name}", name, where,
                     functools.partial(_cell_contents, cell)) for cell, where, name in cells])
        # the values the trace read: a list, which `changed` updates with equal new objects
        self.values = [value for _, _, value in attributes] + \
            [value for _, _, value in globals_] + [cell.cell_contents for cell, _, _ in cells]

    def changed(self) -> int | None:
        """The index of the first binding holding another value than the trace read, else
        None. An equal new object is taken in, so identity passes next time."""
        if self.instance is not None and self.instance() is None:
            return None   # the method's object is gone: its calls raise ReferenceError
        for i, binding in enumerate(self.bindings):
            now, then = binding.read(), self.values[i]
            if now is then:
                continue
            if now is not MISSING and same_value(now, then):
                self.values[i] = now
                continue
            return i
        return None

    def stale(self) -> tuple[str, str] | None:
        """(the binding's label, why the graph is stale) where a binding changed since the
        trace, warning once per binding and line; None where none did."""
        i = self.changed()
        if i is None:
            return None
        binding, then = self.bindings[i], self.values[i]
        change = _change(then, binding.read())
        key = (self.function, binding.label, binding.where)
        if key not in _warned:
            _warned.add(key)
            warnings.warn(
                f"{self.function} read {binding.label} while it was traced (at "
                f"{binding.where}): {change}, so the call traced it again; to keep one "
                f"graph, pass it to the function as an argument, or make it an ag.Variable "
                f"(v.assign(...) to change it)",
                FrozenValueWarning, stacklevel=user_stacklevel())
        return binding.label, f"{binding.label}, read while tracing, changed: {change}"


def snapshot(fn) -> FrozenBindings | None:
    """The plain bindings that a trace of `fn` (a function or a method) read, as they are now;
    None where there are none."""
    fn = getattr(fn, "_ag_traces", fn)   # a gradient: the function it differentiates
    attributes, instance = [], None
    bound = instance_and_function(fn)
    if bound is not None:
        instance, function = bound
        obj = instance()
        values = getattr(obj, "__dict__", None)
        if values is not None:
            for name, where in reads_of(function, type(obj)).items():
                value = values.get(name, MISSING)
                if is_plain(value):
                    attributes.append((name, where, value))
    else:
        function = getattr(fn, "__func__", fn)   # a static or class method's function
    globals_, cells = [], []
    code = getattr(function, "__code__", None)
    if isinstance(function, types.FunctionType) and code is not None:
        lines = first_reads(code)
        read = {}
        for f in reached(function):   # its helpers of the same module too (`helper(x)`)
            if f.__globals__ is function.__globals__:
                read.update((name, value) for name, value in globals_read(f).items()
                            if name not in read)
        for name, value in read.items():
            if is_plain(value):
                globals_.append((name, _where(code, lines, name), value))
        for name, cell in zip(code.co_freevars, function.__closure__ or ()):
            if is_plain(_cell_contents(cell)):
                cells.append((cell, _where(code, lines, name), name))
    if not (attributes or globals_ or cells):
        return None
    name = getattr(function, "__qualname__", None) or getattr(fn, "__qualname__", repr(fn))
    return FrozenBindings(name, instance if attributes else None, attributes,
                          getattr(function, "__globals__", None), globals_, cells)


def is_plain(value) -> bool:
    """A value a graph holds as it is: a number, bool, string, None, NumPy array or scalar,
    or a tuple of them."""
    if type(value) is tuple:
        return all(is_plain(item) for item in value)
    return isinstance(value, PLAIN)


def same_value(a, b) -> bool:
    """Whether a graph traced with `a` computes what one traced with `b` does: the same type
    and value (floats by `repr`: 0.0 is not -0.0; arrays by dtype, shape and bytes)."""
    t = type(a)
    if t is not type(b):
        return False
    if t is tuple:
        return len(a) == len(b) and all(map(same_value, a, b))
    if isinstance(a, np.ndarray):
        if t is not np.ndarray or a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.dtype.hasobject:
            return False
        return a.tobytes() == b.tobytes()
    if isinstance(a, (float, complex, np.inexact)):
        return repr(a) == repr(b)
    try:
        return bool(a == b)
    except Exception:
        return False


def short(value) -> str:
    """`value` for a message, at most 40 characters."""
    text = repr(value) if not isinstance(value, np.ndarray) else \
        f"an array {value.dtype}{list(value.shape)}"
    return text if len(text) <= 40 else text[:37] + "..."


@functools.lru_cache(maxsize=512)
def first_reads(code: types.CodeType) -> dict:
    """{name: line} of the first line reading each global or closure variable in `code`
    (its nested code included)."""
    lines: dict = {}
    for instruction in dis.get_instructions(code):
        if instruction.opname in ("LOAD_GLOBAL", "LOAD_DEREF", "LOAD_CLASSDEREF"):
            line = instruction.positions.lineno if instruction.positions else None
            if line is not None and line < lines.get(instruction.argval, line + 1):
                lines[instruction.argval] = line
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            for name, line in first_reads(const).items():
                if line < lines.get(name, line + 1):
                    lines[name] = line
    return lines


def _change(then, now) -> str:
    """'it held 2.0 then and holds 3.0 now', for a message."""
    if now is MISSING:
        return f"it held {short(then)} then and is deleted now"
    before, after = short(then), short(now)
    if after == before and isinstance(now, np.ndarray):   # the same dtype and shape
        after = f"another{after[2:]}"
    return f"it held {before} then and holds {after} now"


def _where(code: types.CodeType, lines: dict, name: str) -> str:
    return f"{code.co_filename}:{lines.get(name, code.co_firstlineno)}"


def _attribute(instance, name: str):
    return getattr(instance(), name, MISSING)


def _cell_contents(cell):
    try:
        return cell.cell_contents
    except ValueError:   # an empty cell
        return MISSING
