"""Merging matrix products: `x @ A + h @ B` as one product over stacked operands.

Where `A` and `B` are constants (weights a function closes over), the sum of
the two products is `concatenate([x, h], axis=1) @ concatenate([A, B])`: one
call of the matrix product instead of two and an addition, the constants
stacked once, now, into a new constant. It fires where both products are
2-d, have the same dtype and shape as their sum (no broadcasting: `x` and
`h` have the same, known, number of rows), and are read by nothing else.

Exactness: integer and bool products are bit for bit the same (their sums
wrap or saturate the same in any order), so they always merge. A float
product sums its terms in another order (BLAS blocks them differently):
a few ulp apart, and relatively far apart where the terms cancel, so float
products merge only where `runtime.config.merge_float_matmuls` is on (off by
default: the eager oracle is matched bit for bit otherwise).

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> A, B = np.ones((2, 3), np.int64), np.eye(4, 3, dtype=np.int64)
>>> with GraphBuilder("f") as builder:
...     x = builder.new_input(AbstractValue((5, 2), np.int64), "x")
...     h = builder.new_input(AbstractValue((5, 4), np.int64), "h")
...     y = x @ A + h @ B
>>> from autograph_runtime.effects import prune_dead_code
>>> print(prune_dead_code(merge_matmuls(builder.build([y]))))
graph f(x:i64[5,2], h:i64[5,4]) {
  const t0:i64[6,3]
  t1:i64[5,6] = concatenate[axis=1] x h
  t2:i64[5,3] = matmul t1 t0
  return t2
}
"""
from __future__ import annotations

import numpy as np

from .. import config
from ..abstract import AbstractValue
from ..ir import Eqn, Graph, Var
from ..ops.elementwise import ufunc_primitive
from ..ops.joining import concatenate_p
from ..ops.linalg import matmul_p
from .rewrite import Escaping, each_subgraph, producers

_add = ufunc_primitive(np.add)


def merge_matmuls(graph: Graph) -> Graph:
    """`graph` with each sum of two products by constants merged into one product."""
    prims = [e.primitive for e in graph.eqns]
    if prims.count(matmul_p) < 2 and not any(p.higher_order for p in prims):
        return graph
    escapes = Escaping(graph)
    made = producers(graph)
    reads: dict[int, int] = {}
    for eqn in graph.eqns:
        for atom in eqn.inputs:
            if isinstance(atom, Var):
                reads[atom.id] = reads.get(atom.id, 0) + 1
    eqns, consts = [], {}
    changed = False
    for eqn in graph.eqns:
        new = each_subgraph(eqn, merge_matmuls)
        changed |= new is not eqn
        match = _match(new, graph.consts, made, reads, escapes)
        if match is None:
            eqns.append(new)
            continue
        (x, A), (h, B) = match
        stacked = np.concatenate([graph.consts[A], graph.consts[B]])
        stacked.flags.writeable = False
        weights = Var(AbstractValue(stacked.shape, stacked.dtype))
        consts[weights] = stacked
        rows = x.aval.shape[0]
        joined = Var(AbstractValue((rows, x.aval.shape[1] + h.aval.shape[1]), x.aval.dtype))
        eqns.append(Eqn(concatenate_p, [x, h], {"axis": 1}, [joined], new.source))
        eqns.append(Eqn(matmul_p, [joined, weights], {}, new.outputs, new.source))
        changed = True
    if not changed:
        return graph
    return Graph(graph.name, graph.inputs, eqns, graph.outputs, {**graph.consts, **consts})


def _match(eqn, consts, made, reads, escapes):
    """`((x, A), (h, B))` where `eqn` is `x @ A + h @ B` that may merge, else None."""
    if eqn.primitive is not _add or eqn.params or not all(isinstance(a, Var) for a in eqn.inputs):
        return None
    out = eqn.outputs[0].aval
    products = []
    for p in eqn.inputs:
        e = made.get(p.id)
        if (e is None or e.primitive is not matmul_p or e.params or reads.get(p.id) != 1
                or p.id in escapes or p.aval != out):
            return None
        x, w = e.inputs
        if not (isinstance(w, Var) and w in consts and isinstance(x, Var)):
            return None
        products.append((x, w))
    (x, A), (h, B) = products
    kinds = "biufc" if config.merge_float_matmuls else "biu"
    return products if (
        out.dtype.kind in kinds and not out.weak
        and all(v.aval.ndim == 2 and v.aval.fully_known and v.aval.dtype == out.dtype
                for v in (x, A, h, B))
        and x.aval.shape[0] == h.aval.shape[0] == out.shape[0]
        and A.aval.shape[1] == B.aval.shape[1] == out.shape[1]) else None
