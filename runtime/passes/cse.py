"""Common-subexpression elimination: one equation per pure computation.

Two pure equations (`rewrite.is_pure`: no effects, no subgraphs) with the
same primitive, the same params and the same operands compute the same
values; the later one goes and its readers read the earlier one's results.
Literals match only when their types and bits do (`1`, `1.0`, `True` and
`np.float32(1)` differ, and so do `0.0` and `-0.0`, and NaNs of other signs);
params match by type and `repr`, or else only when they are the same object. Each graph has its own
table: a subgraph's inputs are its own values, so nothing is merged across
scopes (each subgraph is rewritten on its own).

Where both results escape (`rewrite.escaping`: returned, say), they stay
two: eager NumPy returns two arrays, and writing one must not change the other.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as builder:
...     x = builder.new_input(AbstractValue((3,), np.float32), "x")
...     y = np.exp(x) * np.exp(x)
>>> print(cse(builder.build([y])))
graph f(x:f32[3]) {
  t0:f32[3] = exp x
  t1:f32[3] = multiply t0 t0
  return t1
}
"""
from __future__ import annotations

import numpy as np

from ..ir import Graph, Literal
from .rewrite import Escaping, Substitution, each_subgraph, is_pure, rebuilt

_PLAIN = (bool, int, str, bytes, type(None), np.dtype, type)


def _key(value):
    """A hashable key equal only for values NumPy treats alike (floats bit for bit)."""
    if isinstance(value, (float, complex)):
        return (type(value), np.asarray(value).tobytes())
    if isinstance(value, np.generic):
        return (type(value), value.dtype.str, value.tobytes())
    if isinstance(value, _PLAIN):
        return (type(value), repr(value))
    if isinstance(value, (tuple, list)):
        return (type(value), tuple(_key(v) for v in value))
    if isinstance(value, slice):
        return (slice, _key(value.start), _key(value.stop), _key(value.step))
    if isinstance(value, dict):
        return (dict, tuple((_key(k), _key(v)) for k, v in value.items()))
    return ("object", id(value))


def _atom_key(atom):
    return ("literal", _key(atom.value)) if isinstance(atom, Literal) else ("var", atom.id)


def cse(graph: Graph) -> Graph:
    """`graph` with repeated pure equations computed once (subgraphs too)."""
    escapes = Escaping(graph)
    seen: dict = {}
    subst = Substitution()
    eqns = []
    changed = False
    for eqn in graph.eqns:
        new = each_subgraph(subst.eqn(eqn), cse)
        changed |= new is not eqn
        if not new.outputs or not is_pure(new):
            eqns.append(new)
            continue
        key = (new.primitive, tuple(map(_atom_key, new.inputs)),
               tuple(sorted((k, _key(v)) for k, v in new.params.items())))
        first = seen.get(key)
        both_escape = first is not None and any(
            a.id in escapes for a in first.outputs) and any(v.id in escapes for v in new.outputs)
        if first is None or both_escape:
            seen.setdefault(key, new)
            eqns.append(new)
            continue
        for old, kept in zip(new.outputs, first.outputs):
            subst[old.id] = kept
            if old.id in escapes:
                escapes.add(kept.id)
        changed = True
    return rebuilt(graph, eqns, subst) if changed else graph
