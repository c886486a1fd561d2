"""`cond` and `while_loop` as Numba `if` and `while` statements.

A subgraph's inputs become aliases of the enclosing function's values (as in
`runtime.codegen_control`), and every carried scalar is assigned through its
dtype's constructor, so a value keeps one machine type on every path (Numba would
otherwise unify a float32 branch with a float64 one into float64).
"""
from __future__ import annotations

from .. import primitives
from ..ops.control_flow import cond_p
from ..ops.while_primitive import split_while_operands, while_p
from .array_rules import ArrayLowering
from .scalars import Unsupported


def _inline(gen, graph, input_refs, indent) -> list[str]:
    for var, ref in zip(graph.inputs, input_refs):
        gen.alias[var.id] = ref
    gen.block(graph, indent)
    return [gen.ref(a) for a in graph.outputs]


def _assign_all(gen, indent, outs, values):
    for var, value in zip(outs, values):
        name = gen.namer(var)
        if name != value:
            gen.assign_scalar(indent, name, value, var.aval)


def _cond(gen, eqn, indent, fused):
    pred, *operands = [gen.ref(a) for a in eqn.inputs]
    outs = eqn.outputs
    for var in outs:
        _check_layout_free(var)
    inner = indent + "    "
    gen.emit(indent, f"if {pred}:")
    for branch in ("true", "false"):
        if branch == "false":
            gen.emit(indent, "else:")
        start = len(gen.lines)
        values = _inline(gen, eqn.params[branch], operands, inner)
        _assign_all(gen, inner, outs, values)
        if len(gen.lines) == start:
            gen.emit(inner, "pass")


def _while(gen, eqn, indent, fused):
    cond, body = eqn.params["cond"], eqn.params["body"]
    refs = [gen.ref(a) for a in eqn.inputs]
    start, cond_captures, body_captures = split_while_operands(eqn.params, refs)
    outs = eqn.outputs
    names = [gen.namer(v) for v in outs]
    _assign_all(gen, indent, outs, start)
    inner = indent + "    "
    gen.emit(indent, "while True:")
    (pred,) = _inline(gen, cond, names + cond_captures, inner)
    gen.emit(inner, f"if not {pred}:")
    gen.emit(inner + "    ", "break")
    values = _inline(gen, body, names + body_captures, inner)
    temps = []
    for var, value in zip(outs, values):   # all computed before any is rebound
        temp = gen.fresh("n")
        gen.assign_scalar(inner, temp, value, var.aval)
        temps.append(temp)
    for name, temp in zip(names, temps):
        gen.emit(inner, f"{name} = {temp}")


def _check_layout_free(var):
    if var.aval.dtype is None:
        raise Unsupported("a value without a dtype")


primitives.native_lowerings[cond_p] = ArrayLowering(_cond)
primitives.native_lowerings[while_p] = ArrayLowering(_while)
