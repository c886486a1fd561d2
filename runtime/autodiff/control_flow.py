"""Gradients through `cond`, `while_loop` and `call`.

Each branch or loop body is *split*: its forward pass is traced into one
subgraph and its backward pass into another; the values the backward pass
reads from the forward pass (its *residuals*) are exactly what the backward
builder captured from the forward one.

- `cond`: the forward cond also returns the taken branch's residuals (the
  other branch returns placeholders of the same types); the backward pass is
  a cond on the same predicate over the two branches' backward graphs.
- `while_loop`: the forward loop also counts its trips and pushes the body's
  residuals that change per iteration onto a stack (`autodiff.stack`); the
  backward pass is a loop that runs as many trips, popping them, and sums the
  cotangents of the loop-invariant values it captured. A stack the loop
  carries (the loops of a gradient, differentiated again) is active like a
  float: its cotangent is a stack of cotangents (see `stack.py`).
- `call`: the callee's equations are linearized in place (inlined).
"""
from __future__ import annotations

import numpy as np

from ..abstract import AbstractValue, join_shapes
from ..errors import TracingError
from ..ir import Graph, Literal
from ..ops.call import call_p
from ..ops.control_flow import cond_p
from ..ops.errstate import errstate_p
from ..ops.while_loop import while_loop
from ..ops.while_primitive import split_while_operands, while_p, while_params
from ..tracer import GraphBuilder, Tracer, current_builder
from ..tracing import trace_to_graph
from . import stack
from .cotangents import carries_activity, differentiable, is_stack, new_var_like, zeros
from .linearize import emit_graph, linearize, linearize_rules
from .prune import prune, reads

TRIPS = AbstractValue((), np.int64)


def split(graph, args, active, ct_avals: dict):
    """Linearizes `graph` on `args` (the current builder's inputs) and traces its backward pass.

    `ct_avals` maps the outputs that take a cotangent to its type. Returns the
    outputs, the backward graph (inputs: those cotangents, then the residuals;
    outputs: the cotangents of the active inputs) and the residuals (Vars of
    the current builder, in the backward graph's input order).
    """
    forward = current_builder()
    outs, backward = linearize(graph, args, active)

    def backward_pass(cts):
        in_cts = backward(cts)
        return [ct if ct is not None else zeros(v.aval, like=x)
                for v, x, a, ct in zip(graph.inputs, args, active, in_cts)
                if a and carries_activity(v.aval)]
    n_out = len(graph.outputs)
    traced = trace_to_graph(backward_pass, ([ct_avals.get(i) for i in range(n_out)],),
                            name=f"{graph.name}_vjp", parent=forward, input_names=["ct"] * n_out,
                            is_output=None)
    builder, backward_graph = traced.builder, prune(traced.graph)
    assert not forward.captures, "a forward subgraph must be closed"
    read = reads(backward_graph)
    residuals = [(outer, inner) for outer, inner in builder.captures if inner.id in read]
    n_cts = len(backward_graph.inputs) - len(builder.captures)
    backward_graph.inputs = backward_graph.inputs[:n_cts] + [inner for _, inner in residuals]
    return outs, backward_graph, [outer for outer, _ in residuals]


def _placeholder(aval):
    """A value of type `aval` that nobody reads (the other branch's residual)."""
    if aval == stack.STACK:
        return stack.new_stack()
    return zeros(AbstractValue(tuple(d or 0 for d in aval.shape), aval.dtype))


# -- cond ------------------------------------------------------------------------------------
def _linearize_cond(args, active, *, true, false):
    pred, op_active = args[0], active[1:]
    parent = current_builder()
    ct_avals = {i: AbstractValue(join_shapes(a.aval.shape, b.aval.shape), a.aval.dtype)
                for i, (a, b) in enumerate(zip(true.outputs, false.outputs))
                if carries_activity(a.aval)}
    halves = []
    for graph in (true, false):
        forward = GraphBuilder(graph.name, parent)
        with forward:
            inputs = [forward.new_input(v.aval, v.name) for v in graph.inputs]
            halves.append((forward, *split(graph, inputs, op_active, ct_avals)))
    (f_true, outs_true, back_true, res_true), (f_false, outs_false, back_false, res_false) = halves
    with f_true:
        true_fwd = f_true.build(outs_true + _tracers(f_true, res_true)
                                + [_placeholder(r.aval) for r in res_false])
    with f_false:
        false_fwd = f_false.build(outs_false + [_placeholder(r.aval) for r in res_true]
                                  + _tracers(f_false, res_false))
    results = parent.add_eqn(cond_p, [parent.atom(x) for x in args],
                             {"true": true_fwd, "false": false_fwd})
    n = len(true.outputs)
    primal, residuals = results[:n], results[n:]
    true_bwd = _with_inputs(back_true, len(ct_avals), after=[new_var_like(r) for r in res_false])
    false_bwd = _with_inputs(back_false, len(ct_avals), before=[new_var_like(r) for r in res_true])

    def backward(cts):
        builder = current_builder()
        cts = [cts[i] if cts[i] is not None else zeros(aval, like=primal[i])
               for i, aval in ct_avals.items()]
        atoms = [builder.atom(x) for x in [pred, *cts, *residuals]]
        in_cts = iter(builder.add_eqn(cond_p, atoms, {"true": true_bwd, "false": false_bwd}))
        return [None] + [next(in_cts) if a and carries_activity(v.aval) else None
                         for a, v in zip(op_active, true.inputs)]
    return primal, backward


def _tracers(builder, vars_):
    return [Tracer(builder, v) for v in vars_]


def _with_inputs(graph, n_cts, before=(), after=()):
    """`graph` taking unread inputs before and after its residual inputs."""
    inputs = graph.inputs[:n_cts] + list(before) + graph.inputs[n_cts:] + list(after)
    return Graph(graph.name, inputs, graph.eqns, graph.outputs, graph.consts)


# -- while_loop ------------------------------------------------------------------------------
def _depends(graph, mask) -> list:
    """For each output of `graph`: does it depend on an input where `mask` is True?"""
    dep = {v.id for v, m in zip(graph.inputs, mask) if m}
    for eqn in graph.eqns:
        if any(not isinstance(a, Literal) and a.id in dep for a in eqn.inputs):
            dep.update(v.id for v in eqn.outputs)
    return [not isinstance(a, Literal) and a.id in dep for a in graph.outputs]


def _active_carries(body, carry_active, caps_active) -> list:
    n = len(carry_active)
    carry = [a and carries_activity(v.aval) for a, v in zip(carry_active, body.inputs)]
    while True:
        reached = _depends(body, carry + caps_active)
        new = [c or (r and carries_activity(v.aval))
               for c, r, v in zip(carry, reached, body.inputs[:n])]
        if new == carry:
            return carry
        carry = new


def _linearize_while(args, active, **params):
    parent = current_builder()
    cond, body, n = params["cond"], params["body"], params["num_carry"]
    init, cond_caps, body_caps = split_while_operands(params, args)
    init_active, _, caps_active = split_while_operands(params, list(active))
    carry_active = _active_carries(body, init_active, caps_active)
    if not any(carry_active):
        outs = parent.add_eqn(while_p, [parent.atom(x) for x in args], params)
        return outs, None
    if any(a and is_stack(v.aval) for a, v in zip(caps_active, body.inputs[n:])):
        raise TracingError("a loop body that reads a stack it does not carry cannot be "
                           "differentiated (the cotangents of its reads would be added)")

    forward = GraphBuilder("body", parent)
    with forward:
        carry = [forward.new_input(v.aval, v.name) for v in body.inputs[:n]]
        trips = forward.new_input(TRIPS, "trips")
        saved = forward.new_input(stack.STACK, "stack")
        caps = [forward.new_input(v.aval, v.name) for v in body.inputs[n:]]
        ct_avals = {i: body.inputs[i].aval for i in range(n) if carry_active[i]}
        outs, back, residuals = split(body, carry + caps, carry_active + caps_active, ct_avals)
        invariant = {c.node.id: x for c, x in zip(caps, body_caps)}
        invariant.update((v.id, value) for v, value in forward.consts.items())
        varying = [r for r in residuals if r.id not in invariant]
        pushed = stack.push(saved, *_tracers(forward, varying)) if varying else saved
        body_fwd = forward.build(outs + [trips + 1, pushed])
    cond_fwd = _cond_with_counter(cond, n)
    start = [parent.atom(x) for x in init] + [Literal(np.int64(0)),
                                             parent.atom(stack.new_stack())]
    results = parent.add_eqn(while_p, start + [parent.atom(x) for x in cond_caps + body_caps],
                             while_params(cond_fwd, body_fwd, n + 2, len(cond_caps)))
    primal, n_trips, final_stack = results[:n], results[n], results[n + 1]
    caps_grads = [a and differentiable(v.aval) for a, v in zip(caps_active, body.inputs[n:])]
    types = [r.aval for r in varying]

    def backward(cts):
        ct_carry = [cts[i] if cts[i] is not None else zeros(aval, like=primal[i])
                    for i, aval in ct_avals.items()]
        sums = [zeros(x.aval, like=x) for x, a in zip(body_caps, caps_grads) if a]

        def loop_body(state):
            k, saved, ct_carry, sums = state
            popped = {}
            if varying:
                saved, values = stack.pop(saved, types)
                popped = {r.id: x for r, x in zip(varying, values)}
            residual_values = [popped[r.id] if r.id in popped else invariant[r.id]
                               for r in residuals]
            results = emit_graph(back, ct_carry + residual_values)
            m = len(ct_carry)
            return (k - 1, saved, results[:m], [s + c for s, c in zip(sums, results[m:])])

        state = (n_trips, final_stack, ct_carry, sums)
        _, _, ct_init, ct_caps = while_loop(lambda s: s[0] > 0, loop_body, state)
        in_cts = [None] * len(args)
        for i, ct in zip(ct_avals, ct_init):
            in_cts[i] = ct
        for j, ct in zip([j for j, a in enumerate(caps_grads) if a], ct_caps):
            in_cts[n + len(cond_caps) + j] = ct
        return in_cts
    return primal, backward


def _cond_with_counter(cond, n):
    """The loop condition taking the trip count and the stack after the carried values."""
    avals = [v.aval for v in cond.inputs]
    names = [v.name for v in cond.inputs]
    traced = trace_to_graph(lambda carry, trips, saved, caps: emit_graph(cond, carry + caps),
                            (avals[:n], TRIPS, stack.STACK, avals[n:]), name="cond",
                            parent=current_builder(), is_output=None,
                            input_names=names[:n] + ["trips", "stack"] + names[n:])
    return traced.graph


# -- call --------------------------------------------------------------------------------------
def _linearize_call(args, active, *, graph):
    return linearize(graph, args, active)


linearize_rules[cond_p] = _linearize_cond
linearize_rules[while_p] = _linearize_while
linearize_rules[call_p] = _linearize_call
linearize_rules[errstate_p] = lambda args, active, *, graph, modes: linearize(graph, args, active)
