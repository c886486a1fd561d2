"""Algebraic simplification that is exact for every dtype NumPy has.

Each rule is a row of `RULES`, keyed by primitive: `rule(eqn, producer)`
returns the atom that `eqn`'s result equals bit for bit (the equation then
goes, its readers reading that atom; the equations it read stay for dead-code
elimination to drop), a cheaper equation computing the same
result, or None. A rule fires only where the result's type (shape, dtype and
weakness, NEP 50's) is the operand's, so `int8 * 1` stays int8 and
`x_int8 * 1.0`, which NumPy makes float64, is left alone:

| rule | exact because |
| --- | --- |
| `x * 1`, `1 * x` (ints, floats; `x * True` bool too) | bit for bit, NaN, inf and -0.0 too |
| `x / 1` (floats) | as `x * 1` |
| `x - 0` (ints, floats; not `x - (-0.0)`) | `-0.0 - 0.0` is `-0.0` |
| `x + 0`, `0 + x` (bool, ints), `x + (-0.0)` (floats) | `x + (-0.0) == x` for every float |
| `-(-x)` (ints, floats, complex) | negation is exact (ints wrap twice) |
| `x.T.T`, any transpose of a transpose | one transpose (none for the identity) |
| `x.astype(x.dtype)` | the same values |
| `x.reshape(s).reshape(t)` (C order) | `x.reshape(t)`: both read x in C order |

Not rules: `x + 0.0` (`-0.0 + 0.0` is `0.0`) and complex `x * 1`
(`(a+inf j) * 1` is `nan+inf j`).

A rule that drops an equation entirely is skipped where its result escapes
(`rewrite.escaping`): eager NumPy returns a fresh array there, never the
operand itself.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as builder:
...     x = builder.new_input(AbstractValue((3,), np.int8), "x")
...     y = np.negative(-(x * 1)) + 1
>>> print(simplify(builder.build([y])))
graph f(x:i8[3]) {
  t0:i8[3] = negative x
  t1:i8[3] = add x 1
  return t1
}
"""
from __future__ import annotations

import numpy as np

from ..ir import Eqn, Graph, Literal, Var
from ..ops.creation import astype_p
from ..ops.elementwise import ufunc_primitive
from ..ops.shape_ops import reshape_p, transpose_p
from .rewrite import Escaping, Substitution, each_subgraph, rebuilt


def _literal(atom, value, *, positive_zero=True) -> bool:
    """`atom` is a real scalar literal equal to `value` (+0, or -0 unless `positive_zero`)."""
    if not isinstance(atom, Literal):
        return False
    v = atom.value
    if isinstance(v, (complex, np.complexfloating)) or not isinstance(v, (int, float, np.generic)):
        return False
    if np.dtype(type(v)).kind not in "biuf" or v != value:
        return False
    return value != 0 or bool(np.signbit(v)) != positive_zero


def _same_type(eqn, x, kinds) -> bool:
    out = eqn.outputs[0]
    return (isinstance(x, Var) and not x.aval.weak and x.aval == out.aval
            and x.aval.dtype.kind in kinds)


def _identity(value, kinds, commutes=False, **zero_sign):
    """A rule for `x op value` (and `value op x` where the op `commutes`)."""
    def rule(eqn, producer):
        if eqn.params:
            return None
        a, b = eqn.inputs
        if _literal(b, value, **zero_sign) and _same_type(eqn, a, kinds):
            return a
        if commutes and _literal(a, value, **zero_sign) and _same_type(eqn, b, kinds):
            return b
        return None
    return rule


_add_int_zero = _identity(0, "biu", commutes=True)
_add_float_minus_zero = _identity(0, "f", commutes=True, positive_zero=False)


def _add_zero(eqn, producer):
    return _add_int_zero(eqn, producer) or _add_float_minus_zero(eqn, producer)


def _double_negative(eqn, producer):
    inner = producer(eqn.inputs[0])
    if inner is None or inner.primitive is not eqn.primitive or inner.params or eqn.params:
        return None
    x = inner.inputs[0]
    return x if _same_type(eqn, x, "iufc") else None


def _transpose_of_transpose(eqn, producer):
    inner = producer(eqn.inputs[0])
    if inner is None or inner.primitive is not transpose_p:
        return None
    x = inner.inputs[0]
    ndim = x.aval.ndim
    first = _axes(inner.params["axes"], ndim)
    axes = tuple(first[i] for i in _axes(eqn.params["axes"], ndim))
    if axes == tuple(range(ndim)):
        return x
    return Eqn(transpose_p, [x], {"axes": axes}, eqn.outputs, eqn.source)


def _axes(axes, ndim):
    return tuple(reversed(range(ndim))) if axes is None else tuple(a % ndim for a in axes)


def _same_dtype(eqn, producer):
    x = eqn.inputs[0]
    return x if _same_type(eqn, x, "biufcmMSUV") else None


def _reshape_of_reshape(eqn, producer):
    inner = producer(eqn.inputs[0])
    if (inner is None or inner.primitive is not reshape_p
            or inner.params.get("order", "C") != "C" or eqn.params.get("order", "C") != "C"):
        return None
    return Eqn(reshape_p, [inner.inputs[0]], eqn.params, eqn.outputs, eqn.source)


RULES = {
    ufunc_primitive(np.multiply): _identity(1, "biuf", commutes=True),
    ufunc_primitive(np.divide): _identity(1, "f"),
    ufunc_primitive(np.subtract): _identity(0, "iuf"),
    ufunc_primitive(np.add): _add_zero,
    ufunc_primitive(np.negative): _double_negative,
    transpose_p: _transpose_of_transpose,
    astype_p: _same_dtype,
    reshape_p: _reshape_of_reshape,
}


def simplify(graph: Graph) -> Graph:
    """`graph` with every `RULES` rewrite applied (subgraphs too)."""
    escapes = Escaping(graph)
    made: dict = {}   # filled in order: a rule looks only at equations before it

    def producer(atom):
        return made.get(atom.id) if isinstance(atom, Var) else None

    subst = Substitution()
    eqns = []
    changed = False
    for eqn in graph.eqns:
        new = each_subgraph(subst.eqn(eqn), simplify)
        rule = RULES.get(new.primitive)
        result = rule(new, producer) if rule is not None and len(new.outputs) == 1 else None
        if result is not None and new.outputs[0].id not in escapes:
            if isinstance(result, Eqn):
                new = result
            else:
                subst[new.outputs[0].id] = result
                changed = True
                continue
        changed |= new is not eqn
        for var in new.outputs:
            made[var.id] = new
        eqns.append(new)
    return rebuilt(graph, eqns, subst) if changed else graph
