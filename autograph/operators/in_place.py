"""Arrays made in the function and written in place inside a staged block.

    t = np.zeros(3)              # a concrete NumPy array while tracing
    for i in range(n):           # n traced: the body is traced once
        t += 1                   # (or t.fill(v), t.sort(), np.add(t, 1, out=t))

Traced once, the body would write the concrete array once. So while a staged
block traces, the concrete arrays in its state are read-only; if the block
writes one, what it traced is dropped and it is traced again with those arrays
as traced values, which the body then rewrites as loop or branch state (see
`runtime.tracer_value.write_in_place`). Another local name bound to the same
memory would not see the change: `TracingError` naming both.
"""
from __future__ import annotations

import os
import sys

import numpy as np

from runtime import Tracer, TracingError, current_builder
from runtime.source import location_note, user_source

_PACKAGES = (os.path.dirname(os.path.dirname(__file__)) + os.sep,
             os.path.dirname(sys.modules["runtime"].__file__) + os.sep)


def staged_writing(stage, state: tuple, names: tuple):
    """`stage(state)`, run again with the arrays of `state` traced if it wrote one."""
    arrays = [i for i, v in enumerate(state)
              if type(v) is np.ndarray and v.flags.writeable and v.dtype != object]
    if not arrays:
        return stage(state)
    builder = current_builder()
    mark = len(builder.eqns)
    try:
        for i in arrays:
            state[i].flags.writeable = False
        return stage(state)
    except ValueError as error:
        if "read-only" not in str(error):
            raise
    finally:
        for i in arrays:
            state[i].flags.writeable = True
    del builder.eqns[mark:]
    _check_aliases(state, arrays, names)
    lifted = list(state)
    for i in arrays:
        lifted[i] = Tracer(builder, builder.const(state[i]))
    return stage(tuple(lifted))


def _check_aliases(state, arrays, names):
    """`TracingError` where another name shares memory with an array about to be traced."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGES):
        frame = frame.f_back
    scope = dict(frame.f_locals) if frame is not None else {}
    label = [names[i] if i < len(names) else f"state {i}" for i in range(len(state))]
    for i in arrays:
        others = [label[j] for j in range(len(state)) if j != i and _shares(state[i], state[j])]
        others += [name for name, value in scope.items()
                   if name not in label and _shares(state[i], value)]
        if others:
            raise TracingError(
                f"{label[i]!r} is written in place inside an `if` or loop on a traced value"
                f"{location_note(user_source())}, and {others[0]!r} shares its memory: NumPy "
                f"would change both, which a graph cannot follow; copy one of them "
                f"(`{others[0]} = {label[i]}.copy()`), or assign the new value "
                f"(`{label[i]} = {label[i]} + ...`) instead")


def _shares(array, value) -> bool:
    return isinstance(value, np.ndarray) and (value is array or np.shares_memory(array, value))
