"""Arrays made in the function and written in place inside a staged block.

    t = np.zeros(3)              # a concrete NumPy array while tracing
    for i in range(n):           # n traced: the body is traced once
        t += 1                   # (or t.fill(v), t.sort(), np.add(t, 1, out=t))

Traced once, the body would write the concrete array once. So while a staged
block traces, the concrete arrays in its state are read-only; if the block
writes one, what it traced is dropped and it is traced again with those arrays
as traced values, which the body then rewrites as loop or branch state (see
`runtime.tracer_value.write_in_place`). Another local name bound to the same
memory would not see the change: `TracingError` naming both. The function's
other local arrays are read-only while the block traces: one written in the
block (by a function it calls) is a `TracingError` too.

A traced array the block does not assign but writes through a view made in
it (`w = y[1:]; w += 0.5`, `w[0] = v`, `np.add(w, v, out=w)`), or whose view
in its state it writes while reading the array from before it, is carried as
state too: the trace raises `runtime.views.CarryNeeded`, `carrying` names the
array to carry, `staged_block` traces the block again with it, and `carried`
gives each trace's final value of it (the input standing for it, written).
Every block between the array's graph and the write carries it, from the
outermost one, each remembering it for its later traces (`carries`).
"""
from __future__ import annotations

import contextlib
import sys
import threading

import numpy as np

from autograph_runtime import Tracer, TracingError, current_builder, views
from autograph_runtime.ops.subgraphs import undeferred_errors
from autograph_runtime.source import is_library_file, location_note, user_source
from autograph_runtime.tree import flatten

from . import aliases
from .reachable import reachable

def carried(value):
    """What a trace of a staged block returns for `value`, an entry of its state it
    carries besides the user's (`carrying`): for a traced array of an enclosing graph,
    the input standing for it (written in place by the trace, or not)."""
    if isinstance(value, Tracer):
        builder = current_builder()
        if builder is not value.builder and builder.stand_ins:
            inner = views.inner_version(builder, value)
            return value if inner is None else inner
    return value


def carrying(error, builder, state) -> tuple | None:
    """`(label, array)` where `error` says that the staged block staged in `builder`'s
    graph must carry a traced array of it (or of an enclosing graph) as state: a view of
    it was written in the block (`runtime.views.CarryNeeded`). None where `error` is
    not about this block; the refusal it holds where the block carries the array already.

        y = x * 2.0
        for i in range(n):     # traced again with `y` as state, written back after
            w = y[1:]
            w += 0.5           # NumPy writes y through w
    """
    if not isinstance(error, views.CarryNeeded) or error.staged_from is not builder:
        return None
    if any(leaf is error.value for leaf in flatten(state)[0]):
        raise error.refusal from None
    return (error.value.node.name or "array"), error.value


def staged_writing(stage, state: tuple, names: tuple):
    """`stage(state)`, run again with the arrays of `state` traced if it wrote one.

    The other arrays bound to the calling function's local names are read-only
    too: written in the block (by a function it calls), `TracingError`.
    """
    scope = user_locals()
    since = aliases.mark()
    result = _staged_writing(stage, state, names, scope)
    kept = _kept(state, result)  # other names bound to them see the write: not aliases
    aliases.check_written_state(
        state, names, {name: v for name, v in scope.items() if id(v) not in kept}, since)
    return result


def _kept(state: tuple, result) -> set:
    """The ids of the traced values of `state` that the staged block returns as themselves
    (`runtime.tracing.write_through` wrote them in place, or nothing wrote them): every
    local name bound to one holds the block's final value."""
    outs = [result] + [r for r in (result if isinstance(result, tuple) else ())
                       if isinstance(r, tuple)]   # an `if` with values bound on one path
    return {id(a) for out in outs if isinstance(out, tuple) and len(out) == len(state)
            for a, b in zip(state, out) if a is b and isinstance(a, Tracer)}


def _staged_writing(stage, state, names, scope):
    arrays = [i for i, v in enumerate(state) if _writeable(v)]
    outside = _outside_arrays(state, scope)
    if not arrays and not outside:
        return stage(state)
    builder = current_builder()
    mark = len(builder.eqns)
    result = _frozen_run(stage, state, [state[i] for i in arrays] + list(outside.values()))
    if isinstance(result, _Result) or not arrays:
        return _refuse_outside(result, outside)
    del builder.eqns[mark:]
    _check_aliases(state, arrays, names, scope)
    lifted = list(state)
    for i in arrays:
        lifted[i] = Tracer(builder, builder.const(state[i]))
    return _refuse_outside(_frozen_run(stage, tuple(lifted), list(outside.values())), outside)


def _outside_arrays(state, scope) -> dict:
    """The writeable NumPy arrays not in `state` that the block's code reaches: the
    calling code's locals, and those of the converted code it runs in and the closures'
    (`state = np.zeros(n)` of the function, written by a nested `visit(v)` a branch
    calls): by name, the innermost first."""
    own, other = reachable()
    found: dict = {}
    for name, value in (*scope.items(), *own.items(), *other.items()):
        if _writeable(value) and not any(value is x for x in state) \
                and not any(value is x for x in found.values()):
            found.setdefault(name, value)
    return found


class _Result:
    def __init__(self, value):
        self.value = value


class _Probing(threading.local):
    depth = 0


_probing = _Probing()


def _is_probe_write(error) -> bool:
    """NumPy's error for a write to an array a probe made read-only (never deferred)."""
    return _probing.depth > 0 and isinstance(error, ValueError) and "read-only" in str(error)


undeferred_errors.append(_is_probe_write)


def refuse_probe_at(f, args) -> None:
    """NumPy's read-only error for `ufunc.at(t, ...)` on an array a probe made read-only,
    which NumPy 2.4 writes anyway (`np.add.at(s, u, 1)` of a closure's `s`)."""
    if _probing.depth > 0 and args and type(args[0]) is np.ndarray \
            and not args[0].flags.writeable and getattr(f, "__name__", "") == "at" \
            and isinstance(getattr(f, "__self__", None), np.ufunc):
        raise ValueError("output array is read-only")


@contextlib.contextmanager
def read_only(arrays, probe: bool = True):
    """The writeable ones of `arrays` read-only in the block: a write to one raises
    NumPy's `ValueError`, which a staged block's `probe` never defers (`_is_probe_write`)."""
    changed = [array for array in arrays if array.flags.writeable]
    _probing.depth += probe
    try:
        for array in changed:
            array.flags.writeable = False
        yield
    finally:
        _probing.depth -= probe
        _thaw(changed)


def _frozen_run(stage, state, frozen):
    """`_Result(stage(state))` with the `frozen` arrays read-only, or NumPy's read-only error."""
    try:
        with read_only(frozen):
            return _Result(stage(state))
    except ValueError as error:
        if "read-only" not in str(error):
            raise
        return error


def _refuse_outside(result, outside):
    if isinstance(result, _Result):
        return result.value
    if not outside:
        raise result
    raise TracingError(
        f"an array from outside an `if` or loop on a traced value (one of "
        f"{', '.join(map(repr, sorted(outside)))}) is written in place inside it"
        f"{location_note(user_source())}: the block is traced once, so the write would "
        f"happen once; assign the new value to the variable in the block instead") from result


def _thaw(arrays):
    """Makes `arrays` writeable again (a view only once its base is)."""
    pending = list(arrays)
    while pending:
        left = []
        for array in pending:
            try:
                array.flags.writeable = True
            except ValueError:
                left.append(array)
        if len(left) == len(pending):
            raise RuntimeError("could not make arrays written in a staged block writeable again")
        pending = left


def _writeable(value) -> bool:
    return type(value) is np.ndarray and value.flags.writeable and value.dtype != object


def user_frame():
    """The frame of the converted code that called the operator (None if there is none)."""
    frame = sys._getframe(1)
    while frame is not None and is_library_file(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def user_locals() -> dict:
    """The local names of the converted code that called the operator."""
    frame = user_frame()
    return dict(frame.f_locals) if frame is not None else {}


def _check_aliases(state, arrays, names, scope):
    """`TracingError` where another name shares memory with an array about to be traced."""
    label = [names[i] if i < len(names) and names[i] else
             next((n for n, v in scope.items() if v is state[i]), f"state {i}")
             for i in range(len(state))]
    for i in arrays:
        others = [label[j] for j in range(len(state))
                  if j != i and shares_memory(state[i], state[j])]
        others += [name for name, value in scope.items()
                   if name not in label and shares_memory(state[i], value)]
        if others:
            raise TracingError(
                f"{label[i]!r} is written in place inside an `if` or loop on a traced value"
                f"{location_note(user_source())}, and {others[0]!r} shares its memory: NumPy "
                f"would change both, which a graph cannot follow; copy one of them "
                f"(`{others[0]} = {label[i]}.copy()`), or assign the new value "
                f"(`{label[i]} = {label[i]} + ...`) instead")


def shares_memory(array, value) -> bool:
    """True where the NumPy `value` may share memory with `array` (or is it)."""
    if not isinstance(value, np.ndarray):
        return False
    try:
        return value is array or np.shares_memory(array, value, max_work=10_000)
    except np.exceptions.TooHardError:
        return True
