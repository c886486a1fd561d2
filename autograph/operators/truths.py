"""`any(...)` and `all(...)` of traced values, as Python answers them.

Python's `any` stops at the first true item. Items that are Python values keep
that: a true one ends `any` at once, as eagerly. From the first traced item on,
the items are all computed (a graph cannot stop the generator where the value
decides) and their truths combined, staged: `any(v < 0 for v in x)` is one
`logical_or` of the comparisons. The answer is Python's; what differs is only
that items after the deciding one are computed too (their errors or effects,
which eager code would skip). `all` is the same with false for true.

    >>> import numpy as np
    >>> import autograph as ag
    >>> @ag.convert
    ... def has_negative(x):
    ...     return any(v < 0 for v in x)
    >>> bool(has_negative(np.array([1.0, -2.0]))), bool(has_negative(np.array([1.0, 2.0])))
    (True, False)
"""
from __future__ import annotations

import numpy as np

from autograph_runtime import Tracer
from autograph_runtime.tracer import read_if_variable

_DECIDES = {any: True, all: False}   # the item truth that ends the fold


def truth_call(f, args: tuple, kwargs: dict):
    """`any(items)`/`all(items)` staged where an item is traced; else NotImplemented, or
    Python's answer where the items were consumed looking for a traced one."""
    decides = _DECIDES.get(f)
    if decides is None or kwargs or len(args) != 1:
        return NotImplemented
    items = read_if_variable(args[0])
    if isinstance(items, Tracer):   # a 1-d array's items: their truths, as NumPy's any/all
        return (np.any if decides else np.all)(items) if items.ndim == 1 else NotImplemented
    if type(items) in (list, tuple) and not any(isinstance(read_if_variable(v), Tracer)
                                                 for v in items):
        return NotImplemented
    traced = []
    for item in items:
        item = read_if_variable(item)
        if isinstance(item, Tracer):
            traced.append(item if item.dtype == np.bool_ else item != 0)
        elif bool(item) is decides:
            return decides   # a Python item decides, as eagerly
    if not traced:
        return not decides
    fold = np.logical_or if decides else np.logical_and
    result = traced[0]
    for truth in traced[1:]:
        result = fold(result, truth)
    return result
