"""The values a loop run as Python when the graph runs reads and gives (`loop_islands`).

`Templates` copies what the loop reads at the loop (its state, its iterable,
the cells of its closures) with each traced array replaced by `Slot(k)`, the
k-th operand of the island's equation, keeping which containers are the same
object. `concrete(template, operands)` builds, for one run of the graph,
fresh lists, dicts, sets and objects holding the graph's values: a loop that
changes them changes copies, never the trace's. `IslandOnly` stands, after the
loop, for a value the graph cannot hold (a list the loop changed, a variable it
binds first), and refuses any use while tracing.
"""
from __future__ import annotations

import numpy as np

from autograph_runtime import Tracer
from autograph_runtime.abstract import python_type
from autograph_runtime.errors import ContainerStagingError, UnhashableTracedValue
from autograph_runtime.source import location_note, user_source

from .containers import is_plain_object
from .lists import TracedList
from . import loops
from .undefined import MaybeUnbound, Undefined


class Slot:
    """The traced array that is operand `k` of the island's equation."""

    __slots__ = ("k",)

    def __init__(self, k: int):
        self.k = k


class Unseen(Exception):
    """A value the island cannot copy (a list whose length a staged block traced)."""


class Templates:
    """Templates of values read at the loop, sharing one list of operands."""

    def __init__(self):
        self.operands: list = []
        self.slots: list = []   # the `Slot` of each operand
        self._memo: dict = {}

    def of(self, value):
        """`value` with its traced arrays as `Slot`s and its containers copied."""
        memo = self._memo
        if id(value) in memo:
            return memo[id(value)]
        kind = type(value)
        if kind is MaybeUnbound or kind is TracedList:
            raise Unseen(value)
        if isinstance(value, Tracer):
            memo[id(value)] = out = Slot(len(self.operands))
            self.operands.append(value)
            self.slots.append(out)
            return out
        if kind is list:
            memo[id(value)] = out = []
            out.extend(self.of(v) for v in value)
        elif kind is dict:
            memo[id(value)] = out = {}
            out.update((k, self.of(v)) for k, v in value.items())
        elif kind in (set, frozenset):   # members are hashable: never traced
            memo[id(value)] = out = kind(value)
        elif kind is tuple or (isinstance(value, tuple) and hasattr(kind, "_fields")):
            items = [self.of(v) for v in value]
            out = tuple(items) if kind is tuple else kind(*items)
        elif kind in (loops.TracedRange, loops.TracedZip):
            memo[id(value)] = out = object.__new__(kind)
            out.__dict__.update({k: self.of(v) for k, v in vars(value).items()})
        elif is_plain_object(value):
            memo[id(value)] = out = object.__new__(kind)
            out.__dict__.update({k: self.of(v) for k, v in vars(value).items()})
        else:   # a number, a string, an array of the trace, a function, an opaque object
            out = value
        memo[id(value)] = out
        return out


def concrete(template, operands, memo: dict):
    """`template` with the graph's values: fresh containers, arrays copied (a 0-d one as
    the NumPy scalar eager code holds), a weak value as its Python number."""
    if id(template) in memo:
        return memo[id(template)]
    kind = type(template)
    if kind is Slot:
        value, aval = operands[template.k]
        out = python_type(aval)(np.asarray(value).item()) if aval.weak else \
            np.array(value, copy=True)
        out = out[()] if not aval.weak and out.ndim == 0 else out
    elif kind is np.ndarray:
        out = template.copy()
    elif kind is list:
        memo[id(template)] = out = []
        out.extend(concrete(v, operands, memo) for v in template)
    elif kind is dict:
        memo[id(template)] = out = {}
        out.update((k, concrete(v, operands, memo)) for k, v in template.items())
    elif kind in (set, frozenset):
        out = kind(template)
    elif kind is tuple or (isinstance(template, tuple) and hasattr(kind, "_fields")):
        items = [concrete(v, operands, memo) for v in template]
        out = tuple(items) if kind is tuple else kind(*items)
    elif kind in (loops.TracedRange, loops.TracedZip) or is_plain_object(template):
        memo[id(template)] = out = object.__new__(kind)
        out.__dict__.update({k: concrete(v, operands, memo) for k, v in vars(template).items()})
        if kind in (loops.TracedRange, loops.TracedZip):
            out = python_iterable(out)
    else:
        out = template
    memo[id(template)] = out
    return out


def python_iterable(value):
    """What a `for` loop over a `TracedRange`/`TracedZip` of concrete values iterates."""
    if type(value) is loops.TracedRange:
        return range(*(int(v) for v in (value.start, value.stop, value.step)))
    if type(value) is loops.TracedZip:
        sequences = [python_iterable(s) for s in value.sequences]
        if value.enumerate_start is not None:
            return enumerate(sequences[0], int(value.enumerate_start))
        return zip(*sequences)
    return value


class IslandOnly(Undefined):
    """A variable's value after a loop run as Python when the graph runs, which the graph
    cannot hold (a list, dict or set the loop changes, a variable it binds first): any
    use while tracing (as an `Undefined`'s) is a `ContainerStagingError` naming it and
    the loop."""

    __slots__ = ("what", "reason")   # `reason`: the staging refusal, or None
    __unbound__ = False   # a later loop carries it as it is

    def __init__(self, name: str, what: str, reason: str):
        super().__init__(name)
        self.what, self.reason = what, reason

    def __repr__(self):
        return f"IslandOnly({self.name!r})"

    def error(self) -> ContainerStagingError:
        read = f"{self.name!r} is read{location_note(user_source())} after it"
        if self.reason is None:
            return ContainerStagingError(
                f"{self.name!r} is first bound in {self.what}, which runs as Python when the "
                f"graph runs (a staged loop cannot carry its Python containers), and {read}: "
                f"the graph cannot type it; bind it before the loop")
        kind = type(self.reason) if isinstance(self.reason, UnhashableTracedValue) else \
            ContainerStagingError   # today's refusal's type, saying what happened since
        return kind(
            f"{self.reason}\nSo {self.what} runs as Python when the graph runs, and {read}: "
            f"a Python container or object the loop may change is no value a graph can "
            f"hold; use it inside the loop, or carry arrays and numbers out of it")

    def __ag_returned__(self, function: str):
        raise self.error()

    __setitem__ = __contains__ = __str__ = Undefined._raise
