"""The values a `try` run as Python in the graph assigns, one type each (`joined`).

`staged_tries` traces the statement on each path it may take when the graph
runs: its body (with `else`), and each handler a kernel's error reaches, entered
from the start and from the end of the body. Each variable the statement
assigns gets one type for all the paths, as a staged `if` joins its branches:

- a Python number and a NumPy value join as `join_weak` says (an int and a
  float64: float64), a Python int and float as a float; where NEP 50 would then
  differ from eager NumPy on a later operation, `weak_joins` refuses it while
  tracing (the result is noted as a Python number on some path);
- a shape the paths disagree on becomes unknown;
- a string is a text value (NumPy's `StringDType`), so paths may bind different
  ones (`"solve"` or `"lstsq"`); the caller gets the `str`;
- a `Placeholder` (a return value no path reads yet: `return` only on some
  paths) takes any other path's type, and runs as zeros of it;
- a variable some path leaves unbound comes out as a `MaybeUnbound`: reading
  it after the statement raises eager's `UnboundLocalError` where that path ran.

Paths whose values do not join (a float64 and a str, lists of two lengths, a
tuple and a list, None and an array, float64 and float32) are refused while
tracing (`PathTypeError`), so that the call runs eagerly with a
`FallbackWarning`: a graph value has one type, and a `TypeError` when the
handler runs would fail where eager code goes on. (Holding such a value as a
Python object through the graph would keep a graph for these calls, but the
graph has no such values; re-running the call eagerly when the types differ
would run its effects twice.) A path the traces do not show (a raise between
two appends) is still checked when the graph runs (`Output.leaves_of`,
`python_block.checked`), a `TypeError` naming the variable and the line. The
paths only tell the graph's types; the values are Python's.
"""
from __future__ import annotations

import numpy as np

from autograph_runtime import Tracer
from autograph_runtime.abstract import (
    PYTHON_DTYPES,
    AbstractValue,
    join_shapes,
    join_weak,
    python_aval,
    python_type,
)
from autograph_runtime.errors import PathTypeError
from autograph_runtime.ops.text_values import TEXT
from autograph_runtime.source import location_note
from autograph_runtime.tree import flatten

from .undefined import MaybeUnbound, Placeholder, ReturnedNone, is_undefined


def leaf_type(value):
    """The graph's type of a value the statement binds; None for one it cannot hold."""
    if isinstance(value, Tracer):
        return value.aval
    if type(value) in PYTHON_DTYPES:
        return python_aval(value)
    if type(value) is str:   # a text (`"solve"`, `"lstsq"`): the graph's variable-width one
        return AbstractValue((), TEXT)
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype != object:
        return AbstractValue(np.shape(value), value.dtype)
    return None


def _join(a: AbstractValue, b: AbstractValue) -> AbstractValue | None:
    if a.ndim != b.ndim:
        return None
    joined = join_weak(a, b)
    return None if joined is None else AbstractValue(
        join_shapes(a.shape, b.shape), joined.dtype, joined.weak)


class Leaf:
    """One leaf of a variable: a graph `value` (`what`: its type; `python`: the weak type
    of a path whose Python number it joins), an array `written` in place (`what`: its
    index among them), or a `constant` every path must give (`what`)."""

    def __init__(self, kind: str, what, python=None):
        self.kind, self.what, self.python = kind, what, python

    def stand_in(self):
        """What the leaf is on a path that leaves the variable unbound (never read)."""
        if self.kind != "value":
            return self.what
        if self.what.weak:
            return python_type(self.what)(0)
        return np.zeros(tuple(d or 0 for d in self.what.shape), self.what.dtype)


class Output:
    """One variable the statement assigns: its structure and leaves on every path."""

    def __init__(self, name, tree, leaves, maybe_unbound):
        self.name, self.tree, self.leaves = name, tree, leaves
        self.maybe_unbound = maybe_unbound   # some path leaves it unbound: a flag says so

    def leaves_of(self, value, where: str):
        """`(leaves, bound)` of `value`, which the statement bound when the graph ran it."""
        bound = not is_undefined(value)
        if type(value) is Placeholder or not bound and self.maybe_unbound:
            return [leaf.stand_in() for leaf in self.leaves], bound
        if not bound:
            raise TypeError(
                f"the `try` statement of the `except` at {where} left {self.name!r} unbound "
                f"when the graph ran it, where tracing bound it to a value the graph holds; "
                f"bind {self.name!r} before the `try`")
        if type(value) is ReturnedNone and not (
                self.leaves[0].kind == "constant" and type(self.leaves[0].what) is ReturnedNone):
            raise TypeError(
                f"the function returns None on a path of the `try` statement of the `except` "
                f"at {where}{location_note(value.where)} and a value on another, which a "
                f"graph cannot do: a graph returns one type on every path; return a value "
                f"(or raise) there")
        got, tree = flatten(value)
        if tree != self.tree:
            raise TypeError(
                f"the `try` statement of the `except` at {where} bound {self.name!r} to a "
                f"value of another structure when the graph ran it ({tree}) than when it "
                f"was traced ({self.tree})")
        for leaf, item in zip(self.leaves, got):
            if leaf.kind == "constant" and not _same(item, leaf.what):
                raise TypeError(
                    f"the `try` statement of the `except` at {where} bound {self.name!r} to "
                    f"{item!r} when the graph ran it, where tracing it gave "
                    f"{leaf.what!r}, which a graph cannot hold as a value; bind it to "
                    f"the same value on every path")
        return got, bound


def joined(name: str, values: list, written: list, where: str) -> Output:
    """The `Output` of variable `name`, bound to `values[0]` on the body's path and to the
    others on the handlers' paths; `written`: the traced arrays the paths write in place.
    A `PathTypeError` where the paths' values do not join (`_refuse`)."""
    bound = [v for v in values if type(v) is not Placeholder and not is_undefined(v)]
    unbound = any(is_undefined(v) or type(v) is MaybeUnbound for v in values)
    if not bound:
        return Output(name, flatten(values[0])[1], [Leaf("constant", values[0])], False)
    first, tree = flatten(bound[0])
    for other in bound[1:]:
        if flatten(other)[1] != tree:
            _refuse(name, bound[0], other, where)
    others = [flatten(other)[0] for other in bound[1:]]
    leaves = [_joined_leaf([leaf, *(o[i] for o in others)], written, name, where)
              for i, leaf in enumerate(first)]
    maybe_unbound = unbound and len(leaves) == 1 and leaves[0].kind == "value"
    return Output(name, tree, leaves, maybe_unbound)


def _joined_leaf(items: list, written: list, name: str, where: str) -> Leaf:
    index = next((i for i, t in enumerate(written) if items[0] is t), None)
    if index is not None and all(item is items[0] for item in items):
        return Leaf("written", index)   # else a value: a path binds another array to it
    types = [leaf_type(item) for item in items]
    if types[0] is None:
        for item in items[1:]:
            if not _same(item, items[0]):
                _refuse(name, items[0], item, where)
        return Leaf("constant", items[0])
    aval = types[0]
    for item, other in zip(items[1:], types[1:]):
        aval = None if other is None else _join(aval, other)
        if aval is None:
            _refuse(name, items[0], item, where)
    python = next((t for t in types if t is not None and t.weak and
                   (t.dtype != aval.dtype or not aval.weak)), None)
    return Leaf("value", aval, python)


def _refuse(name: str, body, other, where: str):
    """The paths bind `name` (or an item of it) to values one graph value cannot hold:
    refused while tracing, so that the call runs eagerly (`eager_fallback`)."""
    label = "the return value" if name.startswith("retval_") else repr(name)
    raise PathTypeError(
        f"{label} is {_described(body)} on one path of the `try` statement of the "
        f"`except` at {where} and {_described(other)} on another, which runs as Python "
        f"when the graph runs (its handlers catch errors NumPy raises then): a graph value "
        f"has one type whichever way the statement goes; give {label} the same type, "
        f"structure and length on every path")


def _described(value) -> str:
    if type(value) in (list, tuple, dict):
        return f"a {type(value).__name__} of length {len(value)}"
    aval = leaf_type(value)
    if aval is None:
        return "None" if value is None or type(value) is ReturnedNone else \
            f"a {type(value).__name__}"
    if aval.weak:
        return f"a Python {python_type(aval).__name__}"
    return "a str" if aval.dtype == TEXT else f"{aval.dtype}{list(aval.shape)}"


def _same(value, constant) -> bool:
    if value is constant:
        return True
    try:
        return type(value) is type(constant) and bool(value == constant)
    except Exception:  # noqa: BLE001 - a value that does not compare is not the same
        return False
