"""Sums over a short axis as additions of its slices: `short_sum`, bit for bit NumPy's sum.

NumPy reduces a short axis (2 to 7 entries) slowly where it is not the outer
one: `d.sum(axis=2)` of a (10000, 8, 2) array walks 80,000 inner loops of two
elements (1.2 ms, where adding the two (10000, 8) slices takes 30 µs). A float
`sum` over one axis of fewer than 8 entries (`SHORT`) adds them in order from
0 (NumPy's pairwise summation starts pairing at 8), so `short_sum[axis=k] x`
computes `((0 + x[..., 0]) + x[..., 1]) + ...` with one ufunc per slice:
the same additions, the same bits, signed zeros and NaNs included. It rewrites
a float32 or float64 `sum` over one axis (not the only one: the slices are
arrays) of a known length below 8, without `keepdims` or `dtype`, whose result
has `MIN_SIZE` elements or more (below, the kernel's 4-5 µs of `np.errstate`
cost more than NumPy's inner loops).

Warnings and errors stay NumPy's: the additions run under `np.errstate` with
every category the caller does not ignore raising, and where one does, the
kernel runs NumPy's own `np.sum`, which warns or raises as eager code does.
On the native tier, `short_sum` is a sum (`runtime.native.array_rules`).

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as builder:
...     x = builder.new_input(AbstractValue((500, 3, 2), np.float64), "x")
...     y = (x * x).sum(axis=2)
>>> print(short_sums(builder.build([y])))
graph f(x:f64[500,3,2]) {
  t0:f64[500,3,2] = multiply x x
  t1:f64[500,3] = short_sum[axis=2] t0
  return t1
}
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import normalize_axes
from ..ir import Eqn, Graph
from ..ops.reductions import sum_p
from .rewrite import each_subgraph

SHORT = 8   # NumPy sums fewer entries than this in order, from 0
MIN_SIZE = 512   # result elements: where the slices' additions start to win


def _short_sum_rule(x, *, axis):
    return primitives.abstract_eval[sum_p](x, axis=(axis,))


def _short_sum_kernel(xp, *, axis):
    if xp is not np:   # another backend's sum (its own order of additions)
        return lambda x: xp.sum(x, axis=axis)
    lead = (slice(None),) * axis

    def short_sum(x):
        n = x.shape[axis]
        fast = {k: "ignore" if v == "ignore" else "raise" for k, v in np.geterr().items()}
        try:
            with np.errstate(**fast):
                total = np.add(x[lead + (0,)], 0.0)
                for j in range(1, n):
                    np.add(total, x[lead + (j,)], out=total)
            return total
        except FloatingPointError:   # NumPy's own warning or error, and its values
            return np.sum(x, axis=axis)
    return short_sum


def _short_sum_vjp(g, out, x, *, axis):
    """A sum's (the optimized graph is not differentiated; a rule all the same)."""
    return primitives.vjp_rules[sum_p](g, out, x, axis=(axis,))


short_sum_p = primitives.define("short_sum", _short_sum_rule, _short_sum_kernel)
primitives.vjp_rules[short_sum_p] = _short_sum_vjp


def _short(eqn: Eqn) -> int | None:
    """The axis of a `sum` that `short_sum` computes bit for bit (None where none)."""
    (x,) = eqn.inputs
    params = dict(eqn.params)
    if params.pop("keepdims", False) or params.pop("axis", None) is None or params:
        return None
    if np.dtype(x.aval.dtype) not in (np.float32, np.float64) or x.aval.ndim < 2 or \
            np.dtype(eqn.outputs[0].aval.dtype) != np.dtype(x.aval.dtype):
        return None
    axes = normalize_axes(eqn.params["axis"], x.aval.ndim)
    if len(axes) != 1:
        return None
    n = x.aval.shape[axes[0]]
    size = eqn.outputs[0].aval.shape
    if n is None or not 1 <= n < SHORT or None in size or int(np.prod(size)) < MIN_SIZE:
        return None
    return axes[0]


def short_sums(graph: Graph) -> Graph:
    """`graph` with each float `sum` over one short axis as a `short_sum`."""
    changed = False
    eqns = []
    for eqn in graph.eqns:
        new = each_subgraph(eqn, short_sums)
        if new.primitive is sum_p and (axis := _short(new)) is not None:
            new = Eqn(short_sum_p, new.inputs, {"axis": axis}, new.outputs, new.source)
        changed |= new is not eqn
        eqns.append(new)
    if not changed:
        return graph
    return Graph(graph.name, graph.inputs, eqns, graph.outputs, dict(graph.consts))
