"""`while_loop(cond_fn, body_fn, init)`: a Python loop, or a staged one.

While `cond_fn(state)` gives a concrete value the loop runs as Python. Once
it gives a traced value the rest of the loop is staged as one `while_loop`
equation. Its carried values are the traced leaves of the state plus the
Python leaves the body changes; the carry types are found by tracing the body
until they stop changing: a changing shape relaxes to unknown dimensions, a
changing dtype is an error, except for a Python scalar start value that NumPy
promotion turns into the body's dtype (`total = 0.0` then `total + x_f32`).
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import AbstractValue, join_shapes
from ..errors import TracingError
from ..ir import Literal, Var
from ..source import location_note, user_source
from ..tracer import Tracer, current_builder, read_if_variable
from ..tree import flatten, leaf_paths
from ..undefined import is_unbound
from .higher_order import bound_storage, prune_subgraphs
from .subgraphs import (
    fill_placeholders,
    leaf_names,
    retype_output,
    same_static,
    trace_function,
    weak_fits,
)


def split_while_operands(params, operands) -> tuple:
    """`(carry, cond_consts, body_consts)`: a `while_loop`'s operands (or anything
    laid out like them, e.g. their activity flags) split by its params' counts."""
    n, n_cond = params["num_carry"], params["num_cond_consts"]
    return operands[:n], operands[n:n + n_cond], operands[n + n_cond:]


def while_params(cond, body, num_carry: int, num_cond_consts: int) -> dict:
    """The params of a `while_loop` equation."""
    return {"cond": cond, "body": body, "num_carry": num_carry,
            "num_cond_consts": num_cond_consts}


def _abstract_eval(*operands, cond, body, num_carry, num_cond_consts):
    return [v.aval for v in body.inputs[:num_carry]]


def _kernel(xp, run_graph, **params):
    run_cond, run_body = run_graph(params["cond"]), run_graph(params["body"])

    def run(*args):
        carry, cond_consts, body_consts = split_while_operands(params, args)
        while run_cond(*carry, *cond_consts)[0]:
            carry = run_body(*carry, *body_consts)
        return carry
    return run


def _bindings(eqn):
    """The condition takes the carry then its constants; the body, the carry then its own."""
    carry, cond_consts, body_consts = split_while_operands(eqn.params, eqn.inputs)
    return [(eqn.params["cond"], carry + cond_consts), (eqn.params["body"], carry + body_consts)]


def _check(eqn):
    """Start values and body outputs fit the carry; the condition takes the carry."""
    cond, body, n = eqn.params["cond"], eqn.params["body"], eqn.params["num_carry"]
    carry = [v.aval for v in body.inputs[:n]]
    return (list(zip(carry, [a.aval for a in eqn.inputs[:n]]))
            + list(zip(carry, [a.aval for a in body.outputs]))
            + list(zip([v.aval for v in cond.inputs[:n]], carry)))


def _aliased_outputs(eqn, shared, storage_outputs):
    """A carried value is storage if it starts as, or becomes, storage: a fixpoint."""
    carry, _, body_consts = split_while_operands(eqn.params, eqn.inputs)
    body = eqn.params["body"]
    consts = bound_storage(body.inputs[len(carry):], body_consts, shared)
    carried = {i for i, a in enumerate(carry) if isinstance(a, Var) and a.id in shared}
    while True:
        grown = carried | storage_outputs(body, consts | {body.inputs[i].id for i in carried})
        if grown == carried:
            return carried
        carried = grown


def _load(params):
    """Graphs saved before the counts were params: derive them from the subgraphs."""
    if "num_carry" in params:
        return params
    n = len(params["body"].outputs)
    return while_params(params["cond"], params["body"], n, len(params["cond"].inputs) - n)


while_p = primitives.define("while_loop", _abstract_eval, _kernel, multiple_results=True,
                            higher_order=True)
primitives.subgraph_bindings[while_p] = _bindings
primitives.check_rules[while_p] = _check
primitives.alias_rules[while_p] = _aliased_outputs
primitives.prune_rules[while_p] = prune_subgraphs
primitives.load_rules[while_p] = _load
primitives.hidden_params[while_p] = ("num_carry", "num_cond_consts")


def while_loop(cond_fn, body_fn, init, names=None, on_stage=None):
    """`while cond_fn(state): state = body_fn(state)`, staged once the condition is traced.

    `names` (one per entry of a tuple state) make error messages and graphs readable;
    `on_stage(state)`, if given, may retype the state just before it is staged.
    """
    state = init
    while True:
        builder = current_builder()
        mark = len(builder.eqns) if builder is not None else 0
        pred = read_if_variable(cond_fn(state))
        if isinstance(pred, Tracer):
            del builder.eqns[mark:]  # the probe is traced again as the loop's condition
            if on_stage is not None:
                state = on_stage(state)
            return _staged(cond_fn, body_fn, state, names)
        if not pred:
            return state
        state = body_fn(state)


_PYTHON_SCALARS = (bool, int, float, complex)


def _aval_of(x):
    if isinstance(x, Tracer):
        return x.aval
    if isinstance(x, _PYTHON_SCALARS) or isinstance(x, np.generic):
        return Literal(x).aval
    array = np.asarray(x)
    return AbstractValue(array.shape, array.dtype)


def _staged(cond_fn, body_fn, state, entry_names):
    leaves, tree = flatten(state)
    names = leaf_names(state, entry_names)
    labels = names or leaf_paths(tree, "state")
    avals = [x.aval if isinstance(x, Tracer) else None for x in leaves]
    rank = sum(x.ndim if isinstance(x, Tracer) else np.ndim(x) if not is_unbound(x) else 0
               for x in leaves)
    for _ in range(4 + 2 * rank + len(leaves)):
        body = trace_function(body_fn, (state,), "body", names, avals)
        if body.out_tree != tree:
            filled = fill_placeholders(state, body.out_tree.unflatten(body.out_leaves))
            if flatten(filled)[1] != tree:  # a Placeholder took the body's structure
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
        if new == avals:
            break
        avals = new
    else:
        raise TracingError(f"the types of a traced loop's state did not settle"
                           f"{location_note(user_source())}")
    carried = [i for i, av in enumerate(avals) if av is not None]
    body_graph = body.finish(carried)
    for j, i in enumerate(carried):
        if body_graph.outputs[j].aval.dtype != avals[i].dtype:
            retype_output(body_graph, j, avals[i].dtype)
    cond = trace_function(cond_fn, (state,), "cond", names, avals)
    pred = cond.out_leaves[0] if cond.out_tree.num_leaves == 1 else None
    if pred is None or (isinstance(pred, Tracer) and pred.ndim
                        and not all(d == 1 for d in pred.shape)):
        raise ValueError(f"a traced loop condition must be one scalar value"
                         f"{location_note(user_source())}")
    cond_graph = cond.finish([0])
    builder = current_builder()
    init = [builder.atom(leaves[i] if isinstance(leaves[i], Tracer)
                         else _typed(leaves[i], avals[i])) for i in carried]
    captures = [outer for outer, _ in cond.builder.captures + body.builder.captures]
    outs = builder.add_eqn(while_p, init + captures,
                           while_params(cond_graph, body_graph, len(init),
                                        len(cond.builder.captures)))
    results = dict(zip(carried, outs))
    return tree.unflatten([results.get(i, leaves[i]) for i in range(len(leaves))])


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
    if out_aval.dtype != aval.dtype:
        out_atom = Literal(out) if isinstance(out, _PYTHON_SCALARS) else None
        init_atom = Literal(initial) if isinstance(initial, _PYTHON_SCALARS) else None
        if out_atom is not None and weak_fits(out_atom, aval.dtype):
            out_aval = aval
        elif init_atom is not None and weak_fits(init_atom, out_aval.dtype):
            aval = AbstractValue(aval.shape, out_aval.dtype)
        else:
            raise TracingError(
                f"{label!r} changes dtype in a traced loop, from {aval.dtype} to "
                f"{out_aval.dtype}{location_note(user_source())}; cast it so that the "
                f"loop keeps one dtype")
    try:
        shape = join_shapes(aval.shape, out_aval.shape)
    except ValueError:
        raise TracingError(
            f"{label!r} changes rank in a traced loop, from {aval} to {out_aval}"
            f"{location_note(user_source())}") from None
    return AbstractValue(shape, aval.dtype)


def _typed(value, aval):
    """A start value as a NumPy scalar (a literal) or array (a constant) of `aval`.

    An `Undefined` start is zeros: the loop defines the value before any use.
    """
    if is_unbound(value):
        return np.zeros(tuple(d or 0 for d in aval.shape), aval.dtype)
    array = np.asarray(value, dtype=aval.dtype)
    return array[()] if array.ndim == 0 else array
