"""Values of a staged `if` that are, on some paths, one array the graph holds as two.

    r = x
    for v in y:                 # unrolled: each trip stages its `if`s
        if 0.0 < v < 1.0:
            x = np.copy(y)      # x: the caller's array, or a copy (a conditional view)
        if v < -1.0:
            r = x               # r: the caller's array, or that very copy
        ...
        x += 3.0                # eagerly seen by r where r is the copy

`runtime.path_aliases` links each result of an `if` to the array from before it that
it is on some paths (a conditional view: that array where a flag says so, an array of
its own elsewhere). Two results that are one *new* array on some path (`x = np.copy(y);
r = x` in a branch), or one that is, on some path, the array of its own of a
conditional view another value still holds (`r = x` above), would each get an array of
their own: a later write to one would miss the other, a silently different answer.
Where they are that array on every path (`r = x` in both branches), the second is
linked as a second name for the first (`views.SAME`). Otherwise they are `guard`ed
(`runtime.alias_guards`, weakly): a write in place to either, or to anything sharing their
memory, is the `TracingError` naming them (`views.write`), and a later `if` taking them
on guards its own results the same way.
"""
from __future__ import annotations

from . import views
from .alias_guards import guard, partners
from .tracer_value import Tracer

class SharedResults:
    """The results of one staged `if` (positions `positions` of the branches' traces
    `traces`, whose inputs stand for `outer`, values of `builder`'s graph) that share,
    on some path, memory that `path_aliases` does not follow: `same` (result i is
    result j on every path: linked as its second name), `pairs` and `outside` (result i
    and result j, or a value from before the `if`, guarded; `before`: the operands' leaves,
    whose leaf i the name of result i no longer holds)."""

    def __init__(self, traces: list, outer: list, builder, positions: list, before=()):
        self.same, self.pairs, self.outside = {}, set(), []
        arrays = [i for i in positions
                  if all(isinstance(t.out_leaves[i], Tracer) and t.out_leaves[i].ndim
                         for t in traces)]
        for traced in traces:
            known = {i: _memory(traced, traced.out_leaves[i], outer, builder) for i in arrays}
            for i in arrays:
                self.outside += [(i, v) for v in known[i][1]   # not the name's own old value
                                 if not (i < len(before) and before[i] is v)]
                for j in arrays:
                    if j > i and known[i][0] & known[j][0]:
                        self.pairs.add((i, j))
        for i, j in sorted(self.pairs):
            if i not in self.same and all(t.out_leaves[i] is t.out_leaves[j] for t in traces):
                self.same[i] = j

    def link(self, results: list) -> None:
        """Links or guards the results (those of the cond, after `path_aliases`'s links)."""
        for i, j in self.same.items():
            result, first = results[i], results[self.same.get(j, j)]
            if isinstance(result, Tracer) and isinstance(first, Tracer) and result is not first:
                if result.viewing is not None:   # the link `path_aliases` gave it
                    holder = result.viewing.base
                    holder.views[:] = [r for r in holder.views or () if r() is not result]
                    result.viewing = None
                views.link(result, first, views.SAME)
                result.builder.shares_memory.update((result.node.id, first.node.id))
        for i, j in self.pairs:
            if i not in self.same and isinstance(results[i], Tracer) \
                    and isinstance(results[j], Tracer):
                guard(results[i], results[j])
        for i, value in self.outside:
            if isinstance(results[i], Tracer) and results[i] is not value:
                guard(results[i], value)


def _memory(traced, leaf, outer, builder) -> tuple:
    """`(shared, outside)` for a branch's result `leaf`: the ids of the memory it may share
    with another result that no link follows (every value on the way to the array owning
    it, as `builder`'s graph holds it, and what those are guarded with, but for an array
    from before the `if` reached as it is), and the values of `builder`'s graph whose
    array of their own it may be (a conditional view from before the `if` on the way
    to that array, or what one on the way is guarded with)."""
    chain = [leaf]
    while chain[-1].viewing is not None and chain[-1].viewing.base is not None:
        chain.append(chain[-1].viewing.base)
    inputs = {id(t): k for k, t in enumerate(traced.inputs)}
    shared, outside = set(), []
    for n, value in enumerate(chain):
        there = outer[inputs[id(value)]] if id(value) in inputs else value
        root = n == len(chain) - 1
        old = there.builder is builder or there is not value
        same = not root and value.viewing.derive is views.SAME[0]   # the next one's array
        if not (root and old) and not same:
            shared.add(id(there))
        if old and not root and not same and there.builder is builder:
            outside.append(there)
        for partner in partners(there):
            shared.add(id(partner))
            if partner.builder is builder:
                outside.append(partner)
    return shared, outside
