"""Results of a staged `if` that are, on one path, an array from before it.

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
write to it is a write to that array (`scatter`: `where(taken, value, base)`).
Every write in place then reaches exactly the values NumPy's would.

Where a result is an old array on both paths (two different ones: `y = a if c
else b`) or its type differs from the old array's, it is linked as a view that
cannot be followed: a write to either is a `TracingError` naming them, never a
silently different answer.
"""
from __future__ import annotations

import numpy as np

from . import views
from .tracer_value import Tracer


def link_branch_results(pred, results: list, traces: list, outer: list, builder) -> None:
    """Links each of `results` (the cond's, per leaf) that one branch of `traces` (true,
    false) returns as an array from before the cond: `outer[k]` for its input k, or a
    value of `builder` it read."""
    for i, result in enumerate(results):
        if not isinstance(result, Tracer) or result.builder is not builder \
                or result.view is not None:
            continue
        sources = [_passed_on(traced, traced.out_leaves[i], outer, builder) for traced in traces]
        if sources[0] is sources[1]:
            continue  # the same array on both paths (written through), or new on both
        found = [(branch, x) for branch, x in enumerate(sources) if x is not None]
        branch, base = found[0]
        if len(found) > 1 or base.aval != result.aval or not isinstance(pred, Tracer):
            views.link(result, base, None)
        else:
            views.link(result, base, _conditional(
                _branch_taken(Tracer(builder, pred.node), branch), result))
        builder.shares_memory.update((result.node.id, base.node.id))


def _passed_on(traced, leaf, outer, builder):
    """The array from before the cond that a branch returns as itself, or None."""
    if not isinstance(leaf, Tracer):
        return None
    if leaf.builder is builder:      # a value the branch read from the enclosing code
        return leaf
    for k, inner in enumerate(traced.inputs):
        if leaf is inner:
            return outer[k]
    return None


def link_loop_results(results: list, initial: list, body, carried: list, first_test,
                      builder) -> None:
    """Links each of `results` (a staged loop's, per leaf of its state) that is, where the
    loop runs no trip, the array `initial[i]` from before it: a conditional view on the
    path where `first_test()` (the loop's test on its initial state) is False. A body
    that passes the array on in some trip, or returns an array from outside, makes a
    view that cannot be followed."""
    for slot, i in enumerate(carried):
        result, base, out = results[i], initial[i], body.out_leaves[i]
        if not isinstance(result, Tracer) or result is base or result.view is not None:
            continue
        if not isinstance(base, Tracer) or base.builder is not builder:
            continue
        outside = isinstance(out, Tracer) and out.builder is not body.builder
        passed_on = isinstance(out, Tracer) and views.root_of(out) is body.inputs[slot]
        if outside or passed_on or base.aval != result.aval:
            views.link(result, base, None)
        else:
            views.link(result, base, _conditional(lambda: np.logical_not(first_test()),
                                                  result))
        builder.shares_memory.update((result.node.id, base.node.id))


def _branch_taken(pred, branch: int):
    """A thunk giving, as a bool Tracer, whether the cond on `pred` takes `branch` (0: true)."""
    def taken():
        flag = pred.reshape(()) if pred.ndim else pred
        flag = flag if flag.dtype == bool else flag != 0
        return flag if branch == 0 else np.logical_not(flag)
    return taken


def _conditional(taken, result):
    """The view rule of `result`, which is its base on the path where `taken()`."""
    def derive(base):
        return np.where(taken(), base, result)

    def scatter(base, value):
        return np.where(taken(), value, base)
    return derive, scatter, True
