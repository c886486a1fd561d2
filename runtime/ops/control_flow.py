"""Higher-order primitives: `cond`, `while_loop` and `call`.

`cond` and `while_loop` only stage: inside a trace they add an equation that
holds its branches or its loop's condition and body as subgraphs, even for a
concrete predicate (a literal); outside any trace they raise `TracingError`.
Running Python `if`/`while` on concrete values (the "as-if" rule) is the
converter's business (autograph/operators). A loop-carried value may change
shape (it is relaxed to unknown dimensions) but not dtype; a Python number
(weak, see `ops/python_numbers.py`) joins a NumPy value as `join_weak` says.

    x:f32[3] = cond p a b
      true(a:f32[3], b:f32[3]) { ... }
      false(a:f32[3], b:f32[3]) { ... }
"""
from __future__ import annotations

import threading

import numpy as np

from ..abstract import AbstractValue, join_shapes, join_weak
from ..backend import DASK_OVERRIDES
from .. import path_aliases, shared_results, views, weak_joins
from ..errors import PathTypeError, TracingError
from ..ir import Eqn, Graph, Literal
from ..source import location_note, user_source
from ..tracer import Tracer, current_builder, read_if_variable, recording_in, staging_builder
from ..tracing import in_place_outputs, write_through
from ..tree import flatten
from .effects import stage_failure
from .higher_order import define_higher_order, prune_subgraphs
from .subgraphs import (
    Diverged,
    add_inputs,
    fill_placeholders,
    leaf_names,
    retype_output,
    same_static,
    trace_function,
    union_captures,
)


def _out_avals(graph):
    return [a.aval for a in graph.outputs]


def _cond_abstract_eval(pred, *operands, true, false):
    return [AbstractValue(join_shapes(a.shape, b.shape), a.dtype, a.weak)
            for a, b in zip(_out_avals(true), _out_avals(false))]


def _cond_kernel(xp, run_graph, true, false):
    run_true, run_false = run_graph(true), run_graph(false)
    return lambda pred, *operands: (run_true if pred else run_false)(*operands)


def _lazy_cond_kernel(xp, run_graph, true, false):
    """On Dask (the interpreter's; generated code calls `backend.truth`): the predicate
    computed, only its boolean back."""
    run = _cond_kernel(xp, run_graph, true, false)
    return lambda pred, *operands: run(bool(xp.compute(pred)[0]), *operands)


def _cond_bindings(eqn):
    """Both branches take the operands after the predicate."""
    return [(eqn.params["true"], eqn.inputs[1:]), (eqn.params["false"], eqn.inputs[1:])]


def _prune_cond(eqn, prune, live):
    """`prune_subgraphs`, and the outputs nothing reads (`live`) dropped from the branches."""
    kept = [j for j, v in enumerate(eqn.outputs) if v.id in live]
    if len(kept) < len(eqn.outputs):
        branches = {k: Graph(g.name, g.inputs, g.eqns, [g.outputs[j] for j in kept], g.consts)
                    for k, g in ((k, eqn.params[k]) for k in ("true", "false"))}
        eqn = Eqn(eqn.primitive, eqn.inputs, {**eqn.params, **branches},
                  [eqn.outputs[j] for j in kept], eqn.source)
    return prune_subgraphs(eqn, prune)


cond_p = define_higher_order("cond", _cond_abstract_eval, _cond_kernel, bindings=_cond_bindings,
                             prune=_prune_cond)
DASK_OVERRIDES[cond_p] = _lazy_cond_kernel


def _check_predicate(pred):
    shape = pred.shape if isinstance(pred, Tracer) else np.shape(pred)
    if len(shape) and not all(d == 1 for d in shape):
        what = pred.aval if isinstance(pred, Tracer) else shape
        raise ValueError(
            f"the truth value of an array with more than one element is ambiguous "
            f"(a traced condition of shape {what}){location_note(user_source())}")


def cond(pred, true_fn, false_fn, *operands, names=None):
    """Stages `true_fn(*operands) if pred else false_fn(*operands)` as one `cond` equation.

    Both branches must return the same structure; each output must have one
    type in both (a Python number joins the other branch's as `join_weak` says),
    while shapes may differ (the result dimension becomes unknown).
    Outputs that are the same Python value in both branches stay Python values.
    A concrete `pred` is staged as a literal; outside a trace this raises `TracingError`.
    """
    builder = staging_builder("runtime.cond")
    pred = read_if_variable(pred)
    _check_predicate(pred)
    names = leaf_names(operands, names)
    t = trace_function(true_fn, operands, "true", names, stand_ins="all")
    f = trace_function(false_fn, operands, "false", names, stand_ins="all")
    live = [s for s in (t, f) if not any(isinstance(x, Diverged) for x in s.out_leaves)]
    _fill_placeholders(t, f)
    if t.out_tree != f.out_tree:
        raise TracingError(
            f"the branches of a traced condition return different structures: "
            f"{t.out_tree} and {f.out_tree}{location_note(user_source())}")
    n = len(t.out_leaves)
    static = [same_static(a, b) for a, b in zip(t.out_leaves, f.out_leaves)]
    explicit_values = [x for x in flatten(operands)[0] if isinstance(x, Tracer)]
    through = _passed_through(t, f)
    keep = [i for i in range(n) if not static[i] and i not in through]
    passed, extra = in_place_outputs(live)    # inputs written in place: written through
    returned = [i for i in keep if names and i < len(names) and views.holds_returned(names[i])]
    aliases = path_aliases.BranchAliases([t, f], explicit_values, builder, keep, returned)
    shared = shared_results.SharedResults([t, f], explicit_values, builder, keep,
                                           flatten(operands)[0])
    true, false = (s.finish(keep, [s.inputs[k] for k in extra] + aliases.flags[b])
                   for b, s in enumerate((t, f)))
    joined = _unify_dtypes(true, false,
                           [names[i] if names and i < len(names) else None for i in keep])
    captured = union_captures(t.builder.captures, f.builder.captures)
    add_inputs(true, t.builder.captures, captured)
    add_inputs(false, f.builder.captures, captured)
    explicit = [builder.atom(x) for x in explicit_values]
    outs = builder.add_eqn(cond_p, [builder.atom(pred), *explicit, *captured],
                           {"true": true, "false": false})
    weak_joins.note_branch_results(outs, joined, [[s.out_leaves[i] for s in (t, f)]
                                                  for i in keep])
    it = iter(outs)
    results = [t.out_leaves[i] if static[i] else explicit_values[through[i]] if i in through
               else next(it) for i in range(n)]
    views.refuse_stale_reads([explicit_values[k] for k in [*passed, *extra]], [t, f])
    finals = {k: results[j] for k, j in passed.items()} | dict(zip(extra, it))
    results = write_through(explicit_values, finals, results, passed)
    aliases.link(results, list(it))    # a result that is, on one path, an array from before
    shared.link(results)               # results that are one array on some path
    return t.out_tree.unflatten(results)


def _passed_through(t, f) -> dict:
    """Output i -> input k, for the outputs that both branches return as their input k
    itself, not written: the result is the operand, the very array it was before."""
    through = {}
    for i, (a, b) in enumerate(zip(t.out_leaves, f.out_leaves)):
        for k, (x, y) in enumerate(zip(t.inputs, f.inputs)):
            if a is x and b is y and k not in t.written and k not in f.written:
                through[i] = k
                break
    return through


def _fill_placeholders(t, f):
    """Parts of one branch's outputs with `__stage_like__` take the other branch's types,
    recorded in that branch's graph (where a stand-in stages the branch's failure:
    `diverge`)."""
    a, b = t.out_tree.unflatten(t.out_leaves), f.out_tree.unflatten(f.out_leaves)
    for traced, value, other in ((t, a, b), (f, b, a)):
        with recording_in(traced.builder):
            _filling.builder = traced.builder
            try:
                traced.out_leaves, traced.out_tree = flatten(fill_placeholders(value, other))
            finally:
                _filling.builder = None


class _Filling(threading.local):
    builder = None   # the branch whose outputs are being filled


_filling = _Filling()


def diverge(error: BaseException, where=None) -> None:
    """For a `__stage_like__` that cannot stand in for the other branch's value: stages
    `error`, raised when the branch being filled runs (as a `raise` there would be;
    `where`: the user's line to name), or raises it now outside a branch."""
    if _filling.builder is None or current_builder() is not _filling.builder \
            or not stage_failure(error):
        raise error
    if where is not None:
        _filling.builder.eqns[-1].source = where


def _wider_text(a: AbstractValue, b: AbstractValue):
    """Two strings' types (`<U3` and `<U8`: a label one branch or the other gives) join as
    NumPy's `where` joins them, in the wider; None for any other pair."""
    if a.dtype.kind == b.dtype.kind == "U" and a.shape == b.shape and not (a.weak or b.weak):
        return AbstractValue(a.shape, np.result_type(a.dtype, b.dtype))
    return None


def _unify_dtypes(a_graph, b_graph, names) -> dict:
    """Each output gets one type in both branches: where a branch gives a Python number,
    the join `join_weak` gives (the other branch's NumPy dtype where NEP 50 lets it
    absorb the number, as JAX joins a weak type with a strong one). Returns, for the
    outputs that are a Python number in one branch only, its type there
    (`runtime.weak_joins`)."""
    joined = {}
    for i, (a, b) in enumerate(zip(a_graph.outputs, b_graph.outputs)):
        if a.aval.dtype == b.aval.dtype and a.aval.weak == b.aval.weak:
            continue
        label = names[i] if names and names[i] else None
        try:
            aval = join_weak(a.aval, b.aval) or _wider_text(a.aval, b.aval)
        except TypeError:   # NumPy's DTypePromotionError: a string and a number
            aval = None
        if aval is None:
            raise PathTypeError(
                f"{repr(label) if label else f'output {i}'} has dtype {a.aval.dtype} in one branch of a "
                f"traced condition and {b.aval.dtype} in the other"
                f"{location_note(user_source())}; cast one of them so that both agree")
        for graph, atom in ((a_graph, a), (b_graph, b)):
            if atom.aval.dtype != aval.dtype or atom.aval.weak != aval.weak:
                if isinstance(atom, Literal):
                    weak_joins.exact_literal(atom.value, aval, label)
                retype_output(graph, i, aval)
                if atom.aval.weak:
                    joined[i] = atom.aval, label
    return joined
