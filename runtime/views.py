"""Views of traced arrays: NumPy's shared memory, followed through in-place writes.

`y = x[1:]`, `x[:, 0]`, `x.T`, `x.reshape(...)` (of a contiguous x),
`x[..., None]` and chains of them give a Tracer that remembers the Tracer it
views and how (`View`): `derive(base)` computes the view from a value of its
base, `scatter(base, value)` writes a new value of the view into the base
(`index_update` for a basic index, the inverse transpose, a reshape back).
Each primitive that may return a view has a rule in `view_rules`, filled next
to its definition; `GraphBuilder.add` links the views it makes (`link`).

A write in place (`write`, called by `tracer_value.write_in_place`) follows
memory as NumPy does: the new value of the view is scattered into its base, up
the chain to the array that owns the memory, which is rewritten; then every
live view of it (held by weak references) is derived again from its new value,
so every name bound to any of them sees the change.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("h") as b:
...     x = b.new_input(AbstractValue((3,), np.int64), "x")
...     y = x[1:]
...     y += 1
>>> print(b.build([x]))
graph h(x:i64[3]) {
  t0:i64[2] = getitem[index=(slice(1, None, None),)] x
  t1:i64[2] = add t0 1
  t2:i64[3] = index_update[index=(slice(1, None, None),)] x t1
  return t2
}

A view NumPy may or may not make (a reshape of a strided view), or one that
is read-only (`np.broadcast_to`), has a `View` with no rules: writing its
family is a `TracingError` naming the values, never a silent wrong answer.

In a staged `if` or loop, a view of a value of the enclosing graph views the
block's input standing for that value (`link_inputs`, `inner_version`). Where
no input stands for it, a write through the view cannot reach it from the
block's graph: `write` raises `CarryNeeded`, and autograph traces the block
again carrying the array that owns the memory as extra state, which the block
writes and `runtime.tracing.write_through` writes back after it:

    y = x * 2.0
    for i in range(n):     # n traced; the loop carries y besides i
        w = y[1:]          # a view of the loop's input for y
        w += 0.5           # writes that input; y after the loop holds it
"""
from __future__ import annotations

import re
import weakref
from typing import Callable, NamedTuple

from . import alias_guards
from .errors import TracingError
from .source import location_note, user_source

view_rules: dict = {}
"""`view_rules[p](x, *operands, **params)` for a primitive `p` whose output may be a
view of its first operand x: `(derive, scatter, contiguous)`, None where the output
may share memory in a way that cannot be followed, or `COPY` where NumPy copies.
`contiguous` says whether the view of a contiguous base is contiguous (so that a
reshape of it is again a view)."""

COPY = "copy"

SAME = (lambda base: base, lambda base, value: value, True)
"""The rule of a view that is its base entire: a second name for the same array."""


class View(NamedTuple):
    """How a traced view is derived from the Tracer it views (`base`).

    `derive(base)` gives the view's value; `scatter(base, value)` gives the base
    with the view's elements replaced by `value`. Both None: an unfollowed view.
    """

    base: object
    derive: Callable | None
    scatter: Callable | None
    contiguous: bool = False
    path: bool = False   # unfollowed: the base itself on some paths of a block only


def link(view, base, rule) -> None:
    """Records that the Tracer `view` is a view of the Tracer `base`, by `rule`'s result.

    A view made in a staged block of an outer value the block has an input
    standing for (`link_inputs`) views that input, so that a write reaches it.
    """
    if base.builder is not view.builder and view.builder.stand_ins:
        inner = inner_version(view.builder, base)
        base = base if inner is None else inner
    if root_of(base) is view:   # base already views `view`: they share memory that way
        return
    if rule is None:
        view.viewing = View(base, None, None)
    else:
        derive, scatter, contiguous = rule
        view.viewing = View(base, derive, scatter, bool(contiguous) and is_contiguous(base))
    views = base.views
    if views is None:
        views = base.views = []
    elif len(views) >= 8 and (len(views) & (len(views) - 1)) == 0:
        views[:] = [r for r in views if r() is not None]  # drops dead ones now and then
    views.append(weakref.ref(view))


def is_contiguous(x) -> bool:
    """True where the traced x owns its memory, or is a contiguous view of one that does."""
    return x.viewing is None or x.viewing.contiguous


def reshape_rule(rule):
    """A rule for a reshape: a view of a contiguous base only (NumPy copies others)."""
    def check(x, *operands, **params):
        if not is_contiguous(x):
            return None
        result = rule(x, *operands, **params)
        return result and (result[0], result[1], True)
    return check


def root_of(x):
    """The Tracer owning the memory x views (x itself where it is not a view)."""
    while x.viewing is not None:
        x = x.viewing.base
    return x


def live_views(x) -> list:
    """The live views of the Tracer x (direct ones)."""
    return [v for v in (r() for r in (x.views or ())) if v is not None and v.viewing is not None
            and v.viewing.base is x]


def family(x) -> list:
    """x's root and every live view of it, views of views included."""
    found, todo = [], [root_of(x)]
    while todo:
        t = todo.pop()
        found.append(t)
        todo.extend(live_views(t))
    return found


def follows(a, b) -> bool:
    """True where a write to a is seen by b (and the other way): they share memory
    through views that are all followed, or are the same Tracer."""
    if a is b:
        return True
    if root_of(a) is not root_of(b):
        return False
    return all(t.viewing is None or t.viewing.derive is not None or t.builder is not a.builder
               for t in family(a))


def write(target, result, what: str) -> None:
    """Makes the traced `target` hold `result`, and every value sharing its memory follow.

    `result` already has target's shape and dtype and is a value of target's graph.
    """
    chain = [target]
    while chain[-1].viewing is not None:
        view = chain[-1].viewing
        if view.derive is not None and view.base.builder is not target.builder:
            view = _inner_view(target.builder, chain[-1], view)
            if view is None:  # a value of an enclosing graph the block does not carry yet
                outer = chain[-1].viewing.base
                raise CarryNeeded(root_of(outer), target.builder,
                                  _unfollowed(target, chain[-1], outer, what))
        if view.derive is None:
            raise _unfollowed(target, chain[-1], view.base, what)
        chain.append(view.base)
    members = [t for t in family(target) if t.builder is target.builder]
    for t in members:  # the views of this graph (those of finished blocks are dead)
        if t.viewing is not None and t.viewing.derive is None:
            raise _unfollowed(target, t, t.viewing.base, what)
    alias_guards.refuse_guarded(target, members, what, name_of, holds_returned)
    new = [result]
    for t in chain[:-1]:
        new.append(t.viewing.scatter(t.viewing.base, new[-1]))
    owns = [_own_written(t) for t in chain[:-1]]
    for t, value in zip(chain, new):
        t.node = value.node
    for own, value in zip(owns, new):
        if own is not None:
            own.node = value.node
    written = {id(t) for t in chain}
    _derive_again(chain[-1], written, target.builder)


def _own_written(view):
    """The own value of the conditional view `view` (`runtime.path_aliases`) that a write
    to it rewrites, or None where it has none. A conditional view of an enclosing
    graph's value must be a value the block carries (an input standing for it, which
    holds its own value as it holds the base): else `CarryNeeded` for it."""
    own = getattr(view.viewing.derive, "own_value", None)
    if own is None or own.builder is view.builder:
        return own
    outer = view.viewing.derive.result()
    if outer is not None and _nearest_version(view.builder, outer) is view:
        # the block's input for it (written back after the block): its own value here is
        # the input's, which this write and later ones rewrite, so that a view derived
        # again after a write to its base keeps them
        own = type(view)(view.builder, view.node)
        how = view.viewing
        view.viewing = View(how.base, how.derive.with_own(own), how.scatter, how.contiguous)
        return own
    raise CarryNeeded(outer, view.builder, TracingError(
        f"{_name(view)} is written in place inside a staged block"
        f"{location_note(user_source())}, and is, after an `if` or loop before it, a new "
        f"array on some paths and another array on others, which the block does not carry"))


def _inner_view(builder, view, how):
    """`view`, a view of an enclosing graph's value, made a view of the input of `builder`'s
    graph standing for that value (the block carries it); None where none stands for it."""
    if not builder.stand_ins:
        return None
    base = inner_version(builder, how.base)
    if base is None:
        return None
    view.viewing = View(base, how.derive, how.scatter, how.contiguous)
    views = base.views
    if views is None:
        views = base.views = []
    views.append(weakref.ref(view))
    return view.viewing


class CarryNeeded(TracingError):
    """A staged block must be traced again carrying `value` as its state.

    Raised where a trace of the block (its graph is `builder`'s) writes in place,
    through a view, a value of an enclosing graph that no input of the block
    stands for (`write`), or writes its state while reading, from before the
    block, a value sharing its memory (`refuse_stale_reads`). `value` is the
    root of that memory as the graph enclosing the block has it (the input of an
    enclosing block standing for it, where one does). The code staging the block
    (autograph's `staged_block`) catches it and traces again with `value` as
    extra state, written back after the block as any state written in place
    (`runtime.tracing.write_through`); uncaught, it is the `TracingError` it says.
    The code staging blocks may send it to a block further out that must carry
    `value` too (`staged_from`: the graph that block is staged in, which has `value`).
    """

    def __init__(self, value, builder, refusal: TracingError):
        super().__init__(str(refusal))
        self.value = _nearest_version(builder.parent, value)  # as the block's graph has it
        self.builder, self.refusal = builder, refusal
        self.staged_from = builder.parent  # the graph of the block to trace again


def _derive_again(base, written, builder) -> None:
    for v in live_views(base):
        if v.builder is not builder:
            continue
        if id(v) not in written:
            v.node = v.viewing.derive(base).node
        _derive_again(v, written, builder)


_RETURNED = "the value the function returns"


def holds_returned(name: str | None) -> bool:
    """Whether `name` is the converter's `retval_` (`retval__1` where the user's code has
    a `retval_`; `_0`, `_1` for the parts of a tuple), which holds what a `return` inside
    a staged block returns until the function ends."""
    return bool(name) and re.fullmatch(r"retval_(_\d+)*", name) is not None


def _message_name(name: str | None) -> str:
    """`'y'` for a user's name; the converter's own ones (`retval_`) said in words."""
    if not name:
        return "a traced value"
    return _RETURNED if name.startswith("retval_") else repr(name)


def name_of(t) -> str:
    """The Tracer t's name for messages: `'y'`, or "a traced value"."""
    return _message_name(t.node.name)


_name = name_of


def _unfollowed(target, view, base, what) -> TracingError:
    if view.viewing.derive is not None:  # a view of a value of an enclosing graph
        reason = (f"{_name(view)} is a view of {_name(base)}, a value from outside the "
                  f"staged block that the block does not carry as its state")
        v, b = view.node.name or "y", base.node.name or "x"
        hint = (f"write `{b}` itself in the block (`{b}[...] = ...`), or copy the view "
                f"(`{v} = {v}.copy()`) to write only it")
    elif view.viewing.path:
        reason = (f"{_name(view)} is, on some paths of a staged `if` or loop before it "
                  f"only, the very array {_name(base)} was before it (a new array on "
                  f"others): which memory it shares depends on the path, which the graph "
                  f"cannot follow")
        v = view.node.name or "x"
        hint = (_return_a_copy(base) if _name(view) == _RETURNED else
                f"copy it after the block (`{v} = {v}.copy()`), or bind it on every path")
    else:
        shared = _name(base) if base.node.name or root_of(base) is base else \
            f"a view of {_name(root_of(base))}"
        reason = (f"{_name(view)} shares memory with {shared} in a way the graph "
                  f"cannot follow (a reshape of a strided view, a broadcast, a part of a "
                  f"complex array, `np.ascontiguousarray`, which may copy, or an index that "
                  f"may be a 0-d array, which copies)")
        hint = "copy one of them first (`y = y.copy()`)"
    return TracingError(
        f"in-place `{what}` on {_name(target)}{location_note(user_source())}: {reason}, "
        f"and NumPy would change both; {hint}")


def _own_value_read(view, atom, builder) -> bool:
    """True where `builder`'s block reads `atom` as the own value of the conditional
    view `view` (`runtime.path_aliases`), taken only on the paths where it is not its
    base: the block carries the base, so its reads of `view` derive from that."""
    own = getattr(view.viewing.derive, "own_value", None) if view.viewing is not None else None
    if own is None or own.node is not atom:
        return False
    base = view.viewing.base
    while _nearest_version(builder, base).builder is not builder:
        if base.viewing is None or base.viewing.derive is None:
            return False
        base = base.viewing.base   # carried where the array it views is
    return True


# -- staged blocks: views of the values a block takes as inputs ---------------------------------
def link_inputs(builder, outer: list, inner: list, state: tuple = ()) -> None:
    """Records that the input Tracers `inner` of a staged block stand for `outer` ones.

    An input standing for a view of a value another input stands for (directly
    or through other views), or for that very value (`SAME`), becomes a view of
    that input, so that a write in the block reaches both; an outer view read in
    the block (`inner_version`) is derived from the input its base stands for.
    The inputs so used are noted (`builder.used_stand_ins`): a loop body must
    pass them on as themselves. Two inputs sharing the memory of an array that is
    none of the block's `state` (a view of it, and a value that is it on some
    path) are a `CarryNeeded` for that array.
    """
    builder.stand_ins = {}
    for o, i in zip(outer, inner):
        first = builder.stand_ins.setdefault(id(o), (o, i))[1]
        if first is not i:   # a second input for the same array (`z = y`, both state)
            link(i, first, SAME)
            builder.used_stand_ins.add(id(i))
    for o, i in zip(outer, inner):
        if o.viewing is not None and o.viewing.derive is not None and i.viewing is None:
            base = inner_version(builder, o.viewing.base)
            if base is not None:
                link(i, base, (o.viewing.derive, o.viewing.scatter, o.viewing.contiguous))
                builder.used_stand_ins.add(id(i))
            elif all(root_of(o) is not x for x in state) and \
                    any(p is not o and root_of(p) is root_of(o) for p in outer):
                raise _carry_the_root(builder, o)


def _carry_the_root(builder, view) -> CarryNeeded:
    """Two inputs of a block share memory (a view and a value that is, on some path, its
    base) through an array the block does not carry: a write to one could not reach the
    other, so the block is traced again carrying that array."""
    root = root_of(view)
    return CarryNeeded(root, builder, TracingError(
        f"{_name(view)} and another value of the staged block{location_note(user_source())} "
        f"share the memory of {_name(root)}, which the block does not carry as its state"))


def inner_version(builder, x):
    """The value of `builder`'s graph standing for the outer Tracer x: the input that
    stands for it, or x derived from the input standing for its base; None if none.

    A derived one is kept by `builder` (`derived`) and given again: it stays a live view
    of that input, so a write to the input reaches it, and a block nested in this one
    that reads it while writing the input is seen to (`refuse_stale_reads`)."""
    nearest = _nearest_version(builder, x)
    if nearest.builder is builder:
        return nearest
    if x.viewing is None or x.viewing.derive is None:
        return None
    known = builder.derived.get(id(x))
    if known is not None and known[0] is x and _still_staged(*known[1:]):
        return known[1]
    base = inner_version(builder, x.viewing.base)
    if base is None:
        return None
    view = x.viewing.derive(base)
    link(view, base, (x.viewing.derive, x.viewing.scatter, x.viewing.contiguous))
    last = len(view.builder.eqns) - 1
    builder.derived[id(x)] = (x, view, last, view.builder.eqns[last] if last >= 0 else None)
    return view


def _still_staged(view, last: int, eqn) -> bool:
    """Whether the graph of `view` still holds the equation `eqn` at `last`: the loop
    that probes its test drops what the probe staged, views derived for it included."""
    eqns = view.builder.eqns
    return eqn is None or last < len(eqns) and eqns[last] is eqn


def version_in(builder, x):
    """The outer Tracer x as `builder`'s graph has it: the input standing for it (that of
    the nearest enclosing block where `builder`'s own block has none), else x."""
    return _nearest_version(builder, x)


def _nearest_version(builder, x):
    """x as `builder`'s graph has it through the inputs of the blocks between: the input
    standing for x, or for the input of an enclosing block standing for it (nearest
    first); else the nearest such enclosing input, else x."""
    if builder is None or builder is x.builder:
        return x
    outer = _nearest_version(builder.parent, x)
    for version in (x, outer):
        known = builder.stand_ins.get(id(version))
        if known is not None and known[0] is version:
            builder.used_stand_ins.add(id(known[1]))
            return known[1]
    return outer


class RelinkNeeded(TracingError):
    """A loop body wrote in place inputs of its state (`positions`, leaf positions) that
    share memory with another value of the loop (a view of them it reads, a second name,
    the array it iterates), and binds them to other arrays on some trips.

    The code staging the loop (`runtime.ops.while_loop`, `runtime.ops.loop_relinks`)
    stages it again carrying the array owning that memory and, per input, whether it is
    still that array
    (`path_aliases.link_in_loop`); uncaught, it is the `TracingError` `refusal`.
    """

    def __init__(self, positions: list, refusal: TracingError):
        super().__init__(str(refusal))
        self.positions, self.refusal = positions, refusal


def rebound_in_loop(rebound: str | None, written) -> TracingError:
    """A loop body wrote `written` (its state `rebound`, or an array that state is a second
    name or view for) in place, and binds `rebound` to another array: in the next step
    the name holds other memory, which the graph cannot follow."""
    name = _message_name(rebound)
    rebound = rebound if name != _RETURNED else None
    root = root_of(written)
    what = (f"writes {name} in place and binds it" if root is written else
            f"writes {_name(root)} in place while {name}, which shares its memory, is bound")
    hint = (_return_a_copy(root) if name == _RETURNED else
            f"copy it before the loop (`{rebound or 'y'} = {rebound or 'y'}.copy()`), or only "
            f"write it in place")
    return TracingError(
        f"a staged loop {what} to another array for the next step"
        f"{location_note(user_source())}: the graph cannot follow which memory {name} "
        f"shares then; {hint}")


def _return_a_copy(array) -> str:
    """The way out where the value a `return` inside a staged block holds shares `array`'s
    memory: the converter keeps it until the function ends, and a copy shares none."""
    name = array.node.name
    if not name or name.startswith("retval_"):
        return "return a copy of the array (`.copy()`)"
    return f"return a copy (`return {name}.copy()`)"


def refuse_stale_reads(written: list, traces: list) -> None:
    """`CarryNeeded` where a staged block writes a value of the enclosing graph in place
    (`written`, through the block's state) and also reads, from before the block, a
    value sharing its memory (captured by one of `traces`): eagerly that read sees
    the write, in the graph it would not. Carrying the memory's root as state too,
    the block reads it through its input; where it cannot, the `TracingError` names both.

        w = x[:2]
        while i < n:       # w is the loop's state, x is read from outside it
            s = s + x[0]   # eagerly the x that `w += 2.0` changed on the step before
            w += 2.0
    """
    for target in written:
        if not hasattr(target, "views"):  # not traced (an ndarray's `view` is a method)
            continue
        sharing = {t.node.id: t for t in family(target) if t is not target}
        for traced in traces:
            for outer, _ in traced.builder.captures:
                other = sharing.get(getattr(outer, "id", None))
                if other is not None and not _own_value_read(other, outer, traced.builder):
                    raise CarryNeeded(root_of(target), traced.builder, TracingError(
                        f"{_name(target)} is written in place inside a staged `if` or loop"
                        f"{location_note(user_source())}, and {_name(other)}, which shares "
                        f"its memory, is read there as it was before the block: NumPy would "
                        f"show the write; make {_name(other)} state of the block (assign it "
                        f"there) or copy the view before the block"))
