"""Module-level and closure state a graph function's trace changes: refused, as an argument's is.

A trace runs the function's Python once; the graph then runs without it. A
traced value that a trace leaves in module-level state (`LOG.append(x.sum())`,
`global last; last = x.max()`, `MONITOR.peak = ...`) would outlive it there,
never the graph's value: such a trace is always refused. A trace for a call
that may run eagerly instead (the eager fallback, on by default) is refused
for any change: a global assigned (`global calls; calls += 1`), a module-level
list or dict changed (`STATS["n"] += 1`). Eagerly every call makes that change,
where the graph would make it once, while tracing, and a later call reading
it back would answer differently. What the trace changed is put back, so the
call runs as plain Python and changes the state once, as eager code does:

    LOG = []

    @ag.convert
    def step(x):
        LOG.append(float(x.sum()))   # refused: runs eagerly, LOG grows at every call
        return x * 2

A refusal for module state is tried again once: a module-level cache that the
eager run fills (`if n not in _WINDOWS: _WINDOWS[n] = np.hanning(n)`) is not
changed by the next trace, which then gives a graph. Where a graph is what was
asked for (`get_concrete_function`, the fallback off), a Python value a trace
leaves in module state stays, as `tf.function` keeps Python side effects.
The same holds for the enclosing function's variables a closure assigns
(`nonlocal n; n += 1`), the lists and dicts closure cells hold, and the plain
class attributes (`Hits.count += 1`) of the classes the code names. Watched:
the function's own code (its nested functions' included) and the user's
functions it reaches through its globals and closure cells (`reached`: a helper
bumping a counter), not functions it reaches otherwise (an argument, an
attribute). An iterator they hold is not advanced while tracing
(`operators/outside_iterators.py`).
"""
from __future__ import annotations

import contextlib
import dis
import functools
import re
import sys
import threading
import types
from typing import Callable, NamedTuple

from autograph_runtime import Tracer, TracingError
from autograph_runtime.source import is_library_file, location_note

from autograph_runtime.tree import flatten

from .argument_containers import holds_tracers, is_object, put_back, sets_values, watch_named
from .operators.containers import is_plain_object, items_of, same_items

_MISSING = object()
_VALUES = (bool, int, float, complex, str, bytes, type(None))


class ModuleStateChanged(TracingError):
    """A trace changed module-level state, which the graph could not change again."""


class _Policy(threading.local):
    every_change = False   # True while tracing for a call that may run eagerly instead


_policy = _Policy()


@contextlib.contextmanager
def refusing_every_change():
    """In the block, a trace changing module state with Python values is refused too."""
    before, _policy.every_change = _policy.every_change, True
    try:
        yield
    finally:
        _policy.every_change = before


@functools.lru_cache(maxsize=512)
def _reads_and_writes(code: types.CodeType) -> tuple[frozenset, frozenset]:
    """(the globals `code` reads, those it assigns or deletes), nested code included."""
    reads, writes = set(), set()
    for instruction in dis.get_instructions(code):
        if instruction.opname == "LOAD_GLOBAL":
            reads.add(instruction.argval)
        elif instruction.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"):
            writes.add(instruction.argval)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            inner_reads, inner_writes = _reads_and_writes(const)
            reads |= inner_reads
            writes |= inner_writes
    return frozenset(reads), frozenset(writes)


def globals_read(function) -> dict:
    """{name: value} of the globals `function`'s code (nested code included) reads."""
    code, module = getattr(function, "__code__", None), getattr(function, "__globals__", None)
    if code is None or module is None:
        return {}
    return {name: module[name] for name in sorted(_reads_and_writes(code)[0]) if name in module}


def _same_value(a, b) -> bool:
    return a is b or (type(a) is type(b) and type(a) in _VALUES and a == b)


class _Slot(NamedTuple):
    """A binding a trace may change: a global, a closure cell, a class attribute."""

    label: str
    get: Callable[[], object]
    put: Callable[[object], None]   # (_MISSING: unbinds it)


def _global_slot(module: dict, name: str) -> _Slot:
    def put(value):
        if value is _MISSING:
            module.pop(name, None)
        else:
            module[name] = value
    return _Slot(f"the global {name!r}", lambda: module.get(name, _MISSING), put)


def _cell_slot(cell, name: str, function) -> _Slot:
    def get():
        try:
            return cell.cell_contents
        except ValueError:   # not bound
            return _MISSING

    def put(value):
        if value is not _MISSING:
            cell.cell_contents = value
    return _Slot(f"the variable {name!r} of {function.__qualname__}'s enclosing function",
                 get, put)


def _class_slot(cls: type, name: str) -> _Slot:
    def put(value):
        if value is _MISSING:
            delattr(cls, name)
        else:
            setattr(cls, name, value)
    return _Slot(f"the class attribute {cls.__name__}.{name}",
                 lambda: cls.__dict__.get(name, _MISSING), put)


class ModuleWatch:
    """What a trace may change outside `function`, in it and in the functions it reaches
    through its globals and closure cells (`reached`): the lists, dicts and plain objects
    their globals and closure cells hold, the globals and enclosing variables they assign
    (`global`, `nonlocal`), and the plain values of the classes they name."""

    def __init__(self, function):
        self.every_change = _policy.every_change
        self.module = getattr(function, "__globals__", None)
        named, slots, cells = {}, [], set()   # (cells: the names of closure cells)
        for f in reached(function):
            reads, writes = _reads_and_writes(f.__code__)
            named.update((name, f.__globals__[name]) for name in sorted(reads)
                         if name in f.__globals__)
            slots += [_global_slot(f.__globals__, name) for name in sorted(writes)]
            stored = _cells_stored(f.__code__)
            for name, cell in zip(f.__code__.co_freevars, f.__closure__ or ()):
                value = _cell_slot(cell, name, f).get()
                if name not in named:
                    named[name] = value
                    cells.add(name)
                if name in stored:
                    slots.append(_cell_slot(cell, name, f))
        self.named = named   # the values of the globals and closure cells they name
        self.containers = watch_named({name: value for name, value in named.items()
                                       if isinstance(value, (list, dict)) or is_object(value)})
        self._cells = cells
        slots += [_class_slot(cls, key) for cls in {id(v): v for v in named.values()
                                                     if _user_class(v)}.values()
                  for key, value in vars(cls).items()
                  if not key.startswith("__") and type(value) in _VALUES]
        self.bindings = [(slot, slot.get()) for slot in slots]

    def put_back(self) -> None:
        put_back(self.containers)
        for slot, value in self.bindings:
            if slot.get() is not value:
                slot.put(value)

    def refuse_changed(self, function: str, where) -> None:
        """`ModuleStateChanged` (after putting everything back) where the trace changed a
        binding, a list or dict, or put a traced value in an object."""
        what = self._change()
        if what is None:
            return
        self.put_back()
        raise ModuleStateChanged(
            f"{function} {what}{location_note(where)}: such state changes once, while "
            f"tracing, and never when the graph runs, where eagerly every call changes it; "
            f"return the value instead, or keep it in an ag.Variable")

    def _change(self) -> str | None:
        for slot, before in self.bindings:
            now = slot.get()
            if not _same_value(now, before) and (self.every_change or _traced(now)):
                return f"assigns {slot.label}"
        for container, items, label in self.containers:
            now = items_of(container)
            if same_items(now, items):
                continue
            kind = "object" if is_plain_object(container) else type(container).__name__
            where = "enclosing" if re.match(r"\w+", label)[0] in self._cells else "module-level"
            if holds_tracers(now, items):
                return f"puts a traced value in the {where} {kind} {label!r}"
            if self.every_change and (not is_plain_object(container) or sets_values(now, items)):
                return f"changes the {where} {kind} {label!r}"
        return None


_MAX_REACHED = 32   # functions watched for one trace


def reached(function) -> list:
    """`function` (a bound method's function) and the user's functions its globals and
    closure cells name, transitively (at most `_MAX_REACHED`)."""
    function = getattr(function, "__func__", function)
    found, seen, stack = [], set(), [function]
    while stack and len(found) < _MAX_REACHED:
        f = stack.pop()
        if not isinstance(f, types.FunctionType) or id(f) in seen or \
                is_library_file(f.__code__.co_filename):
            continue
        seen.add(id(f))
        found.append(f)
        reads, _ = _reads_and_writes(f.__code__)
        names = [f.__globals__.get(name) for name in sorted(reads)]
        for cell in f.__closure__ or ():
            try:
                names.append(cell.cell_contents)
            except ValueError:
                pass
        stack += [getattr(v, "__func__", v) for v in names
                  if isinstance(getattr(v, "__func__", v), types.FunctionType)]
    return found


@functools.lru_cache(maxsize=512)
def _cells_stored(code: types.CodeType) -> frozenset:
    """The enclosing variables `code` (nested code included) assigns (`nonlocal`)."""
    stored = set()
    for instruction in dis.get_instructions(code):
        if instruction.opname in ("STORE_DEREF", "DELETE_DEREF"):
            stored.add(instruction.argval)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            stored |= _cells_stored(const)
    return frozenset(stored & set(code.co_freevars)) if code.co_freevars else frozenset(stored)


def _user_class(value) -> bool:
    return isinstance(value, type) and not is_library_file(
        getattr(sys.modules.get(value.__module__), "__file__", None) or "<library>")


def _traced(value) -> bool:
    return any(isinstance(leaf, Tracer) for leaf in flatten(value)[0])
