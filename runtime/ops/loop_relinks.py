"""A staged loop whose body rebinds, on some trips, a leaf of its state that it writes in place
while another value of the loop shares the leaf's memory (`views.RelinkNeeded`).

`runtime.ops.while_loop` stages such a loop again through `relinking`, giving it its own
staging function (`staged(cond_fn, body_fn, state, names, relinked=...)`).
"""
from __future__ import annotations

import numpy as np

from .. import path_aliases, views
from ..errors import TracingError
from ..tracer import Tracer
from ..tree import flatten
from .subgraphs import leaf_names


def relinking(staged, cond_fn, body_fn, state, need, names=None):
    """A loop whose body writes a leaf of its state in place, where the leaf shares memory
    with another value of the loop, and binds it to another array on some trips
    (`views.RelinkNeeded`):

        w = x[1:]
        for i in range(n):        # n traced
            s = s + w[0]          # w views the array x was before the loop...
            if y[i] > 0:          # traced
                x *= 0.5          # ...which this writes while x is still it
            else:
                x = np.copy(y)

    Staged again carrying, first, each such leaf's root: the array owning its memory
    (the body reads it, and every view of it, through that input, which the loop passes
    on and writes back after it), or, where that fails, the array the leaf is before the
    loop; and, last, whether the leaf is still its root. The body's input for the leaf
    is the conditional view that is the root's input where so
    (`path_aliases.link_in_loop`); after the loop, the leaf's result is the root where
    its flag says so. A leaf the body binds to some other view of that memory stays the
    refusal (but for what a `return` returns, `_returned_flag`), as does one a retrace
    finds misused again. `names`: one per entry of `state`.
    """
    leaves = flatten(state)[0]
    returned = {k for k, name in enumerate(leaf_names(state, names) or ())
                if views.holds_returned(name)}
    for whole in (True, False):
        positions = sorted(need.positions)
        while True:
            try:
                return _relinked(staged, cond_fn, body_fn, state, positions, need.refusal,
                                 whole, returned)
            except views.RelinkNeeded as more:   # positions among (roots, state, flags)
                offset = len({id(_root(leaves[k], whole)[0]) for k in positions})
                found = {k - offset for k in more.positions}
                if not found <= set(range(len(leaves))) or found <= set(positions):
                    break
                positions = sorted(found | set(positions))
            except TracingError as error:
                if error is not need.refusal:
                    raise
                break
    raise need.refusal


def _root(leaf, whole: bool) -> tuple:
    """`(root, flag)`: with `whole`, the array owning `leaf`'s memory, and whether `leaf` is
    it (a chain of conditional views; None where it is another view); else `leaf` itself
    (a body reading it, the array a loop iterates, reads that memory as it was)."""
    if not whole:
        return leaf, np.True_
    root = views.root_of(leaf)
    return root, path_aliases.flag_of(leaf, root)


def _relinked(staged, cond_fn, body_fn, state, positions, refusal, whole, returned):
    """`relinking` for the state leaves at `positions`, their roots as `_root` says
    (`returned`: the leaves holding what a `return` returns)."""
    leaves = flatten(state)[0]
    roots, at, flags = [], [], []   # each root once
    for k in positions:
        root, flag = _root(leaves[k], whole)
        if flag is None:
            raise refusal
        at.append(next((j for j, x in enumerate(roots) if x is root), len(roots)))
        roots += [root] if at[-1] == len(roots) else []
        flags.append(flag)

    def body(full):
        roots_in, inner, flags_in = full
        inputs = flatten(inner)[0]
        for k, j, flag in zip(positions, at, flags_in):
            if isinstance(inputs[k], Tracer) and isinstance(roots_in[j], Tracer):
                path_aliases.link_in_loop(inputs[k], roots_in[j], flag)
        outs, tree = flatten(body_fn(inner))
        outs = [_second_name(x, inputs[k], roots_in) if k not in positions and k < len(inputs)
                else x for k, x in enumerate(outs)]
        out = tree.unflatten(outs)
        passing = [_returned_flag(_still_root(outs[k], roots_in[j], roots[j]), k in returned)
                   for k, j in zip(positions, at)]
        if any(p is None for p in passing):   # a view of the root, for the next trip
            raise refusal
        return roots_in, out, tuple(np.logical_and(flag, p) for flag, p in zip(flags_in, passing))

    roots_out, out, flags_out = staged(
        lambda full: cond_fn(full[1]), body, (tuple(roots), state, tuple(flags)), None,
        relinked=[len(roots) + k for k in positions])
    results = flatten(out)[0]
    for k, j, flag in zip(positions, at, flags_out):
        if isinstance(results[k], Tracer) and results[k] is not roots_out[j]:
            path_aliases.link_where(results[k], roots_out[j], flag)
    return out


def _still_root(out, root_in, root):
    """Whether the body's result `out` for a relinked leaf is the array `root` (whose
    input is `root_in`), as `path_aliases.flag_of` says; an outer value returned as it
    is, through the input standing for it (None where it is a view of `root` that
    cannot be followed: the refusal)."""
    if isinstance(out, Tracer) and out.builder is not root_in.builder:
        inner = views.inner_version(root_in.builder, out)
        if inner is None:
            return None if views.root_of(out) is views.root_of(root) else np.False_
        out = inner
    return path_aliases.flag_of(out, root_in)


def _returned_flag(flag, returned: bool):
    """`flag`, or False for what a `return` returns where it is a view of the root that
    cannot be followed (`retval_ = y` in a nested `if`, kept on the other path): the
    `return` ends the loop and nothing writes that memory after it, so its value, read
    when returned, is all that matters: carried as an array of its own."""
    return np.False_ if flag is None and returned else flag


def _second_name(out, input_, roots) -> object:
    """`input_` where the body returns, for it, the input of the root it is a second name
    for (`views.SAME`: a block's state carrying the array, read through the root's
    input): the same memory and value, passed on as itself; else `out`."""
    how = input_.viewing if isinstance(input_, Tracer) else None
    if how is not None and how.derive is views.SAME[0] and how.base is out \
            and any(out is root for root in roots):
        return input_
    return out
