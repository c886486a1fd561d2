"""Calls NumPy never dispatches to a traced value, staged while a graph is traced.

`np.random.rand(3)` has no operand to dispatch on, and `np.zeros(k)` of a traced
`k` asks for `int(k)` before any handler could see it: both would be answered
while tracing (frozen into the graph, or refused). A front end calls
`staged_call(f, args, kwargs)` before calling `f` (autograph's `converted_call`
does): each entry of `HANDLERS` (`handler(f, args, kwargs)`) returns the staged
result, or `NotImplemented` to call `f` as it is. Outside a trace, nothing is staged.
"""
from __future__ import annotations

import numpy as np

from .. import dispatch
from ..tracer import current_builder
from . import random, sizes

HANDLERS = [random.staged, sizes.staged]

dispatch.staged_elsewhere.update(  # for the support table, docs/numpy.md
    {**{f: "runtime.ops.random" for f in (getattr(np.random, name, None)
                                          for name in sorted(random.METHODS)) if callable(f)},
     np.random.seed: "runtime.ops.random",
     **dict.fromkeys(sizes.STAGED, "runtime.ops.sizes")})


def staged_call(f, args, kwargs):
    """`f(*args, **kwargs)` staged into the graph being traced, or NotImplemented."""
    if current_builder() is None:
        return NotImplemented
    for handler in HANDLERS:
        result = handler(f, args, kwargs)
        if result is not NotImplemented:
            return result
    return NotImplemented


def call(f, *args, **kwargs):
    """`f(*args, **kwargs)` as converted code calls it: staged where a handler stages it,
    else called as it is (for code traced without conversion, `autograph=False`)."""
    result = staged_call(f, args, kwargs)
    return f(*args, **kwargs) if result is NotImplemented else result
