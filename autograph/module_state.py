"""Module-level state a graph function's trace changes: refused, as an argument's is.

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
Only the names the function's own code reads or assigns (its nested
functions' included) are watched, not those of the functions it calls.
"""
from __future__ import annotations

import contextlib
import dis
import functools
import threading
import types

from autograph_runtime import Tracer, TracingError
from autograph_runtime.source import location_note

from autograph_runtime.tree import flatten

from .argument_containers import holds_tracers, is_object, put_back, watch_named
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


class ModuleWatch:
    """What a trace may change of the module of `function`: the lists, dicts and plain
    objects its globals hold, and the globals it assigns."""

    def __init__(self, function):
        code = getattr(function, "__code__", None)
        self.every_change = _policy.every_change
        self.module = getattr(function, "__globals__", None)
        if code is None or self.module is None:
            self.containers, self.bindings = [], {}
            return
        values = globals_read(function)
        self.containers = watch_named({name: value for name, value in values.items()
                                       if isinstance(value, (list, dict)) or is_object(value)})
        self.bindings = {name: self.module.get(name, _MISSING)
                         for name in sorted(_reads_and_writes(code)[1])}

    def put_back(self) -> None:
        put_back(self.containers)
        for name, value in self.bindings.items():
            if value is _MISSING:
                self.module.pop(name, None)
            else:
                self.module[name] = value

    def refuse_changed(self, function: str, where) -> None:
        """`ModuleStateChanged` (after putting everything back) where the trace changed a
        global binding, a module-level list or dict, or put a traced value in an object."""
        what = self._change()
        if what is None:
            return
        self.put_back()
        raise ModuleStateChanged(
            f"{function} {what}{location_note(where)}: module state changes once, while "
            f"tracing, and never when the graph runs, where eagerly every call changes it; "
            f"return the value instead, or keep it in an ag.Variable")

    def _change(self) -> str | None:
        for name, before in self.bindings.items():
            now = self.module.get(name, _MISSING)
            if not _same_value(now, before) and (self.every_change or _traced(now)):
                return f"assigns the global {name!r}"
        for container, items, label in self.containers:
            now = items_of(container)
            if same_items(now, items):
                continue
            if holds_tracers(now, items):
                kind = "object" if is_plain_object(container) else type(container).__name__
                return f"puts a traced value in the module-level {kind} {label!r}"
            if self.every_change and not is_plain_object(container):
                return f"changes the module-level {type(container).__name__} {label!r}"
        return None


def _traced(value) -> bool:
    return any(isinstance(leaf, Tracer) for leaf in flatten(value)[0])
