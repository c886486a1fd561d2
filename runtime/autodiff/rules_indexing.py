"""The rules of `getitem` and `index_update`, and `scatter_add`, the primitive getitem needs.

`x[index]`'s cotangent is the result's cotangent added into zeros of `x`'s
shape at `index`: `scatter_add(g, x, *dynamic index parts, index=...)`, which
assigns for basic indices and adds with `np.add.at` where integer arrays may
repeat an element. Its own cotangent is `getitem` again, so second
derivatives through indexing work.

`index_update(x, v, index)` (`x[index] = v` as a new array) sends its cotangent
g to x with zeros where v was written, and `g[index]` to v, summed back to v's
shape by the transformation. Where an integer array repeats an element the
last write wins, so only the last occurrence of each element gets its share.

`index_accumulate` (`np.add.at(a, index, b)` as a new array) sends g to a, and
`g[index]` to b (negated for `np.subtract.at`): each occurrence of a repeated
element added its own share. Other ufuncs' `at` has no rule: a clear error.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import AbstractValue
from ..errors import TracingError
from ..ops.index_accumulate import index_accumulate_p
from ..ops.indexing import Dyn, _fill, getitem_p
from ..ops.updates import index_update_p
from ..tracer import bind
from .cotangents import reshape_like


def _scatter_add_rule(g, x, *dyn, index):
    return AbstractValue(x.aval.shape, g.aval.dtype)


def _scatter_add_kernel(xp, index):
    has_arrays = any(isinstance(e, Dyn) for e in index)

    def run(g, x, *values):
        out = xp.zeros(x.shape, g.dtype)
        where = _fill(index, values)
        if has_arrays and any(getattr(v, "ndim", 0) for v in values):
            xp.add.at(out, where, g)
        else:
            out[where] = g
        return out
    return run


scatter_add_p = primitives.define("scatter_add", _scatter_add_rule, _scatter_add_kernel)


def _getitem(g, out, x, *dyn, index):
    return (bind(scatter_add_p, g, x, *dyn, index=index),) + (None,) * len(dyn)


def _scatter_add(g, out, ct, x, *dyn, index):
    return (bind(getitem_p, g, *dyn, index=index), None) + (None,) * len(dyn)


primitives.vjp_rules[getitem_p] = _getitem
primitives.vjp_rules[scatter_add_p] = _scatter_add


def _index_update(g, out, x, v, *dyn, index):
    grad_x = bind(index_update_p, g, np.zeros((), g.dtype), *dyn, index=index)
    grad_v = bind(getitem_p, g, *dyn, index=index)
    if any(isinstance(e, Dyn) and dyn[e.k].ndim for e in index):  # may repeat: last one wins
        order = reshape_like(np.cumsum(np.ravel(np.ones_like(grad_v, dtype=np.int64))), grad_v)
        written = bind(index_update_p, np.zeros_like(g, dtype=np.int64), order, *dyn,
                       index=index)
        grad_v = np.where(bind(getitem_p, written, *dyn, index=index) == order, grad_v, 0)
    extra = np.ndim(v) - grad_v.ndim  # NumPy dropped v's leading 1s
    if extra > 0:
        grad_v = grad_v[(None,) * extra]
    return (grad_x, grad_v) + (None,) * len(dyn)


primitives.vjp_rules[index_update_p] = _index_update


def _index_accumulate(g, out, a, *operands, ufunc, index):
    if ufunc not in ("add", "subtract"):
        raise TracingError(f"no gradient for np.{ufunc}.at: only np.add.at and "
                           f"np.subtract.at have one; write the update with np.{ufunc} "
                           f"and an index assignment to differentiate it")
    dyn = operands[1:]   # after b
    grad_b = bind(getitem_p, g, *dyn, index=index)
    return (g, -grad_b if ufunc == "subtract" else grad_b) + (None,) * len(dyn)


primitives.vjp_rules[index_accumulate_p] = _index_accumulate
