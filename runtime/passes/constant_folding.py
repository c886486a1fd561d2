"""Constant folding: equations of constants computed once, when the graph is optimized.

An equation whose operands are all constants (literals, and captured arrays
in `graph.consts`: the weights a function closes over) is run once by the
primitive's own NumPy kernel, the one the graph would run, so the value is
bit for bit what the graph computes; its results become constants (a 0-d
result a literal, a Python number a weak literal, an array a read-only
entry of `graph.consts`). Folded results are constants for the equations
after them, so a chain of them folds at once.

Never folded, so each happens when the graph runs as it does eagerly:

- equations with effects or subgraphs (`rewrite.is_pure`): prints, asserts,
  random draws, variable reads and writes, `cond`/`while_loop`/`call`;
- an equation whose kernel raises or warns (under `np.errstate(all="raise")`,
  warnings as errors): `1 / 0` stays in the graph and warns at every run;
- a result larger than `MAX_BYTES` (`np.zeros(10**8)` from a literal) or of a
  size unknown before running: constants live as long as the graph does.

Only frozen arrays fold: captured arrays are read-only copies made while
tracing (`GraphBuilder.const`); an array that is writeable, or a view of one
(memory its owner may still change), stays an operand read when the graph
runs, so a folded value never goes stale.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> from autograph_runtime.tracer import bind
>>> from autograph_runtime.ops.elementwise import ufunc_primitive
>>> W = np.arange(4.0).reshape(2, 2)
>>> with GraphBuilder("f") as builder:
...     x = builder.new_input(AbstractValue((2,), np.float64), "x")
...     w2 = bind(ufunc_primitive(np.multiply), W, 2.0)
...     inf = bind(ufunc_primitive(np.divide), 1.0, np.float64(0.0))
...     y = x @ w2 + inf
>>> print(constant_folding(builder.build([y])))
graph f(x:f64[2]) {
  const t0:f64[2,2]
  t1:f64[] = divide 1.0 np.float64(0.0)
  t2:f64[2] = matmul x t0
  t3:f64[2] = add t2 t1
  return t3
}
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import primitives
from ..abstract import AbstractValue, is_python_number, python_aval
from ..ir import Graph, Literal, Var
from .rewrite import Substitution, each_subgraph, is_pure, rebuilt

MAX_BYTES = 1 << 20


def constant_folding(graph: Graph) -> Graph:
    """`graph` with its constant equations computed (subgraphs too)."""
    known_ids = {v.id: value for v, value in graph.consts.items() if _frozen(value)}
    subst = Substitution()
    eqns, consts = [], {}
    changed = False
    for eqn in graph.eqns:
        new = each_subgraph(subst.eqn(eqn), constant_folding)
        changed |= new is not eqn
        results = _fold(new, known_ids)
        if results is None:
            eqns.append(new)
            continue
        for var, result in zip(new.outputs, results):
            if isinstance(result, Literal):
                subst[var.id] = result
            else:
                consts[var] = known_ids[var.id] = result
        changed = True
    if not changed:
        return graph
    result = rebuilt(graph, eqns, subst, consts)
    atoms = [a for e in eqns for a in e.inputs] + result.outputs
    read = {a.id for a in atoms if isinstance(a, Var)}
    result.consts = {v: c for v, c in result.consts.items() if v.id in read}
    return result


def _fold(eqn, known_ids):
    """`eqn`'s results as constants, or None where it must stay."""
    if not all(type(a) is Literal or a.id in known_ids for a in eqn.inputs) or not is_pure(eqn):
        return None
    if not all(_small(v.aval) for v in eqn.outputs):
        return None
    values = [a.value if isinstance(a, Literal) else known_ids[a.id] for a in eqn.inputs]
    try:
        with np.errstate(all="raise"), warnings.catch_warnings():
            warnings.simplefilter("error")
            kernel = primitives.kernels[eqn.primitive](np, **eqn.params)
            results = kernel(*values)
    except Exception:  # noqa: BLE001 - it raises or warns when the graph runs, as eagerly
        return None
    results = list(results) if eqn.primitive.multiple_results else [results]
    if len(results) != len(eqn.outputs):
        return None
    folded = [_constant(var, r) for var, r in zip(eqn.outputs, results)]
    return None if any(f is None for f in folded) else folded


def _frozen(array) -> bool:
    """No one can change `array`'s values: it and every array it views are read-only."""
    while isinstance(array, np.ndarray):
        if array.flags.writeable:
            return False
        array = array.base
    return array is None or isinstance(array, (bytes, np.generic))


def _small(aval: AbstractValue) -> bool:
    return aval.fully_known and int(np.prod(aval.shape)) * aval.dtype.itemsize <= MAX_BYTES


def _constant(var: Var, result):
    """A literal or read-only array for `var`'s value `result`, None where its type differs."""
    if var.aval.weak:
        ok = is_python_number(result) and python_aval(result) == var.aval
        return Literal(result) if ok else None
    if is_python_number(result) or not isinstance(result, (np.ndarray, np.generic)):
        return None
    if not var.aval.accepts(AbstractValue(np.shape(result), result.dtype)):
        return None
    if var.aval.ndim == 0:
        return Literal(result[()])
    array = np.array(result)  # its own copy (a kernel may return a view of a constant)
    array.flags.writeable = False
    return array
