"""ONNX lowerings of `cond` (an `If`), `while_loop` (a `Loop`) and `call` (inlined).

An `If` branch reads the operands by their outer names (ONNX subgraphs see the
enclosing scope); a `Loop` carries the loop's values, and its condition is the
loop's condition graph written twice, before the loop and at the end of the
body. Outputs are cast to the equation's dtypes, so both branches (and every
trip) agree on them.
"""
from __future__ import annotations

import numpy as np

from ..ops.call import call_p
from ..ops.control_flow import cond_p
from ..ops.while_primitive import split_while_operands, while_p
from .builder import Scope, VariableSlot
from .lower import bind_names, lower_graph, lowering, output_names


def outer_names(cx, atoms):
    """The names (or variable slots) that atoms of this equation have in the scope."""
    names = []
    for atom in atoms:
        found = cx.scope.env.get(getattr(atom, "id", None))
        names.append(found if isinstance(found, VariableSlot) else cx.scope.atom(atom))
    return names


def _dims(aval):
    return [d if d is not None else None for d in aval.shape]


@lowering(cond_p)
def _cond(cx):
    pred = cx.arg(0, bool)
    if cx.in_avals[0].shape:
        pred = cx.node("Reshape", [pred, cx.ints([])])
    operands = outer_names(cx, cx.eqn.inputs[1:])
    dtypes = [v.aval.dtype for v in cx.eqn.outputs]
    branches = []
    for key in ("true", "false"):
        graph = cx.params[key]
        scope = Scope(cx.scope.model, cx.scope.env, cx.scope.depth + 1)
        bind_names(scope, graph.inputs, operands)
        lower_graph(scope, graph)
        outs = output_names(scope, graph.outputs, dtypes)
        infos = [(n, v.aval.dtype, _dims(v.aval)) for n, v in zip(outs, cx.eqn.outputs)]
        branches.append(scope.graph_proto(f"{graph.name}_{key}", [], infos))
    if not cx.eqn.outputs:   # only dropped asserts inside: nothing to compute
        return []
    outs = cx.node("If", [pred], n_out=len(cx.eqn.outputs), then_branch=branches[0],
                   else_branch=branches[1])
    return [outs] if len(cx.eqn.outputs) == 1 else outs


def _condition(scope, graph, carry_names, const_names):
    """The loop condition written into `scope`: a bool scalar's name."""
    inner = Scope(scope.model, scope.env, scope.depth)
    inner.nodes, inner.produced = scope.nodes, scope.produced
    bind_names(inner, graph.inputs, list(carry_names) + list(const_names))
    lower_graph(inner, graph)
    out = graph.outputs[0]
    name = inner.atom(out, bool)
    if out.aval.shape:
        name = inner.node("Reshape", [name, inner.model.const(np.zeros(0, np.int64))])
    return name


@lowering(while_p)
def _while(cx):
    cond, body = cx.params["cond"], cx.params["body"]
    carry, cond_consts, body_consts = split_while_operands(cx.params, cx.eqn.inputs)
    dtypes = [v.aval.dtype for v in body.inputs[:len(carry)]]
    start = [cx.arg(i, d) for i, d in enumerate(dtypes)]
    cond_names = outer_names(cx, cond_consts)
    first = _condition(cx.scope, cond, start, cond_names)

    scope = Scope(cx.scope.model, cx.scope.env, cx.scope.depth + 1)
    model = cx.scope.model
    trip, cond_in = model.fresh("trip"), model.fresh("cond_in")
    carried = [model.fresh(v.name or "carry") for v in body.inputs[:len(carry)]]
    bind_names(scope, body.inputs, carried + outer_names(cx, body_consts))
    lower_graph(scope, body)
    new_carry = [scope.atom(a, d) for a, d in zip(body.outputs, dtypes)]
    going_on = _condition(scope, cond, new_carry, cond_names)
    outs = output_names(scope, [going_on] + new_carry, [bool] + dtypes)
    infos_in = [(trip, np.int64, []), (cond_in, bool, [])] + [
        (n, v.aval.dtype, _dims(v.aval)) for n, v in zip(carried, body.inputs)]
    infos_out = [(outs[0], bool, [])] + [
        (n, v.aval.dtype, _dims(v.aval)) for n, v in zip(outs[1:], body.inputs)]
    proto = scope.graph_proto(f"{body.name}_loop", infos_in, infos_out)
    results = cx.node("Loop", ["", first, *start], n_out=len(carry), body=proto)
    return [results] if len(carry) == 1 else results


@lowering(call_p)
def _call(cx):
    graph = cx.params["graph"]
    inner = Scope(cx.scope.model, cx.scope.env, cx.scope.depth)
    inner.nodes, inner.produced = cx.scope.nodes, cx.scope.produced
    bind_names(inner, graph.inputs, outer_names(cx, cx.eqn.inputs))
    lower_graph(inner, graph)
    return [inner.atom(a, v.aval.dtype) for a, v in zip(graph.outputs, cx.eqn.outputs)]
