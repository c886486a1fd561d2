"""Sizes known only when the graph runs, as eager code reads them: `x.shape`, `len(x)`, `x.size`.

    u = np.unique(x)            # f64[?]: its length is known when the graph runs
    for i in range(len(u)):     # len(u): a traced Python int, so the loop is staged
        ...
    if u.shape[0] > 1:          # a traced comparison: a staged `if`

A traced value's own `shape` has None for a dimension unknown while tracing
(its type: runtime.abstract). Converted code reads `x.shape` as `shape_of(x)`,
`x.size` as `size_of(x)`, and calls `len(x)` as `len_of(x)`: an unknown dimension is a traced
Python int (`int(dim)`, weak, as eager code's int is), known ones stay ints.
Two such shapes compare as eager tuples do, element by element, to a traced
bool: `assert x.shape == y.shape` stages the check.
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from autograph_runtime import Tracer
from autograph_runtime.ops.introspection import dynamic_shape
from autograph_runtime.ops.python_calls import python_call


class RunTimeShape(tuple):
    """A shape with traced dimensions; `==` and `!=` compare element by element."""

    __slots__ = ()

    def __eq__(self, other):
        if not isinstance(other, tuple) or len(other) != len(self):
            return False
        same = True
        for a, b in zip(self, other):
            same = np.logical_and(same, a == b)
        return same

    def __ne__(self, other):
        return np.logical_not(self == other)

    __hash__ = None   # holds traced values, as a traced array is unhashable


def _dims(x) -> tuple:
    return tuple(python_call("int", d) if isinstance(d, Tracer) else d
                 for d in dynamic_shape(x))


def shape_of(x):
    """`x.shape` in converted code (any object): a traced array's unknown dimensions as
    traced Python ints (`RunTimeShape`)."""
    if isinstance(x, Tracer) and None in x.shape:
        return RunTimeShape(_dims(x))
    return x.shape


def size_of(x):
    """`x.size` in converted code (any object): of a traced array with an unknown dimension,
    a traced Python int."""
    if isinstance(x, Tracer) and None in x.shape:
        return functools.reduce(operator.mul, _dims(x), 1)
    return x.size


def len_of(x):
    """`len(x)` for a traced array whose first dimension is unknown: a traced Python int;
    None (not this case) otherwise."""
    if isinstance(x, Tracer) and x.ndim and x.shape[0] is None:
        return _dims(x)[0]
    return None
