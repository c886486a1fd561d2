"""ONNX lowerings of `cond` (`If`), `while_loop` (`Loop`), `call` and `errstate` (inlined).

An `If` branch reads the operands by their outer names (ONNX subgraphs see the
enclosing scope); an `if` of a few elementwise equations giving integers or
booleans computes both branches and selects (`Where`), as an `If` per trip of a
loop costs more than they do; a `Loop` carries the loop's values, and its condition is the
loop's condition graph written twice, before the loop and at the end of the
body; a loop that counts (`for i in range(n)`: its condition only `i < n`, its
body only adding a positive literal to `i`) is given its trip count instead.
Outputs are cast to the equation's dtypes, so both branches (and every trip)
agree on them. `call` and `errstate` write their graph in place.
"""
from __future__ import annotations

import numpy as np

from ..ir import Literal, Var
from ..ops.call import call_p
from ..ops.creation import astype_p
from ..ops.elementwise import ELEMENTWISE_UFUNCS, ufunc_primitive
from ..ops.joining import where_p
from ..ops.control_flow import cond_p
from ..ops.errstate import errstate_p
from ..ops.python_numbers import from_python_p, python_op_p
from ..ops.while_primitive import split_while_operands, while_p
from .arithmetic import select
from .builder import Scope, VariableSlot
from .lower import bind_names, lower_graph, lowering, output_names


def _branch_slots(names) -> list:
    """`names` with each `VariableSlot` replaced by a copy of its own, for one branch or
    loop body to write (the enclosing graph's value stays what it was)."""
    return [VariableSlot(n.variable, n.name) if isinstance(n, VariableSlot) else n
            for n in names]


def _slot_info(slot, name) -> tuple:
    return name, slot.variable.dtype, list(slot.variable.shape)


def outer_names(cx, atoms):
    """The names (or variable slots) that atoms of this equation have in the scope."""
    names = []
    for atom in atoms:
        found = cx.scope.env.get(getattr(atom, "id", None))
        names.append(found if isinstance(found, VariableSlot) else cx.scope.atom(atom))
    return names


# primitives a branch may compute on both paths: elementwise, never failing in ONNX
BOTH_WAYS = {ufunc_primitive(u) for u in ELEMENTWISE_UFUNCS} | {python_op_p, from_python_p,
                                                                 astype_p, where_p}


def _selectable(cx) -> bool:
    """Whether the `if` may compute both branches and select: each branch only
    elementwise equations, every output an integer or boolean (selected exactly) of one
    known shape in both (an `If` per trip of a loop costs more than a few nodes)."""
    true, false = cx.params["true"], cx.params["false"]
    if not cx.eqn.outputs or len(true.eqns) + len(false.eqns) > 16:
        return False
    for a, b in zip(true.outputs, false.outputs):
        if a.aval.shape != b.aval.shape or None in a.aval.shape or \
                np.dtype(a.aval.dtype).kind not in "biu":
            return False
    return all(e.primitive in BOTH_WAYS and not e.params.get("dtype") for g in (true, false)
               for e in g.eqns)


def _select(cx, pred, operands, dtypes):
    """Both branches written here, their outputs selected by `Where`."""
    picked = []
    for key in ("true", "false"):
        graph = cx.params[key]
        inner = cx.scope.inline()
        bind_names(inner, graph.inputs, operands)
        lower_graph(inner, graph)
        picked.append([inner.atom(a, d) for a, d in zip(graph.outputs, dtypes)])
    return [select(cx, pred, t, f, d) for t, f, d in zip(*picked, dtypes)]


@lowering(cond_p)
def _cond(cx):
    pred = cx.arg(0, bool)
    if cx.in_avals[0].shape:
        pred = cx.node("Reshape", [pred, cx.ints([])])
    operands = outer_names(cx, cx.eqn.inputs[1:])
    dtypes = [v.aval.dtype for v in cx.eqn.outputs]
    if _selectable(cx):
        return _select(cx, pred, operands, dtypes)
    lowered = []
    for key in ("true", "false"):
        graph, names = cx.params[key], _branch_slots(operands)
        scope = Scope(cx.scope.model, cx.scope.env, cx.scope.depth + 1)
        bind_names(scope, graph.inputs, names)
        lower_graph(scope, graph)
        lowered.append((graph, scope, [n for n in names if isinstance(n, VariableSlot)]))
    outer_slots = [n for n in operands if isinstance(n, VariableSlot)]
    # a variable one branch writes is an output of both: its value after the `if`
    written = [k for k in range(len(outer_slots))
               if any(slots[k].written for _, _, slots in lowered)]
    branches = []
    for (graph, scope, slots), key in zip(lowered, ("true", "false")):
        outs = output_names(scope, graph.outputs, dtypes)
        infos = [(n, v.aval.dtype, list(v.aval.shape)) for n, v in zip(outs, cx.eqn.outputs)]
        finals = output_names(scope, [slots[k].name for k in written], [None] * len(written))
        infos += [_slot_info(slots[k], n) for k, n in zip(written, finals)]
        branches.append(scope.graph_proto(f"{graph.name}_{key}", [], infos))
    n_out = len(cx.eqn.outputs) + len(written)
    if not n_out:   # only dropped asserts inside: nothing to compute
        return []
    outs = cx.node("If", [pred], n_out=n_out, then_branch=branches[0],
                   else_branch=branches[1])
    outs = [outs] if n_out == 1 else outs
    for k, name in zip(written, outs[len(cx.eqn.outputs):]):
        outer_slots[k].name, outer_slots[k].written = name, True
    return outs[:len(cx.eqn.outputs)]


def _condition(scope, graph, carry_names, const_names):
    """The loop condition written into `scope`: a bool scalar's name."""
    inner = scope.inline()
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
    counted = _counter(cond, body, len(carry))
    trips = _trip_count(cx, counted, start, cond_names) if counted else ""
    first = "" if counted else _condition(cx.scope, cond, start, cond_names)

    scope = Scope(cx.scope.model, cx.scope.env, cx.scope.depth + 1)
    model = cx.scope.model
    trip, cond_in = model.fresh("trip"), model.fresh("cond_in")
    carried = [model.fresh(v.name or "carry") for v in body.inputs[:len(carry)]]
    # the variables the body reads are carried too (a write makes the next trip's value)
    body_names = outer_names(cx, body_consts)
    outer_slots = [n for n in body_names if isinstance(n, VariableSlot)]
    slots = [VariableSlot(s.variable, model.fresh(s.name)) for s in outer_slots]
    slot_inputs = [s.name for s in slots]
    it = iter(slots)
    body_names = [next(it) if isinstance(n, VariableSlot) else n for n in body_names]
    bind_names(scope, body.inputs, carried + body_names)
    lower_graph(scope, body)
    new_carry = [scope.atom(a, d) for a, d in zip(body.outputs, dtypes)]
    now = {id(s.variable): s for s in slots}   # the test reads them as this trip left them
    going_on = scope.node("Identity", [cond_in]) if counted else _condition(
        scope, cond, new_carry, [now.get(id(n.variable), n) if isinstance(n, VariableSlot)
                                 else n for n in cond_names])
    outs = output_names(scope, [going_on] + new_carry + [s.name for s in slots],
                        [bool] + dtypes + [None] * len(slots))
    infos_in = [(trip, np.int64, []), (cond_in, bool, [])] + [
        (n, v.aval.dtype, list(v.aval.shape)) for n, v in zip(carried, body.inputs)] + [
        _slot_info(s, n) for s, n in zip(slots, slot_inputs)]
    infos_out = [(outs[0], bool, [])] + [
        (n, v.aval.dtype, list(v.aval.shape))
        for n, v in zip(outs[1:1 + len(carry)], body.inputs)] + [
        _slot_info(s, n) for s, n in zip(slots, outs[1 + len(carry):])]
    proto = scope.graph_proto(f"{body.name}_loop", infos_in, infos_out)
    n_out = len(carry) + len(slots)
    results = cx.node("Loop", [trips, first, *start, *(s.name for s in outer_slots)],
                      n_out=n_out, body=proto)
    results = [results] if n_out == 1 else results
    for outer, inner, name in zip(outer_slots, slots, results[len(carry):]):
        if inner.written:
            outer.name, outer.written = name, True
    return results[:len(carry)]


_LESS = {ufunc_primitive(np.less)}
_ADD = {ufunc_primitive(np.add)}


def _counter(cond, body, n_carry):
    """`(k, bound atom of cond, step)` where the loop counts: its condition is only
    `carry[k] < bound` (a literal, or a constant of the condition) and its body only adds
    a positive int literal to `carry[k]`; None otherwise."""
    if len(cond.eqns) != 1 or cond.outputs != cond.eqns[0].outputs:
        return None
    test = cond.eqns[0]
    is_lt = test.primitive in _LESS or (test.primitive is python_op_p
                                        and test.params.get("op") == "lt")
    if not is_lt or not isinstance(test.inputs[0], Var):
        return None
    try:
        k = cond.inputs.index(test.inputs[0])
    except ValueError:
        return None
    bound = test.inputs[1]
    if k >= n_carry or not (isinstance(bound, Literal) or bound in cond.inputs[n_carry:]):
        return None
    if np.dtype(body.inputs[k].aval.dtype).kind != "i" or (
            np.dtype(bound.aval.dtype).kind not in "iu"):
        return None
    step_out = body.outputs[k]
    producer = next((e for e in body.eqns if step_out in e.outputs), None)
    if producer is None or not (producer.primitive in _ADD or (
            producer.primitive is python_op_p and producer.params.get("op") == "add")):
        return None
    counter, step = producer.inputs
    if counter is not body.inputs[k] or not isinstance(step, Literal) or \
            type(step.value) not in (int, np.int64) or step.value <= 0:
        return None
    return k, bound, int(step.value), cond.inputs, body.inputs[k].aval.dtype


def _trip_count(cx, counted, start, cond_names):
    """The trips a counting loop makes: `max(0, ceil((bound - start) / step))`, int64."""
    k, bound, step, cond_inputs, counter_dtype = counted
    if isinstance(bound, Literal):
        limit = cx.const(int(bound.value), np.int64)
    else:
        name = cond_names[cond_inputs.index(bound) - len(start)]
        limit = cx.cast(name, bound.aval.dtype, np.int64)
    begin = cx.cast(start[k], counter_dtype, np.int64)
    span = cx.node("Add", [cx.node("Sub", [limit, begin]), cx.const(step - 1, np.int64)])
    trips = cx.node("Div", [span, cx.const(step, np.int64)])
    return cx.node("Max", [trips, cx.const(0, np.int64)])


@lowering(call_p, errstate_p)   # a `with np.errstate(...)` block changes only warnings
def _call(cx):
    graph = cx.params["graph"]
    inner = cx.scope.inline()
    bind_names(inner, graph.inputs, outer_names(cx, cx.eqn.inputs))
    lower_graph(inner, graph)
    return [inner.atom(a, v.aval.dtype) for a, v in zip(graph.outputs, cx.eqn.outputs)]
