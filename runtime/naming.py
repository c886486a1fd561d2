"""Naming traced values after the variables the user's code stores them in.

No trace hook: the names come from the bytecode. When an equation is added
(`GraphBuilder.add_eqn` calls `note_equation`), the innermost user frame is
executing one instruction (`frame.f_lasti`); a table built once per code
object with `dis` says which variables the next instructions store that
instruction's result into (`h = ...`, `a, b = ...`, `for v in ...`). Once the
store has run, the still-unnamed traced values those variables hold take
their names, so `h = np.tanh(x) * 2` names the multiply `h` and leaves the
`tanh` as `t0`. A result returned from a user function (`return x * 2`) is
named by the variable its caller stores it in.

Naming happens only inside `variable_names()` (graph functions trace in it),
and only in frames below the one that entered it.

>>> import numpy as np
>>> from runtime import AbstractValue, GraphBuilder
>>> def scale(x):
...     h = np.tanh(x) * 2.0
...     return h + 1.0
>>> with GraphBuilder("scale") as builder, variable_names():
...     y = scale(builder.new_input(AbstractValue((3,), np.float32), "x"))
>>> print(builder.build([y]))
graph scale(x:f32[3]) {
  t0:f32[3] = tanh x
  h:f32[3] = multiply t0 2.0
  t1:f32[3] = add h 1.0
  return t1
}
"""
from __future__ import annotations

import dis
import sys
import threading
import weakref

from .source import is_user_file
from .tracer_value import Tracer

_STORES = frozenset({"STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"})
_RETURN = "return"   # the instruction's result is returned: its caller names it


def _stored_names(instructions, i) -> tuple | str:
    """The names instruction `i`'s result is stored into (or `_RETURN`)."""
    if i + 1 >= len(instructions):
        return ()
    following = instructions[i + 1]
    if following.opname == "JUMP_FORWARD":           # `a if c else b`: the store is after
        i = next((k - 1 for k, ins in enumerate(instructions)
                  if ins.offset == following.argval), i)
        following = instructions[i + 1] if i + 1 < len(instructions) else following
    op = following.opname
    if op == "RETURN_VALUE":
        return _RETURN
    if op in ("COPY", "UNPACK_SEQUENCE"):              # `a = b = ...`, `a, b = ...`
        names = []
        for ins in instructions[i + 2:]:
            if ins.opname in _STORES:
                names.append(ins.argval)
            elif ins.opname == "STORE_FAST_STORE_FAST":  # 3.13
                names.extend(ins.argval)
            elif ins.opname == "STORE_FAST_LOAD_FAST":   # 3.13
                names.append(ins.argval[0])
                break
            else:
                break
        return tuple(names)
    if op in _STORES:
        return (following.argval,)
    if op in ("STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST"):  # 3.13
        return (following.argval[0],)
    return ()


class _CodeTargets(dict):
    """Instruction offset -> the names its result is stored into, for one code object.

    Every offset up to the next instruction maps to the instruction: while a
    call runs, `f_lasti` may point into the call's inline cache (3.11+).
    """

    def __init__(self, code):
        super().__init__()
        instructions = list(dis.get_instructions(code))
        for i, ins in enumerate(instructions):
            names = _stored_names(instructions, i)
            if names:
                end = instructions[i + 1].offset if i + 1 < len(instructions) else ins.offset + 2
                for offset in range(ins.offset, end, 2):
                    self[offset] = names


_targets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def stored_names(code, offset: int) -> tuple | str:
    """The variables that the instruction at `offset` of `code` stores its result into."""
    table = _targets.get(code)
    if table is None:
        table = _targets[code] = _CodeTargets(code)
    return table.get(offset, ())


class _Namer:
    """One `variable_names()` block: the stores of user frames still to be read."""

    def __init__(self, boundary):
        self.boundary = boundary    # the frame that entered the block: naming stops there
        self.pending: list = []     # [frame, f_lasti, names, Vars named in advance]

    def note(self, outs):
        self.flush(done_only=True)
        frame, names, returned = self._store_site()
        if not names:
            return
        lasti = frame.f_lasti
        for entry in self.pending:
            if entry[0] is frame and entry[1] == lasti:
                # the same instruction again: its earlier result was an intermediate
                # one (`np.linalg.norm` makes several equations) unless already stored
                values = frame.f_locals
                if not any(type(values.get(n)) is Tracer and values.get(n).node in entry[3]
                           for n in names):
                    for var, name in zip(entry[3], names):
                        if var.name == name:
                            var.name = None
                self.pending.remove(entry)
                break
        named = []
        if not returned and len(names) == len(outs):  # named now, for errors while tracing
            for var, name in zip(outs, names):
                if var.name is None:
                    var.name = name
                    named.append(var)
        self.pending.append([frame, lasti, names, named])

    def _store_site(self):
        """(user frame, names its current instruction stores into, through a return?)."""
        frame = sys._getframe(3)
        boundary, returned = self.boundary, False
        while frame is not None and frame is not boundary:
            code = frame.f_code
            if is_user_file(code.co_filename):
                names = stored_names(code, frame.f_lasti)
                if names != _RETURN:
                    return frame, names, returned
                returned = True
            frame = frame.f_back
        return None, (), returned

    def flush(self, done_only=False):
        """Names the unnamed traced values that finished stores put in variables."""
        keep = []
        for entry in self.pending:
            frame, lasti, names, _ = entry
            if done_only and frame.f_lasti == lasti:
                keep.append(entry)
                continue
            values = frame.f_locals
            for name in names:
                value = values.get(name)
                if type(value) is Tracer and value.node.name is None:
                    value.node.name = name
        self.pending = keep


class _Stack(threading.local):
    def __init__(self):
        self.namers: list[_Namer] = []


_stack = _Stack()


def note_equation(outs) -> None:
    """Called for each new equation: names `outs` (its output Vars) after the variables
    that the user's code stores them in."""
    namers = _stack.namers
    if namers:
        namers[-1].note(outs)


class variable_names:
    """Within the block, traced values take the names of the variables they are stored in."""

    def __enter__(self):
        _stack.namers.append(_Namer(sys._getframe(1)))
        return self

    def __exit__(self, *exc):
        namer = _stack.namers.pop()
        namer.flush()
        namer.boundary = None
