"""Loops run as Python when the graph runs, where staging them is refused for their
Python containers ("islands" of Python in the graph).

A staged loop carries arrays and numbers, and lists and dicts whose structure
it can follow. A loop that uses a list as a stack or a queue, keys a dict by
traced values, fills a set under a traced condition or appends a different
number of items on the two paths of a staged `if` cannot be staged: staging it
raises `ContainerStagingError` (or `UnhashableTracedValue`, a traced dict key).
Such a loop, `while` or `for`, becomes one `python_block` equation instead
(`runtime/ops/python_block.py`, as a `try` whose handlers catch kernel errors
does): when the graph runs, its kernel runs the converted loop (converted code
on concrete values is Python, `while_stmt`/`for_stmt` included) on copies of
what the loop reads (`island_values`):

- its state at the loop, lists, dicts and sets in it as they were before the
  failed staging changed them (it is undone first: `undo_trace`);
- the traced values its test and body read from enclosing scopes: the cells of
  their closures (and of the functions those hold), as they held at the loop,
  set to the graph's values while it runs and put back after, under a lock
  (two threads may run one graph).

The outputs are the state after the loop: an array keeps the type it had at
the loop, a Python number its Python type. Only a run tells what the loop gives
(`total = 0` then `total += w[v]`: a float64 after one trip, the int after
none), and tracing cannot follow one (what staging refused), so a run that
gives another type is found when the graph runs (`python_block.checked`).
Where the loop and the rest of the graph have no effect (`island_effects`,
`ConcreteFunction.replayable`), it raises `IslandTypeError` and the call runs
eagerly instead (with a `FallbackWarning`): nothing observable happened, so
running the function again is eager's run. Else (a loop that prints, draws a
random number or calls a user's function; a graph that writes a variable) it
is a `TypeError` naming the variable and the loop: a user's effect never runs
twice. The
arrays of the state are also written back in place, so that another name for
one sees what the loop wrote in it. A list, dict, set or object of the state,
or a variable the loop binds first, cannot be a graph value: after the loop it
is an `IslandOnly`, which refuses any use while tracing (so a loop whose stack
is not read after it runs, one whose histogram is read after it is refused).
A traced value the loop reaches another way (an object's attribute) is an
error when the graph runs, never a stale value; so is a change to an array or
container that the loop reaches through a closure. A graph holding an island
has no gradient through it, no ONNX export and no native tier.

    def reachable(adj, start):              seen = python_block[where='f.py:5'] adj seen
        seen = np.zeros(adj.shape[0], bool)
        seen[start] = True
        stack = [start]
        while stack:  ...
"""
from __future__ import annotations

import collections
import threading
import types

import numpy as np

from autograph_runtime import Tracer, TracingError, current_builder
from autograph_runtime.abstract import AbstractValue, python_aval
from autograph_runtime.errors import ContainerStagingError, UnhashableTracedValue, add_note_once
from autograph_runtime.ops.python_block import python_block_p
from autograph_runtime.source import original_location, user_source
from autograph_runtime.tracer import bind, outside_tracing
from autograph_runtime.tracer_value import write_in_place

from .composite import _user_locals
from .containers import is_plain_object
from .island_effects import functions_reached, no_effect
from .island_values import IslandOnly, Templates, Unseen, concrete
from .opaque_containers import changed, put_back, watch
from .undefined import Undefined
from .undo_trace import TraceUndo

WHY = "a staged loop cannot carry how it changes its Python lists, dicts or sets"
_LOCK = threading.RLock()   # the cells of the loop's functions hold one run's values
_ITERABLES = (range, list, tuple, str, bytes, dict, np.ndarray)


def staged_or_island(stage, loop, functions, iterable, state: tuple, names: tuple):
    """`stage()`, the loop staged (or run as Python on concrete values); where that is
    refused for its containers, the loop as one equation running `loop(iterable, state)`
    when the graph runs. `functions` are the loop's test and body."""
    builder = current_builder()
    if builder is None:
        return stage()
    try:
        attempt = _Attempt(builder, functions, iterable, state, names)
    except Unseen:   # a list a staged block filled: no copy of it to start from
        return stage()
    try:
        return stage()
    except (ContainerStagingError, UnhashableTracedValue) as refusal:
        if current_builder() is not builder or not attempt.iterable_known:
            raise
        attempt.undo()
        return attempt.island(loop, refusal)


def _closure_cells(functions) -> list:
    """[(cell, name, value)] of the closures of `functions` and of the functions they
    hold."""
    found = {}
    for function in functions_reached(functions):
        for cell, name in zip(function.__closure__ or (), function.__code__.co_freevars):
            try:
                value = cell.cell_contents
            except ValueError:   # not bound yet
                continue
            if not isinstance(value, types.FunctionType) and id(cell) not in found:
                found[id(cell)] = (cell, name, value)
    return list(found.values())


def _own_containers(cells) -> list:
    """The positions in `cells` of the lists, dicts, sets and objects that are locals of
    the function being traced (not a closure's of code outside it, which outlive it)."""
    own = _user_locals()
    return [i for i, (_, name, value) in enumerate(cells)
            if (isinstance(value, (list, dict, set, collections.deque)) or
                is_plain_object(value))
            and own.get(name, None) is value]


def _loop_line(function):
    """The user's line of the loop whose test (a `while`'s) or body (a `for`'s, binding
    its target first) converted `function` is: that of its first statement."""
    code = function.__code__
    lines = [line for _, _, line in code.co_lines() if line and line != code.co_firstlineno]
    return original_location(code.co_filename, min(lines), code.co_name) if lines \
        else user_source()


def _aval(value):
    """The type the graph holds `value` as after the loop, or None where it cannot."""
    if isinstance(value, Tracer):
        return value.aval
    if type(value) in (bool, int, float, complex):
        return python_aval(value)
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype != object:
        return AbstractValue(np.shape(value), value.dtype)
    return None


class _Attempt:
    """What a loop reads at the loop, taken before staging it is tried."""

    def __init__(self, builder, functions, iterable, state, names):
        source = _loop_line(functions[-1] if iterable is not None else functions[0])
        self.where = f"{source.filename}:{source.lineno}" if source else "<unknown>"
        kind = "while" if iterable is None else "for"
        self.what = f"the `{kind}` loop at {self.where}"
        self.state, self.names = state, names
        self.iterable_known = iterable is None or isinstance(iterable, Tracer) or \
            type(iterable) in _ITERABLES or type(iterable).__name__ in ("TracedRange",
                                                                        "TracedZip")
        self.templates = Templates()
        self.state_template = self.templates.of(tuple(state))
        self.iterable_template = self.templates.of(iterable)
        self.carried = len(self.templates.operands)   # those of the state and iterable
        cells = _closure_cells(functions)
        self.cells = [(cell, self.templates.of(value)) for cell, _, value in cells]
        self.at_loop = [value for _, _, value in cells]   # an inner island may rebind one
        self.own = _own_containers(cells)   # changed when the graph runs, then dropped
        self.cell_names = [name for _, name, _ in cells]
        self.no_effect = no_effect(functions, (state, iterable, self.at_loop))
        self.watched = watch(dict(zip(names, state)), every=True)   # as staging may change
        self.trace_undo = TraceUndo(builder, self.templates.operands, self.what, WHY)

    def undo(self) -> None:
        self.trace_undo.undo()
        put_back(self.watched)
        for (cell, _), value in zip(self.cells, self.at_loop):
            cell.cell_contents = value

    def island(self, loop, refusal):
        """The loop as one `python_block`; the state after it."""
        operands = self.templates.operands
        outs = [(i, _aval(v)) for i, v in enumerate(self.state)]
        outs = [(i, aval) for i, aval in outs if aval is not None]
        written = [k for k, t in enumerate(operands) if not t.aval.weak and (
            k < self.carried or any(t is w for w in self.trace_undo.written))]
        run = _Run(self, loop, [i for i, _ in outs], written)
        avals = [aval for _, aval in outs] + [operands[k].aval for k in written]
        names = [self.names[i] for i, _ in outs] + \
            [f"an array it writes in place ({operands[k].node.name or 'unnamed'})"
             for k in written]
        results = bind(python_block_p, *operands, fn=run, where=self.where,
                       names=tuple(names), out_avals=tuple(avals), what=self.what, why=WHY,
                       no_effect=self.no_effect)
        for k, value in zip(written, results[len(outs):]):
            write_in_place(operands[k], value, self.what)
        final = [IslandOnly(name, self.what, None if isinstance(value, Undefined) else
                            refusal) for name, value in zip(self.names, self.state)]
        for (i, _), value in zip(outs, results):
            final[i] = value
        for i in self.own:   # what later code reads of them is the trace's: refused
            self.cells[i][0].cell_contents = IslandOnly(self.cell_names[i], self.what,
                                                        refusal)
        return tuple(final)


class _Run:
    """The kernel's function: one run of the loop as Python on the graph's values."""

    def __init__(self, attempt, loop, outs, written):
        self.attempt, self.loop, self.outs, self.written = attempt, loop, outs, written
        self.avals = [t.aval for t in attempt.templates.operands]
        self.__name__ = f"loop_at_{attempt.where}"

    def __call__(self, *values):
        attempt = self.attempt
        operands = list(zip(values, self.avals))
        with _LOCK:
            memo: dict = {}
            state = concrete(attempt.state_template, operands, memo)
            iterable = concrete(attempt.iterable_template, operands, memo)
            cells = [(cell, concrete(t, operands, memo)) for cell, t in attempt.cells]
            reached = watch({attempt.cell_names[i]: v for i, (_, v) in enumerate(cells)
                             if i not in attempt.own}, every=True)
            saved = [cell.cell_contents for cell, _ in cells]
            try:
                for cell, value in cells:
                    cell.cell_contents = value
                with outside_tracing():
                    final = self.loop(iterable, state)
            except TracingError as error:   # a traced value it was not given
                add_note_once(error, f"{attempt.what} runs as Python when the graph runs "
                                     f"({WHY}), and reached a value of the trace it was not "
                                     f"given (an object's attribute, a container outside its "
                                     f"state): pass that value to the loop in a variable")
                raise
            finally:
                for (cell, _), value in zip(cells, saved):
                    cell.cell_contents = value
            copies = [memo[id(slot)] for slot in attempt.templates.slots]
            self._check_unchanged(reached, values, copies)
        return [final[i] for i in self.outs] + [copies[k] for k in self.written]

    def _check_unchanged(self, reached, values, copies):
        """`TypeError` where the loop changed what it reads through a closure."""
        changes = changed(reached)
        label = changes[0][2] if changes else next((
            f"array {self.attempt.templates.operands[k].node.name or 'unnamed'!r}"
            for k in range(self.attempt.carried, len(copies))
            if k not in self.written and not self.avals[k].weak
            and _written(copies[k], values[k])), None)
        if label is not None:
            raise TypeError(f"{self.attempt.what}, run as Python when the graph runs ({WHY}), "
                            f"changed {label}, which it reads from outside the loop and the "
                            f"graph does not carry: make it a variable the loop assigns")


def _written(copy, value) -> bool:
    value = np.asarray(value.get() if hasattr(value, "get") else value)
    return not np.array_equal(copy, value, equal_nan=value.dtype.kind in "fc")
