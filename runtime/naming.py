"""Naming traced values after the variables the user's code stores them in.

No trace hook: the names come from the bytecode. When an equation is added
(`GraphBuilder.add_eqn` calls `note_equation`), the innermost user frame is
executing one instruction (`frame.f_lasti`); the instructions after it,
decoded once per instruction (`co_code`, skipping inline caches), say which
variables it stores its result into (`h = ...`, `a, b = ...`, `for v in ...`). Once the
store has run, the still-unnamed traced values those variables hold take
their names, so `h = np.tanh(x) * 2` names the multiply `h` and leaves the
`tanh` as `t0`. A result returned from a user function (`return x * 2`) is
named by the variable its caller stores it in. Stores without an equation
(`a, b = -x, y`; the parameters of a called function, `def loop_body(itr)`)
are found by reading a user frame's variables when an equation first comes
from it, when its line changes, and when equations move on to another frame,
as a line hook would, but only where equations are made. The work per equation
does not grow with the function: per-code facts are keyed by the code's id
(hashing a code object costs as much as its size), and on a line change only
the variables stored since the last read are looked at when the frame ran
straight to here (`_CodeFacts.stored_between`; after a jump, all of them).
Before Python 3.13, `frame.f_locals` itself still copies every variable of the
frame (in C), so a function of thousands of variables stays slower per line.

Naming happens only inside `variable_names()` (graph functions trace in it),
and only in frames below the one that entered it.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
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

import bisect
import dis
import sys
import threading
import weakref

from .source import is_library_file
from .tracer_value import Tracer

_RETURN = "return"   # the instruction's result is returned: its caller names it
_OP = dis.opmap
_CACHE = _OP.get("CACHE", -1)
_EXTENDED_ARG = _OP["EXTENDED_ARG"]
_RETURN_VALUE = _OP["RETURN_VALUE"]
_JUMP_FORWARD = _OP["JUMP_FORWARD"]
_UNPACK_SEQUENCE = _OP["UNPACK_SEQUENCE"]
_THEN_STORES = {_UNPACK_SEQUENCE} | ({_OP["COPY"]} if "COPY" in _OP else set())
_STORE_FAST, _STORE_DEREF = _OP["STORE_FAST"], _OP["STORE_DEREF"]
_STORE_NAME, _STORE_GLOBAL = _OP["STORE_NAME"], _OP["STORE_GLOBAL"]
_STORE_FAST_STORE_FAST = _OP.get("STORE_FAST_STORE_FAST", -1)   # 3.13
_STORE_FAST_LOAD_FAST = _OP.get("STORE_FAST_LOAD_FAST", -1)     # 3.13


def _instruction(code, offset: int):
    """(opcode, arg, offset of the next instruction) of the instruction at `offset`."""
    raw = code.co_code
    arg = 0
    while True:
        op, arg = raw[offset], arg << 8 | raw[offset + 1]
        offset += 2
        if op != _EXTENDED_ARG:
            break
    while offset < len(raw) and raw[offset] == _CACHE:  # inline caches (3.11+)
        offset += 2
    return op, arg, offset


def _local_name(code, arg: int) -> str:
    if sys.version_info >= (3, 11):
        return code._varname_from_oparg(arg)   # locals, cells and free variables
    return code.co_varnames[arg]


def _stores(code, op: int, arg: int) -> tuple:
    """The names one store instruction writes (none for any other instruction)."""
    if op == _STORE_FAST:
        return (_local_name(code, arg),)
    if op == _STORE_DEREF:
        if sys.version_info >= (3, 11):
            return (_local_name(code, arg),)
        return ((code.co_cellvars + code.co_freevars)[arg],)
    if op == _STORE_NAME or op == _STORE_GLOBAL:
        return (code.co_names[arg],)
    if op == _STORE_FAST_STORE_FAST:
        return (_local_name(code, arg >> 4), _local_name(code, arg & 15))
    if op == _STORE_FAST_LOAD_FAST:
        return (_local_name(code, arg >> 4),)
    return ()


def _stored_names(code, lasti: int) -> tuple | str:
    """The names the result of the instruction running at `lasti` is stored into.

    `lasti` is the instruction's offset, or one of its inline cache entries'
    (while a call runs, 3.11+): the next instruction is the first after it
    that is not a cache entry.
    """
    raw = code.co_code
    current = lasti
    while current > 0 and raw[current] == _CACHE:
        current -= 2
    offset = lasti + 2
    while offset < len(raw) and raw[offset] == _CACHE:
        offset += 2
    if offset >= len(raw):
        return ()
    if raw[current] == _UNPACK_SEQUENCE:             # `a, b = x`: iterating x itself
        return _following_stores(code, offset)
    op, arg, after = _instruction(code, offset)
    if op == _JUMP_FORWARD:                          # `a if c else b`: the store is after
        target = after + 2 * arg
        if target >= len(raw):
            return ()
        op, arg, after = _instruction(code, target)
    if op == _RETURN_VALUE:
        return _RETURN
    if op in _THEN_STORES:                           # `a, b = ...`, `a = b = ...`
        return _following_stores(code, after)
    return _stores(code, op, arg)


def _following_stores(code, offset: int) -> tuple:
    """The names stored by the run of store instructions from `offset` on."""
    names = []
    while offset < len(code.co_code):
        op, arg, offset = _instruction(code, offset)
        found = _stores(code, op, arg)
        if not found:
            break
        names.extend(found)
        if op == _STORE_FAST_LOAD_FAST:
            break
    return tuple(names)


class _CodeFacts:
    """What naming needs to know of one code object, decoded once.

    `targets` caches `stored_names` per instruction; `stores`/`store_offsets`
    list the store instructions, and `jumps` and `handlers` say where execution
    may leave a straight run of instructions, so that `stored_between` can name
    the variables a run stored without reading every variable of the frame.
    """

    def __init__(self, code):
        self.targets: dict[int, tuple | str] = {}
        self.store_offsets: list[int] = []
        self.stores: list[tuple] = []
        self.jumps: list[int] = []
        offset, size = 0, len(code.co_code)
        while offset < size:
            op, arg, after = _instruction(code, offset)
            names = _stores(code, op, arg)
            if names:
                self.store_offsets.append(offset)
                self.stores.append(names)
            if op in _JUMPS:
                self.jumps.append(offset)
            offset = after
        self.handlers = [(e.start, e.end) for e in dis.Bytecode(code).exception_entries]
        self.cells = code.co_cellvars + code.co_freevars   # nested functions store these
        # the order a frame lists its variables in (`f_locals`), which picks the name of
        # a value stored in two variables at once
        self.order = {n: i for i, n in enumerate(code.co_varnames + self.cells)}

    def stored_between(self, start: int, stop: int) -> tuple | None:
        """The variables stored by the instructions after `start` and before `stop`, where
        the frame ran them straight (no jump, no exception handler in between); else None."""
        if stop <= start:
            return None
        first = bisect.bisect_right(self.jumps, start)
        if first < len(self.jumps) and self.jumps[first] < stop:
            return None
        if any(lo <= stop and start <= hi for lo, hi in self.handlers):
            return None
        names = dict.fromkeys(self.cells)
        for i in range(bisect.bisect_right(self.store_offsets, start),
                       bisect.bisect_left(self.store_offsets, stop)):
            names.update(dict.fromkeys(self.stores[i]))
        return tuple(sorted(names, key=lambda n: self.order.get(n, len(self.order))))


_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)

# id(code) -> (a weak reference to code, its _CodeFacts). Keyed by id: hashing a code
# object hashes its constants and names, a cost that grows with the function.
_facts: dict[int, tuple] = {}


def code_facts(code) -> _CodeFacts:
    """`code`'s `_CodeFacts`, decoded on first use and dropped with `code`."""
    entry = _facts.get(id(code))
    if entry is None:
        key = id(code)
        forget = weakref.ref(code, lambda _, key=key: _facts.pop(key, None))
        entry = _facts[key] = (forget, _CodeFacts(code))
    return entry[1]


def stored_names(code, lasti: int) -> tuple | str:
    """The variables that the instruction running at `lasti` of `code` stores its result
    into, or `_RETURN` where it returns it; read once per instruction."""
    table = code_facts(code).targets
    names = table.get(lasti)
    if names is None:
        names = table[lasti] = _stored_names(code, lasti)
    return names


class _Namer:
    """One `variable_names()` block: the stores of user frames still to be read."""

    def __init__(self, boundary):
        self.boundary = boundary    # the frame that entered the block: naming stops there
        self.pending: list = []     # [frame, f_lasti, names, Vars named in advance]
        self.last_frame = None      # the user frame of the previous equation
        self.last_line = None       # and its line
        self.swept = -1             # last_frame's f_lasti when its variables were last read

    def note(self, outs):
        self.flush(done_only=True)
        innermost, frame, names, returned = self._store_site()
        if innermost is not None:
            if innermost is not self.last_frame:
                if self.last_frame is not None:
                    _sweep(self.last_frame)
                self._entered(innermost)
            elif innermost.f_lineno != self.last_line:  # the previous line's stores are done
                self._sweep_since_last(innermost)
            self.last_line = innermost.f_lineno
        if not names:
            return
        lasti = frame.f_lasti
        for entry in self.pending:
            if entry[0] is frame and entry[1] == lasti:
                # the same instruction again: its earlier result was an intermediate
                # one (a NumPy function made of several equations) unless already stored
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

    def _sweep_since_last(self, frame):
        """`_sweep(frame)`, reading only the variables stored since the last sweep where
        the frame ran straight since then: O(1) per line, not O(variables)."""
        lasti = frame.f_lasti
        names = code_facts(frame.f_code).stored_between(self.swept, lasti)
        self.swept = lasti
        if names is None:
            _sweep(frame)
            return
        _name_stored(frame.f_locals, names)

    def _entered(self, frame):
        """User code runs in `frame`, called by a running instruction of another frame."""
        self.last_frame = frame
        self.swept = frame.f_lasti
        for other, _, names, named in self.pending:
            if other is not frame:  # that instruction calls user code (a loop body, a
                for var, name in zip(named, names):  # branch): its results so far were
                    if var.name == name:             # intermediate ones
                        var.name = None
                named.clear()
        _sweep(frame)  # values passed in: `def loop_body(itr):`

    def _store_site(self):
        """(innermost user frame, the user frame that stores the result, the names it
        stores it into, whether the result is returned on the way)."""
        frame = sys._getframe(3)
        boundary, innermost = self.boundary, None
        while frame is not None and frame is not boundary:
            code = frame.f_code
            if not is_library_file(code.co_filename):   # a user file (once per equation)
                names = stored_names(code, frame.f_lasti)
                if names != _RETURN:
                    return innermost or frame, frame, names, innermost is not None
                innermost = innermost or frame
            frame = frame.f_back
        return innermost, None, (), innermost is not None

    def flush(self, done_only=False):
        """Names the unnamed traced values that finished stores put in variables."""
        keep = []
        for entry in self.pending:
            frame, lasti, names, _ = entry
            if done_only and frame.f_lasti == lasti:
                keep.append(entry)
                continue
            _name_stored(frame.f_locals, names)
        self.pending = keep


def _name_stored(values: dict, names) -> None:
    """Names the unnamed traced values that the variables `names` hold after them."""
    for name in names:
        value = values.get(name)
        if type(value) is Tracer and value.node.name is None:
            value.node.name = name


def _sweep(frame):
    """Names the unnamed traced values in `frame`'s variables after them (`a, b = -x, y`
    stores without an equation in between)."""
    for name, value in frame.f_locals.items():
        if type(value) is Tracer and value.node.name is None:
            value.node.name = name


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
        if namer.last_frame is not None:
            _sweep(namer.last_frame)
        namer.boundary = namer.last_frame = None
