"""Results of a staged `if` or loop that are, on some paths, an array from before it.

    w = y[::2]
    if x[0] < 0:             # traced
        y = np.copy(y) + 1   # one branch binds y to a new array...
    w *= 2.0                 # ...the other keeps the old one, which w writes
    return y

Eagerly, after the `if` the name `y` is the old array on one path: a write
through `w` (or through anything sharing the old array's memory, or a write to
`y` itself) is seen by both names there, and by neither on the other path. The
graph's `y` is a new value, so the cond's result is linked as a *conditional
view* of the old array (`runtime.views`): on the path where the branch passed
the old array on, it is that array (`derive`: `where(taken, base, y)`), and a
write to it is a write to that array (`scatter`: `where(taken, value, base)`) and
to its own array of the other paths (which a staged block writing it carries).
Every write in place then reaches exactly the values NumPy's would. Each `if`
returns, per such result, a bool output saying where it passes the array on (a
conditional view made by an `if` inside a branch contributes its own flag). A
loop's result is the old array where the loop's test fails on its first state
(it runs no trip); a loop whose body keeps the array on some trips only is
staged again carrying the flag (`kept_in_some_trips`, `flag_passing`). A loop body's
input that shares its memory with another value of the loop, and that the body rebinds
on some trips, is linked the same way to the loop's input carrying that memory, where a
flag the loop carries says so (`link_in_loop`; `runtime.ops.loop_relinks`).

Where a result is one of two old arrays (`y = a if c else b`) or its type
differs from the old array's, it is linked as a view that cannot be followed: a
write to either is a `TracingError` naming them; but what a `return` returns, one
of two names a loop body links to the array its loop carries, is a conditional
view of that array (`_rooted`). A second name for an array (`r = x`, linked as
`views.SAME`) is that array: a result that is it on every path (kept, or taken
again in a branch) is linked to it as a second name, so later writes to either
reach both. A result that is a *view* of an
old array on some path refuses writes to itself; a later write to the old array
is not followed into it (#12, open).
"""
from __future__ import annotations

import contextlib
import weakref

import numpy as np

from . import views
from .tracer import current_builder, recording_in
from .tracer_value import Tracer


class BranchAliases:
    """The results of one staged `if` that may be an array from before it, planned while
    its branches are still open (each gets a bool output per such result: whether it
    passes the array on, `flags[branch]`), linked once the cond is staged (`link`).
    `returned`: the positions holding what a `return` in the block returns (`_rooted`)."""

    def __init__(self, traces: list, outer: list, builder, positions: list, returned=()):
        self.builder, self.plan = builder, []   # (leaf position, base or None: unfollowed)
        self.flags = [[], []]
        for i in positions:  # arrays only: a 0-d value is a NumPy scalar, immutable
            if not any(isinstance(t.out_leaves[i], Tracer) and t.out_leaves[i].ndim
                       for t in traces):
                continue
            sources = [_passed_on(t, t.out_leaves[i], outer, builder) for t in traces]
            if _same(*sources):   # the same array on both paths (written through): the
                if sources[0] is not None:   # result is it, under another name too
                    self.plan.append((i, sources[0][0], "same"))
                continue          # (or new on both)
            bases = {id(x[0]): x[0] for x in sources if x is not None}
            if any(x is not None and x[1] is None for x in sources):
                # a view of the array on some path: a write to the result is refused; one
                # to the array is not followed into the result (#12, open)
                self.plan.append((i, next(iter(bases.values())), "view"))
                continue
            if len(bases) > 1 and i in returned:
                sources = _rooted(traces, sources, builder)
                bases = {id(x[0]): x[0] for x in sources if x is not None}
            if len(bases) > 1:
                self.plan.append((i, next(iter(bases.values())), None))
                continue
            base = next(iter(bases.values()))
            self.plan.append((i, base, len(self.flags[0])))
            for branch, (traced, x) in enumerate(zip(traces, sources)):
                self.flags[branch].append(np.False_ if x is None else x[1])

    def link(self, results: list, flag_outputs: list) -> None:
        """Links `results[i]` of each planned leaf to its base: a conditional view where
        the cond's flag output says it is the base, an unfollowed one otherwise."""
        for i, base, flag in self.plan:
            result = results[i]
            if not isinstance(result, Tracer) or result.builder is not self.builder \
                    or result.viewing is not None or result is base:
                continue
            if flag == "view":
                result.viewing = views.View(base, None, None, path=True)
                continue
            if flag == "same":   # `r = x` before the `if`, kept or taken again in it
                views.link(result, base, views.SAME)
                result.builder.shares_memory.update((result.node.id, base.node.id))
                continue
            if flag is None or base.aval != result.aval:
                link(result, base)
            else:
                link_where(result, base, Tracer(self.builder, flag_outputs[flag].node))


# id(a conditional view) -> (a weak reference to it, a function giving the bool Tracer saying
# where it is its base); an entry whose view died (its id reused) is ignored
_flags: dict = {}


def _flag_of(view):
    """The function giving the flag of the conditional view `view`, or None."""
    entry = _flags.get(id(view))
    if entry is None or entry[0]() is not view:
        return None
    return entry[1]


def _same(a, b) -> bool:
    """Both branches return new arrays, or both the same array from before the cond."""
    return a is b or (a is not None and b is not None and a[0] is b[0]
                      and a[1] is np.True_ and b[1] is np.True_)


def _passed_on(traced, leaf, outer, builder):
    """`(array, flag)`: the array from before the cond that a branch returns as itself
    (flag np.True_), or where a bool Tracer of the branch says (a conditional view made
    by a cond in the branch); flag None where it shares the array's memory otherwise
    (a view of it); None where the branch returns a new array. An array of a graph
    further out (the cond is in a block that reads it) is the value of this graph
    standing for it; flag None where none does: a block writing the result cannot
    reach it (`views.write` refuses)."""
    if not isinstance(leaf, Tracer):
        return None
    root = views.root_of(leaf)
    if root.builder is builder:      # a value the branch read from the enclosing code
        base = root
    else:
        base = next((outer[k] for k, inner in enumerate(traced.inputs) if root is inner), None)
        if base is None and root.builder is not traced.builder \
                and root.builder.is_ancestor_of(builder):
            base = views.version_in(builder, root)
            if base.builder is not builder:
                return base, None
        if base is None:
            return None
    while base.viewing is not None and base.viewing.derive is views.SAME[0]:
        base = base.viewing.base   # `r = x`: the array x names, under its first name
    return base, _flag_in_branch(leaf, root, traced.builder)


def _rooted(traces, sources, builder) -> list:
    """`sources` (`_passed_on`'s, one per branch) of what a `return` returns, whose arrays
    are two conditional views of one array of `builder` (two names a loop body links to
    the array it carries, where a flag says each still is it: `link_in_loop`), as that
    array and, per branch, the branch's flag and the view's: `retval_ = x` in one branch,
    kept in the other, is the array where the flags of the branch taken say so; `sources`
    as they are otherwise. Only for a returned value: nothing writes it or the other name
    after the `return`, so where it is not the array, which of the two it is does not
    matter (for `r = x` and a later `x += 1` it would: not done there)."""
    rooted = []
    for traced, source in zip(traces, sources):
        if source is None:
            rooted.append(None)
            continue
        root = views.root_of(source[0])
        view_flag = _flag_in_branch(source[0], root, builder)
        if root.builder is not builder or view_flag is None:
            return sources
        with traced.builder:
            rooted.append((root, np.logical_and(source[1], view_flag)))
    return rooted


def _flag_in_branch(leaf, root, builder):
    """np.True_ where `leaf` is `root`; the conjunction of the flags of the conditional
    views between them (built in `builder`); None where one of them is another kind of
    view."""
    thunks = _flags_between(leaf, root)
    if thunks is None or not thunks:
        return None if thunks is None else np.True_
    with builder if current_builder() is not builder else contextlib.nullcontext():
        flag = thunks[0]()
        for other in thunks[1:]:
            flag = np.logical_and(flag, other())
    return flag


def _flags_between(leaf, root):
    """The functions giving the flags of the conditional views from `leaf` down to `root`,
    or None where one of them is another kind of view."""
    thunks = []
    while leaf is not root:
        if leaf.viewing is None or leaf.viewing.derive is None:
            return None
        if leaf.viewing.derive is views.SAME[0]:   # a second name for the very array
            leaf = leaf.viewing.base
            continue
        # a conditional view, or one derived from a block's input (`views.inner_version`)
        thunk = _flag_of(leaf) or getattr(leaf.viewing.derive, "taken", None)
        if thunk is None:
            return None
        thunks.append(thunk)
        leaf = leaf.viewing.base
    return thunks


def loop_aliases(results: list, initial: list, body, carried: list, kept: list,
                 builder) -> tuple:
    """The carried leaves `i` whose loop result may be the array `initial[i]` from before
    the loop, by kind: `always` (the body passes it on as it is: the result is that
    array itself), `fresh` (the body binds a new array on every trip: the result is
    the old array where the loop runs no trip) and `unfollowed` (a view of it, or an
    array from outside the loop). Those the body keeps on some trips only (`kept`,
    from `kept_in_some_trips`) are none of them."""
    always, fresh, unfollowed = [], [], []
    for slot, i in enumerate(carried):
        result, base, out = results[i], initial[i], body.out_leaves[i]
        if i in kept or not _array_from_before(base, builder) or not isinstance(result, Tracer) \
                or result is base or result.viewing is not None:
            continue
        if base.aval != result.aval:
            unfollowed.append(i)
        elif out is body.inputs[slot]:
            always.append(i)
        elif not isinstance(out, Tracer):
            fresh.append(i)
        elif out.builder is not body.builder or views.root_of(out) is body.inputs[slot]:
            unfollowed.append(i)
        else:
            fresh.append(i)
    return always, fresh, unfollowed


def from_outside(results: list, body, carried: list, builder) -> list:
    """`(i, array)` for the carried leaves whose body result shares, on some trips, the memory
    of an array the loop reads from outside it (`retval_ = x` in a staged `if`, x not
    the loop's state), as `builder`'s graph has it: the loop's result is then that array
    on some paths, which it is linked to as a view that cannot be followed."""
    found = []
    for i in carried:
        out, result = body.out_leaves[i], results[i]
        if not isinstance(out, Tracer) or not isinstance(result, Tracer) or not result.ndim \
                or result.builder is not builder or result.viewing is not None:
            continue
        root = views.root_of(out)
        if root.builder is not body.builder and root.builder.is_ancestor_of(builder) \
                or root.builder is builder:
            outside = views.version_in(builder, root)
            if outside.builder is builder and outside is not result:
                found.append((i, outside))
    return found


def kept_in_some_trips(initial: list, body, carried: list, builder) -> list:
    """The carried leaves whose array from before the loop the body passes on in some
    trips only, where bool Tracers of the body say (conditional views made by staged
    `if`s in it): known before the loop is staged."""
    return [i for slot, i in enumerate(carried)
            if _array_from_before(initial[i], builder) and isinstance(body.out_leaves[i], Tracer)
            and body.out_leaves[i].builder is body.builder
            and body.out_leaves[i] is not body.inputs[slot]
            and views.root_of(body.out_leaves[i]) is body.inputs[slot]
            and _flags_between(body.out_leaves[i], body.inputs[slot]) is not None]


def _array_from_before(value, builder) -> bool:
    """An array (not 0-d: a NumPy scalar is immutable) of the graph the loop is staged in."""
    return isinstance(value, Tracer) and value.builder is builder and value.ndim > 0


def flag_passing(out, input_):
    """Inside a loop body: whether its result `out` is its input `input_` (a bool, or a
    bool Tracer where a staged `if` in the body decides)."""
    flag = flag_of(out, input_)
    return np.False_ if flag is None else flag


def flag_of(value, base):
    """Whether the Tracer `value` is the array `base`: np.True_ where it is `base` itself,
    the conjunction of the flags of the conditional views between them, np.False_ where
    it shares no memory with `base`; None where it shares it otherwise (a view)."""
    if not isinstance(value, Tracer):
        return np.False_
    flag = _flag_in_branch(value, base, value.builder)
    if flag is None and views.root_of(value) is not views.root_of(base):
        return np.False_
    return flag


def link_in_loop(input_, base, flag) -> None:
    """Links the loop body's input `input_` as the conditional view that is `base` (the
    body's input for the array owning its memory, or for the array it is before the
    loop) where the bool `flag` (the loop's state) says it still is that array, in place
    of the link its outer value gave it (`views.link_inputs`): the body passes `input_`
    on in some trips only."""
    for holder in (base, input_.viewing.base if input_.viewing is not None else base):
        if holder.views:
            holder.views[:] = [r for r in holder.views if r() is not input_]
    input_.viewing = None
    link_where(input_, base, flag)
    input_.builder.used_stand_ins.discard(id(input_))


def link_where(result, base, flag) -> None:
    """Links `result` as the conditional view that is `base` where the bool Tracer `flag` is."""
    link(result, base, lambda: flag)


def link(result, base, taken=None) -> None:
    """Links `result` as a view of `base`: conditional (it is `base` where the bool Tracer
    `taken()` gives is true; computed when first needed, and again where a block traced
    again dropped what it staged), or, without `taken`, one that cannot be followed."""
    if taken is None:   # which memory it shares depends on the path (`View.path`)
        views.link(result, base, None)
        result.viewing = result.viewing._replace(path=True)
    else:
        taken = _staged_once(result.builder, taken)
        views.link(result, base, _conditional(taken, result))
        _flags[id(result)] = (weakref.ref(result), taken)
    result.builder.shares_memory.update((result.node.id, base.node.id))


def _staged_once(builder, function):
    """`function()`, its equations recorded in `builder` (the view's own graph) wherever
    tracing stands when it is first called; the same value later, while the last
    equation it staged is still in `builder` (a block traced again drops those it
    staged while tracing the block, and the value is staged anew)."""
    memo = []

    def staged():
        if memo:
            value, index, eqn = memo[0]
            if eqn is None or index < len(builder.eqns) and builder.eqns[index] is eqn:
                return value
        start = len(builder.eqns)
        with recording_in(builder):
            value = function()
        last = builder.eqns[-1] if len(builder.eqns) > start else None
        memo[:] = [(value, len(builder.eqns) - 1, last)]
        return value
    return staged


def _conditional(taken, result):
    """The view rule of `result`, which is its base on the path where `taken()`.

    On the other paths it is an array of its own, `derive.own_value` (a Tracer of
    `result`'s graph that `runtime.views.write` rewrites with each value written to
    `result`). It shares no memory with the base, so a block reading it reads
    nothing stale (`views.refuse_stale_reads`)."""
    return _conditional_rule(taken, Tracer(result.builder, result.node), weakref.ref(result))


def _conditional_rule(taken, own, result_ref):
    """The rule of a conditional view whose own value (off the `taken` path) is `own`;
    `derive.with_own(other)` is the same rule with another own value (a block's own
    copy of it, which the block's writes rewrite: `views.write`)."""
    def derive(base):
        with recording_in(base.builder):
            return np.where(taken(), base, own)
    derive.own_value, derive.result, derive.taken = own, result_ref, taken
    derive.with_own = lambda other: _conditional_rule(taken, other, result_ref)[0]

    def scatter(base, value):
        with recording_in(base.builder):
            return np.where(taken(), value, base)
    return derive, scatter, True
