"""Speculated predicates: on a lazy backend, a staged `and`/`or` is one expression.

`a.max() > tol and b.sum() > eps` with traced operands stages a `cond` (the
right side runs only where the left is true, as in Python). On a lazy backend
(Dask) each staged test is a round trip to the cluster, so the `cond` costs
two: one for the left side's boolean, another for the right's. Where the
branch that computes something can neither raise nor have effects, and every
output is a 0-d scalar, this pass computes that branch unconditionally and
selects with `where`: the whole test is then one expression, computed in one
round trip (`DaskBackend.truth`). The other branch must compute nothing (it
passes a value through: the shape `and`, `or` and `x if c else y` give), so
speculating costs no more than the trip where the test goes that way.

An equation may be speculated where it can neither raise nor warn, whatever
values it gets, so that computing it on a path eager NumPy never takes is
invisible: what loop-invariant code motion may hoist (`licm.hoistable`:
comparisons, logical and integer operations, basic slices, shape work, quiet
casts, `where`), reductions that never warn (`any`, `all`; `max`, `min` and
the `arg`s over a known, non-empty array; integer `sum` and `prod`, which
wrap), and Python-number operations with no zero divisor to raise
(`SPECULATABLE`, keyed by primitive). A float `sum` may overflow, and
warn, so a test that reads one keeps its short circuit. `errstate` blocks are
left alone.

>>> import numpy as np
>>> import autograph_runtime as runtime
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as builder:
...     a = builder.new_input(AbstractValue((3,), np.float64), "a")
...     b = builder.new_input(AbstractValue((3,), np.float64), "b")
...     left = a.sum() > 0
...     both = runtime.cond(left, lambda: b.max() < 100, lambda: left)
>>> print(speculate_predicates(builder.build([both])))
graph f(a:f64[3], b:f64[3]) {
  t0:f64[] = sum[axis=None, keepdims=False] a
  t1:bool[] = greater t0 0
  t2:f64[] = max[axis=None, keepdims=False] b
  t3:bool[] = less t2 100
  t4:bool[] = where t1 t3 t1
  return t4
}
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..ir import Eqn, Graph, Var
from ..ops.control_flow import cond_p
from ..ops.errstate import errstate_p
from ..ops.joining import where_p
from ..ops.python_numbers import python_op_p
from ..ops.reductions import (
    all_p, any_p, argmax_p, argmin_p, max_p, min_p, prod_p, sum_p)
from .licm import hoistable
from .rewrite import Substitution, each_subgraph, is_pure

MAX_BRANCH_EQNS = 32   # a test's branch; longer ones are work, not a test


def _not_empty(eqn) -> bool:
    """`max`/`min`/`argmax`/`argmin` raise on an empty array (or mask) unless given `initial`."""
    shape = eqn.inputs[0].aval.shape
    return "initial" in eqn.params or "where" not in eqn.params and len(eqn.inputs) == 1 \
        and None not in shape and int(np.prod(shape)) > 0


def _wraps(eqn) -> bool:
    """Integer and boolean `sum` and `prod` of arrays wrap silently; floats may overflow."""
    x = eqn.inputs[0]
    return x.aval.dtype.kind in "biu" and x.aval.ndim > 0 and "dtype" not in eqn.params


def _always(eqn) -> bool:
    return True


_QUIET_PYTHON_OPS = {"add", "sub", "mul", "lt", "le", "gt", "ge", "eq", "ne", "neg", "pos",
                     "abs", "and", "or", "xor", "invert", "bool"}


def _quiet_python_op(eqn) -> bool:
    """Python ints and bools (no `//`, `%`, `/`: zero divisors; no `**` or shifts);
    Python floats only compared (`1e308 * 10` is inf)."""
    op = eqn.params["op"]
    floats = any(a.aval.dtype.kind not in "biu" for a in eqn.inputs)
    return op in _QUIET_PYTHON_OPS and not (floats and op not in _COMPARED)


_COMPARED = {"lt", "le", "gt", "ge", "eq", "ne", "bool"}

SPECULATABLE = {
    python_op_p: _quiet_python_op,
    any_p: _always, all_p: _always,
    **{p: _not_empty for p in (max_p, min_p, argmax_p, argmin_p)},
    sum_p: _wraps, prod_p: _wraps,
}


def _cannot_raise(eqn: Eqn) -> bool:
    """`eqn` can neither raise nor warn (nor have effects), whatever values it gets."""
    rule = SPECULATABLE.get(eqn.primitive)
    if rule is None:
        return hoistable(eqn)
    return is_pure(eqn) and rule(eqn)


def _speculated(eqn: Eqn):
    """`(equations, consts)` computing `eqn`'s (a `cond`'s) outputs by `where`, or None."""
    pred, operands = eqn.inputs[0], eqn.inputs[1:]
    true, false = eqn.params["true"], eqn.params["false"]
    if pred.aval.dtype != np.bool_ or pred.aval.shape != () or \
            any(v.aval.shape != () for v in eqn.outputs) or \
            min(len(true.eqns), len(false.eqns)) > 0 or \
            len(true.eqns) + len(false.eqns) > MAX_BRANCH_EQNS or \
            not all(_cannot_raise(e) for g in (true, false) for e in g.eqns):
        return None
    eqns, consts, results = [], {}, []
    for branch in (true, false):
        subst = Substitution((v.id, a) for v, a in zip(branch.inputs, operands))
        for e in branch.eqns:   # fresh names: a branch graph may be shared
            outs = [Var(v.aval, v.name) for v in e.outputs]
            eqns.append(Eqn(e.primitive, [subst(a) for a in e.inputs], e.params, outs, e.source))
            subst.update((v.id, o) for v, o in zip(e.outputs, outs))
        consts.update(branch.consts)
        results.append([subst(a) for a in branch.outputs])
    selects = []
    for out, picked_true, picked_false in zip(eqn.outputs, *results):
        if primitives.abstract_eval[where_p](pred, picked_true, picked_false) != out.aval:
            return None   # a weak Python number against a NumPy scalar: keep the `if`
        selects.append(Eqn(where_p, [pred, picked_true, picked_false], {}, [out], eqn.source))
    return eqns + selects, consts


def speculate_predicates(graph: Graph) -> Graph:
    """`graph` with each staged `and`/`or` of 0-d values that cannot raise or warn as one
    `where` (inner ones first, so `a and b and c` becomes one expression)."""
    eqns, consts = [], {}
    changed = False
    for eqn in graph.eqns:
        new = eqn if eqn.primitive is errstate_p else each_subgraph(eqn, speculate_predicates)
        speculated = _speculated(new) if new.primitive is cond_p else None
        if speculated is not None:
            more, branch_consts = speculated
            eqns.extend(more)
            consts.update(branch_consts)
            changed = True
            continue
        changed |= new is not eqn
        eqns.append(new)
    if not changed:
        return graph
    return Graph(graph.name, graph.inputs, eqns, graph.outputs, {**graph.consts, **consts})

