"""The rule of `getitem`, and `scatter_add`, the primitive it needs.

`x[index]`'s cotangent is the result's cotangent added into zeros of `x`'s
shape at `index`: `scatter_add(g, x, *dynamic index parts, index=...)`, which
assigns for basic indices and adds with `np.add.at` where integer arrays may
repeat an element. Its own cotangent is `getitem` again, so second
derivatives through indexing work.
"""
from __future__ import annotations

from .. import primitives
from ..abstract import AbstractValue
from ..ops.indexing import Dyn, _fill, getitem_p
from ..tracer import bind


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
