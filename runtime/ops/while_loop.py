"""`while_loop(cond_fn, body_fn, init)`: a loop staged as one `while_loop` equation.

It only stages (running Python iterations while the condition is concrete is
the converter's business, in autograph/operators/loops.py), and raises
`TracingError` outside a trace. Its carried values are the traced leaves of
the state plus the Python leaves the body changes; the carry types are found
by tracing the body until they stop changing: a changing shape relaxes to
unknown dimensions, a changing dtype is an error, except where a Python number
(a weak value: it stays a Python number while the loop runs, `steps += 1`)
joins a NumPy one as `join_weak` says: `total = 0.0` then `total + x_f32` is
carried as f32, as NEP 50 promotes it.
"""
from __future__ import annotations

import numpy as np

from ..abstract import AbstractValue, join_shapes, join_weak, python_type
from .. import path_aliases, views, weak_joins
from .call import call_p
from .loop_relinks import relinking
from ..errors import PathTypeError, TracingError
from ..ir import Literal
from ..source import location_note, user_source
from ..tracer import Tracer, bind, current_builder, staging_builder
from ..tracing import in_place_outputs, write_through
from ..tree import flatten, leaf_paths
from .subgraphs import (
    fill_placeholders,
    leaf_names,
    retype_output,
    same_static,
    trace_function,
)
from .python_numbers import conversion, convert_weak
from .while_primitive import while_p, while_params


def while_loop(cond_fn, body_fn, init, names=None):
    """Stages `while cond_fn(state): state = body_fn(state)` as one `while_loop` equation.

    `names` (one per entry of a tuple state) make error messages and graphs readable.
    A condition that stays concrete is staged as a literal; outside a trace this
    raises `TracingError`.
    """
    staging_builder("runtime.while_loop")
    try:
        return _staged(cond_fn, body_fn, init, names)
    except views.RelinkNeeded as need:   # from any trace of the body, however wrapped
        return relinking(_staged, cond_fn, body_fn, init, need, names)


_PYTHON_SCALARS = (bool, int, float, complex)


def _aval_of(x):
    """`x`'s type; a Python number's is weak (`python_aval`)."""
    if isinstance(x, Tracer):
        return x.aval
    if isinstance(x, _PYTHON_SCALARS) or isinstance(x, np.generic):
        return Literal(x).aval
    array = np.asarray(x)
    return AbstractValue(array.shape, array.dtype)


def _staged(cond_fn, body_fn, state, entry_names, first_writes=True, tracking=None,
            relinked=()):
    leaves, tree = flatten(state)
    names = leaf_names(state, entry_names)
    labels = names or leaf_paths(tree, "state")
    avals = [x.aval if isinstance(x, Tracer) else None for x in leaves]
    rank = sum(x.ndim if isinstance(x, Tracer) else np.ndim(x) if not is_unbound(x) else 0
               for x in leaves)
    pythons = [None] * len(leaves)   # a leaf's Python number type on some trip, if joined
    for _ in range(4 + 2 * rank + len(leaves)):
        body = trace_function(_noting_python_paths(body_fn, pythons, names), (state,), "body", names,
                              avals, on_error=lambda s: s, stand_ins="loop")
        if body.out_tree != tree:
            filled = fill_placeholders(state, body.out_tree.unflatten(body.out_leaves))
            if flatten(filled)[1] != tree:  # a stand-in took the body's structure
                state = filled
                leaves, tree = flatten(state)
                names = leaf_names(state, entry_names)
                labels = names or leaf_paths(tree, "state")
                avals = [x.aval if isinstance(x, Tracer) else None for x in leaves]
                continue
            raise TracingError(
                f"a traced loop changed the structure of its state from {tree} to "
                f"{body.out_tree}{location_note(user_source())}")
        new = [_carry_type(av, x, out, labels[i])
               for i, (av, x, out) in enumerate(zip(avals, leaves, body.out_leaves))]
        new_pythons = [_python_path(av, x, out)
                       for av, x, out in zip(new, leaves, body.out_leaves)]
        if new == avals and new_pythons == pythons:
            break
        avals, pythons = new, new_pythons
    else:
        raise TracingError(f"the types of a traced loop's state did not settle"
                           f"{location_note(user_source())}")
    carried = [i for i, av in enumerate(avals) if av is not None]
    body_graph = body.finish(carried)
    for j, i in enumerate(carried):
        out = body_graph.outputs[j].aval
        if out.dtype != avals[i].dtype or out.weak != avals[i].weak:
            if isinstance(body_graph.outputs[j], Literal):
                weak_joins.exact_literal(body_graph.outputs[j].value, avals[i], labels[i])
            retype_output(body_graph, j, avals[i])
    cond = trace_function(_noting_python_paths(cond_fn, pythons, names), (state,), "cond", names,
                          avals, defer_errors=False, stand_ins=body.stand_ins)
    pred = cond.out_leaves[0] if cond.out_tree.num_leaves == 1 else None
    if pred is None or (isinstance(pred, Tracer) and pred.ndim
                        and not all(d == 1 for d in pred.shape)):
        raise ValueError(f"a traced loop condition must be one scalar value"
                         f"{location_note(user_source())}")
    cond_graph = cond.finish([0])
    builder = current_builder()
    init = [builder.atom(_start(leaves[i], avals[i], labels[i])) for i in carried]
    captures = [outer for outer, _ in cond.builder.captures + body.builder.captures]
    kept = [i for i in path_aliases.kept_in_some_trips(leaves, body, carried, builder)
            if i not in relinked]
    if kept and tracking is None:   # staged again, with a flag per such leaf
        return _tracking_aliases(cond_fn, body_fn, state, entry_names, kept, relinked)
    outs = builder.add_eqn(while_p, init + captures,
                           while_params(cond_graph, body_graph, len(init),
                                        len(cond.builder.captures)))
    for i, out in zip(carried, outs):
        if pythons[i] is not None:
            weak_joins.note(out, pythons[i], names[i] if names else None)
    results = dict(zip(carried, outs))
    results = [results.get(i, leaves[i]) for i in range(len(leaves))]
    inputs = [leaves[i] for i, av in enumerate(avals) if av is not None]
    slots = [i for i, av in enumerate(avals) if av is not None]
    passed, extra = in_place_outputs([body], slots)   # state written in place: written through
    extra = [k for k in extra if isinstance(inputs[k], Tracer)]
    for k in extra:
        if any(body.out_leaves[slots[k]] is x for x in body.inputs):
            raise TracingError(
                f"{labels[slots[k]]!r} is written in place in a traced loop and then bound to "
                f"another array of the loop's state{location_note(user_source())}: NumPy "
                f"would write a different array in each iteration, which a graph cannot "
                f"follow; assign new values (`x = x + ...`) instead")
    extra = [k for k in extra if slots[k] not in relinked]  # written through their roots
    if extra and first_writes:
        return _writing_first(cond_fn, body_fn, state, entry_names, [slots[k] for k in extra],
                              tracking, relinked)
    views.refuse_stale_reads([inputs[k] for k in [*passed, *extra]], [cond, body])
    finals = {k: results[j] for k, j in passed.items()}
    results = write_through(inputs, finals, results, passed)
    always, fresh, unfollowed = path_aliases.loop_aliases(results, leaves, body, carried,
                                                          [*kept, *relinked], builder)
    for i in always:   # passed on as it is on every trip: the very array from before
        results[i] = leaves[i]
    cond_consts = [outer for outer, _ in cond.builder.captures]
    for i in fresh:   # the array from before the loop where it runs no trip
        path_aliases.link(results[i], leaves[i], lambda: np.logical_not(builder.add_eqn(
            call_p, init + cond_consts, {"graph": cond_graph})[0]))
    for i in unfollowed + [i for i in kept if i not in (tracking or ())]:
        path_aliases.link(results[i], leaves[i])
    for i, outside in path_aliases.from_outside(results, body, carried, builder):
        path_aliases.link(results[i], outside)   # an array from outside the loop, unfollowed
    return tree.unflatten(results)


def _tracking_aliases(cond_fn, body_fn, state, entry_names, tracked, relinked=()):
    """A loop whose body passes an array of its state on in some trips only:

        for i in range(n):       # n traced
            if x[i] > 0:         # traced
                y = y * 2        # a new array...
            y += 1               # ...or, where the if did not run, the array from before

    Staged again with, as extra state, whether each such leaf is still the array from
    before the loop; after it, its result is that array where so
    (`runtime.path_aliases`).
    """
    leaves = flatten(state)[0]

    def body(full):
        inner, flags = full
        inputs = flatten(inner)[0]
        out = body_fn(inner)
        outs = flatten(out)[0]
        return out, tuple(np.logical_and(flag, path_aliases.flag_passing(outs[i], inputs[i]))
                          for flag, i in zip(flags, tracked))

    out, flags = _staged(lambda full: cond_fn(full[0]), body,
                         (state, tuple(np.True_ for _ in tracked)), None, tracking=tracked,
                         relinked=relinked)
    results = flatten(out)[0]
    for i, flag in zip(tracked, flags):
        path_aliases.link_where(results[i], leaves[i], flag)
    return out


def _writing_first(cond_fn, body_fn, state, entry_names, written, tracking=None,
                   relinked=()):
    """A loop whose body writes state leaves `written` in place, then rebinds them.

        for i in range(n):       # n traced
            x *= 2               # writes the array bound to x outside the loop...
            x = np.copy(x)       # ...in the first iteration only: x is a copy after it

    Staged again with, as extra state, the value of each such array outside
    and whether this is the first iteration; after the loop the arrays outside
    hold it (`runtime.tracing.write_through`). A leaf the body passes on in some
    trips only (`tracking`, staged by `_tracking_aliases`, whose flags end the
    state) is that array in every trip its flag says so, not in the first only.
    """
    leaves = flatten(state)[0]

    def body(full):
        inner, held, first = full
        inputs = flatten(inner)[0]
        before = [inputs[len(inputs) - len(tracking) + tracking.index(i)]
                  if tracking and i in tracking else first for i in written]
        out = body_fn(inner)
        return out, tuple(np.where(b, inputs[i], h)
                          for i, b, h in zip(written, before, held)), np.False_

    out, held, _ = _staged(lambda full: cond_fn(full[0]), body,   # `held`: its own copies
                           (state, tuple(Tracer(leaves[i].builder, leaves[i].node)
                                         for i in written), np.True_),
                           None, first_writes=False, tracking=tracking, relinked=relinked)
    write_through([leaves[i] for i in written], dict(enumerate(held)), [], {})
    return out


def _carry_type(aval, initial, out, label):
    """The carry type of one leaf after seeing the body's output `out` for it."""
    if aval is None:
        if same_static(initial, out):
            return None
        if is_unbound(initial):  # first bound in the loop: typed by the body
            return _aval_of(out)
        aval = _aval_of(initial)
        if isinstance(initial, Tracer):
            return aval
    out_aval = _aval_of(out)
    joined = join_weak(aval, out_aval)
    if joined is None:
        raise PathTypeError(
            f"{label!r} changes dtype in a traced loop, from {aval.dtype} to "
            f"{out_aval.dtype}{location_note(user_source())}; cast it so that the "
            f"loop keeps one dtype")
    try:
        shape = join_shapes(aval.shape, out_aval.shape)
    except ValueError:
        raise TracingError(
            f"{label!r} changes rank in a traced loop, from {aval} to {out_aval}"
            f"{location_note(user_source())}") from None
    return AbstractValue(shape, joined.dtype, joined.weak)


def _python_path(aval, initial, out):
    """The weak type the loop's leaf has on some trip where its carry type `aval` is
    a NumPy one: the Python number it starts as (no trip) or the body makes."""
    if aval is None or aval.weak:
        return None
    for x in (initial, out):
        if is_unbound(x):
            continue
        if _aval_of(x).weak:
            return _aval_of(x)
        inherited = weak_joins.joined(x)    # itself a Python number on some path
        if inherited and x.aval.dtype == aval.dtype:
            return inherited[0]
    return None


def _noting_python_paths(fn, pythons, labels):
    """`fn(state)`, its state's leaves known to be Python numbers on some trip
    (`pythons`: a weak type or None per leaf; `runtime.weak_joins`)."""
    if not any(pythons):
        return fn

    def traced(state):
        for x, python, label in zip(flatten(state)[0], pythons, labels or [None] * len(pythons)):
            if python is not None and isinstance(x, Tracer):
                weak_joins.note(x, python, label)
        return fn(state)
    return traced


def is_unbound(value) -> bool:
    """A start value whose type has `__unbound__ = True`: the loop body types it."""
    return getattr(type(value), "__unbound__", False)


def _start(value, aval, label):
    """A start value as the carry type `aval`: a traced Python number converted where
    the carry is of another type (exactly, `conversion`), anything else by `_typed`."""
    if isinstance(value, Tracer):
        if value.aval.weak and value.aval != aval:
            prim, params = conversion(aval, exact=True)
            return bind(prim, value, **params)
        return value
    if is_unbound(value):
        return python_type(aval)(0) if aval.weak else _typed(value, aval)
    if aval.weak:
        return python_type(aval)(value)
    weak_joins.exact_literal(value, aval, label)
    try:
        return _typed(value, aval)
    except OverflowError:  # 300 as int8: NumPy's error if the loop runs
        return convert_weak(value, aval)


def _typed(value, aval):
    """A start value as a NumPy scalar (a literal) or array (a constant) of `aval`.

    An unbound start is zeros: the loop defines the value before any use.
    """
    if is_unbound(value):
        return np.zeros(tuple(d or 0 for d in aval.shape), aval.dtype)
    array = np.asarray(value, dtype=aval.dtype)
    return array[()] if array.ndim == 0 else array
