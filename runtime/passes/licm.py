"""Loop-invariant code motion: work a `while_loop` body repeats for nothing, done once before it.

An equation of a loop body (or of its condition) whose operands are all literals, values the body
captures from outside (its body constants, `ops.while_primitive`), or results
of equations hoisted before it computes the same value on every trip; it moves
out, in front of the `while_loop` equation, and its results become new body
(or condition) constants. Inner loops are treated first, so an invariant climbs out of every
loop it does not depend on.

A loop may run no trip at all, and then eager NumPy never computes the body:
a hoisted equation must not raise, warn or have effects where eager code would
not. So only the equations `HOISTABLE` says cannot are moved: shape work
(transpose, reshape, squeeze, expand_dims, broadcast_to, copies), a `getitem`
of slices only, comparisons, bitwise and logical operations, integer `+ - *`
on arrays (which wrap silently; NumPy scalars warn), float negation and
absolute values, `isnan`-like tests, `where`, and the `astype`s that never
warn, each with every shape known (so no broadcast or reshape can fail)
and no Python number read from a variable (whose NEP 50 cast may overflow).
A float operation, which may overflow or divide by zero, stays in the body.
Results the body returns stay too: a carried value keeps its own array.

`HOIST_RULES` holds the rule of each loop primitive, keyed by it.

>>> import numpy as np
>>> import autograph_runtime as runtime
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as builder:
...     x = builder.new_input(AbstractValue((2, 3), np.float64), "x")
...     m = builder.new_input(AbstractValue((3, 2), np.float64), "m")
...     _, y = runtime.while_loop(lambda s: s[0] < 3,
...                               lambda s: (s[0] + 1, s[1] + m.T * 2.0), (0, x))
>>> print(licm(builder.build([y])))
graph f(x:f64[2,3], m:f64[3,2]) {
  t0:f64[2,3] = transpose[axes=(1, 0)] m
  t1:i64[]~weak, t2:f64[2,3] = while_loop 0 x m t0
    cond(t3:i64[]~weak, x_1:f64[2,3]) {
      t4:bool[]~weak = python_op[op='lt'] t3 3
      return t4
    }
    body(t5:i64[]~weak, x_2:f64[2,3], m_1:f64[3,2], t6:f64[2,3]) {
      t7:i64[]~weak = python_op[op='add'] t5 1
      t8:f64[2,3] = multiply t6 2.0
      t9:f64[2,3] = add x_2 t8
      return t7, t9
    }
  return t2
}
"""
from __future__ import annotations

import numpy as np

from ..ir import Eqn, Graph, Literal, Var
from ..ops.creation import astype_p
from ..ops.elementwise import ufunc_primitive
from ..ops.indexing import getitem_p
from ..ops.joining import where_p
from ..ops.shape_ops import (
    broadcast_to_p, copy_p, expand_dims_p, reshape_p, squeeze_p, transpose_p)
from ..ops.while_primitive import split_while_operands, while_p
from .rewrite import each_subgraph, is_pure


def _always(eqn) -> bool:
    return True


def _static_slices(eqn) -> bool:
    return len(eqn.inputs) == 1 and all(
        e is None or e is Ellipsis or isinstance(e, slice) and all(
            c is None or type(c) is int for c in (e.start, e.stop, e.step))
        for e in eqn.params["index"])


def _quiet_cast(eqn) -> bool:
    """Casts that never warn: from bool, ints to ints or 32/64-bit floats, floats widening."""
    src, dst = eqn.inputs[0].aval.dtype, eqn.params["dtype"]
    if src.kind == "b":
        return dst.kind in "biufc"
    if src.kind in "iu":
        return dst.kind in "iu" or dst.kind in "fc" and dst.itemsize >= 4
    if src.kind == "f":
        return dst.kind in "fc" and dst.itemsize >= src.itemsize * (2 if dst.kind == "c" else 1)
    return False


def _quiet_sign(eqn) -> bool:
    """Negation and absolute value: real floats never warn; integer arrays wrap silently."""
    (x,) = eqn.inputs
    kind = x.aval.dtype.kind
    return kind == "f" or kind in "iu" and x.aval.ndim > 0


def _kinds(kinds, arrays_only=False):
    def rule(eqn) -> bool:
        return all(a.aval.dtype.kind in kinds and not (arrays_only and isinstance(a, Var)
                                                       and a.aval.ndim == 0)
                   for a in eqn.inputs)
    return rule


_U = ufunc_primitive
HOISTABLE = {
    transpose_p: _always, reshape_p: _always, squeeze_p: _always, expand_dims_p: _always,
    broadcast_to_p: _always, copy_p: _always,
    getitem_p: _static_slices,
    astype_p: _quiet_cast,
    **{_U(u): _kinds("biuf") for u in (np.equal, np.not_equal, np.less, np.less_equal,
                                       np.greater, np.greater_equal)},
    **{_U(u): _kinds("biu") for u in (np.logical_and, np.logical_or, np.logical_xor,
                                      np.logical_not, np.bitwise_and, np.bitwise_or,
                                      np.bitwise_xor, np.invert)},
    **{_U(u): _kinds("iu", arrays_only=True) for u in (np.add, np.subtract, np.multiply)},
    **{_U(u): _quiet_sign for u in (np.negative, np.positive, np.absolute)},
    **{_U(u): _kinds("biuf") for u in (np.isnan, np.isinf, np.isfinite, np.signbit)},
    where_p: _always,
}


def hoistable(eqn: Eqn) -> bool:
    """`eqn` cannot raise, warn or have effects, whatever values it gets."""
    rule = HOISTABLE.get(eqn.primitive)
    return (rule is not None and is_pure(eqn)
            and all(not (isinstance(a, Var) and a.aval.weak) for a in eqn.inputs)
            and all(a.aval.fully_known for a in (*eqn.inputs, *eqn.outputs))
            and rule(eqn))


def _hoist(graph: Graph, captured: list, operands: list):
    """`(hoisted, graph', operands')`: `graph`'s invariant equations, moved out.

    `captured` are the inputs of `graph` bound to the outer atoms `operands`
    on every trip; `graph'` takes the hoisted results read by what stays as
    new inputs after its own, bound to the outer atoms `operands'`.
    """
    outer = {v.id: a for v, a in zip(captured, operands)}
    returned = {a.id for a in graph.outputs if isinstance(a, Var)}
    hoisted, kept, moved = [], [], []
    for e in graph.eqns:
        if (all(isinstance(a, Literal) or a.id in outer for a in e.inputs)
                and not any(v.id in returned for v in e.outputs) and hoistable(e)):
            outs = [Var(v.aval, v.name) for v in e.outputs]
            hoisted.append(Eqn(e.primitive, [a if isinstance(a, Literal) else outer[a.id]
                                             for a in e.inputs], e.params, outs, e.source))
            outer.update((v.id, o) for v, o in zip(e.outputs, outs))
            moved.extend(e.outputs)
        else:
            kept.append(e)
    if not hoisted:
        return [], graph, []
    read = {a.id for e in kept for a in e.inputs if isinstance(a, Var)}
    new_inputs = [v for v in moved if v.id in read]
    new_graph = Graph(graph.name, graph.inputs + new_inputs, kept, graph.outputs, graph.consts)
    return hoisted, new_graph, [outer[v.id] for v in new_inputs]


def _hoist_from_while(eqn: Eqn):
    """`(hoisted equations, the loop without them)`, from its condition and its body.

    The condition's new captures go after its constants, the body's after its
    own (`ops.while_primitive`'s operand layout).
    """
    carry, cond_consts, body_consts = split_while_operands(eqn.params, eqn.inputs)
    n = len(carry)
    cond, body = eqn.params["cond"], eqn.params["body"]
    from_cond, cond, more_cond = _hoist(cond, cond.inputs[n:], cond_consts)
    from_body, body, more_body = _hoist(body, body.inputs[n:], body_consts)
    if not from_cond and not from_body:
        return [], eqn
    params = {**eqn.params, "cond": cond, "body": body,
              "num_cond_consts": len(cond_consts) + len(more_cond)}
    operands = carry + cond_consts + more_cond + body_consts + more_body
    return from_cond + from_body, Eqn(eqn.primitive, operands, params, eqn.outputs, eqn.source)


HOIST_RULES = {while_p: _hoist_from_while}


def licm(graph: Graph) -> Graph:
    """`graph` with loop invariants hoisted out of every loop (nested ones first)."""
    eqns = []
    changed = False
    for eqn in graph.eqns:
        new = each_subgraph(eqn, licm)
        rule = HOIST_RULES.get(new.primitive)
        if rule is not None:
            hoisted, new = rule(new)
            eqns.extend(hoisted)
        changed |= new is not eqn
        eqns.append(new)
    if not changed:
        return graph
    return Graph(graph.name, graph.inputs, eqns, graph.outputs, graph.consts)
