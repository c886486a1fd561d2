"""`max`, `min`, `sorted` and `list.sort` of traced numbers, as Python orders them.

Python's `max` keeps the first argument and replaces it by each later one
that compares greater: `cur = x if x > cur else cur`, one staged conditional
expression per argument (`conditionals.if_exp`). So the answer is Python's,
NaN included (`max(nan, 1.0)` is nan, `max(1.0, nan)` is 1.0) and ties keep
the first (`max(0.0, -0.0)` is 0.0), and mixing a traced int with a float
is the same `PathTypeError` as `x if c else 1.0`. The clamp real code writes,
`min(max(i, 0), n - 1)` for a traced `i`, is staged; so are `max(xs)` and
`min(xs)` of a list, tuple or generator of numbers, and of a 1-d array (its items, as
Python iterates them: the first of equal extremes, NaN only as the first item), and
`min(range(n), key=lambda i: d[i])` (a range, list, tuple or generator whose keys are
traced numbers: the first item of the extreme key). `default=` of an empty sequence and
n-d arrays (whose truth Python refuses) are left to Python.

`sorted(xs)` and `xs.sort()` of a list of traced numbers of one type (or `sorted` of
a 1-d traced array of known length, whose items Python orders) stage
`python_sorted`, whose kernel is Python's `sorted` (`runtime.ops.python_calls`):
stable, and NaN where Python's comparisons leave it; `sorted(range(n),
key=lambda i: x[i])`, the argsort idiom, stages `python_argsort` of the keys, and so
does `sorted(rows, key=f)` of arrays of one shape (or Python numbers of one type), whose
items come out picked from their stack by traced positions.

    >>> import numpy as np
    >>> import autograph as ag
    >>> @ag.convert
    ... def clamp(i, n):
    ...     return min(max(i, 0), n - 1)
    >>> [int(clamp(np.int64(k), 4)) for k in (-2, 2, 9)]
    [0, 2, 3]
    >>> @ag.convert
    ... def middle(x):
    ...     values = [float(v) for v in x]
    ...     values.sort()
    ...     return values[len(values) // 2]
    >>> float(middle(np.array([5.0, -1.0, 2.0])))
    2.0
"""
from __future__ import annotations

import operator
import types

import numpy as np

from autograph_runtime import Tracer, current_builder
from autograph_runtime.ops.effects import assert_
from autograph_runtime.ops.introspection import dynamic_shape
from autograph_runtime.ops.python_calls import python_argsort, python_sorted

from .conditionals import if_exp
from .lists import empty_sequence_message

_PICKS = {max: operator.gt, min: operator.lt}


def ordering_call(f, args: tuple, kwargs: dict):
    """`max(...)`, `min(...)`, `sorted(xs)` and `xs.sort()` staged where a value is a traced
    number; else NotImplemented (Python's own call)."""
    if f is sorted or _is_list_sort(f):
        return _sorting(f, args, kwargs)
    better = _PICKS.get(f)
    if better is None or not args:
        return NotImplemented
    if len(args) == 1 and isinstance(args[0], types.GeneratorType):   # consumed here, once
        items = tuple(args[0])                   # (as `max(g)` consumes it): Python's answer
        picked = _picked(better, items) if not kwargs else _keyed(better, items, **kwargs)
        return f(items, **kwargs) if picked is NotImplemented else picked
    if kwargs:
        if len(args) == 1 and type(args[0]) in (range, list, tuple):
            return _keyed(better, args[0], **kwargs)
        return NotImplemented
    if len(args) == 1 and isinstance(args[0], Tracer) and args[0].ndim == 1 and \
            args[0].dtype.kind in "biuf":
        return _array_extreme(f, args[0])
    return _picked(better, tuple(args[0]) if len(args) == 1 and type(args[0]) in (list, tuple)
                   else args)


def _array_extreme(f, x):
    """`max(x)` / `min(x)` of a 1-d traced array as Python's fold over its items picks:
    the first item that equals the extreme (ties, `0.0` and `-0.0` too, keep the first),
    and NaN only where it is the first item (nothing compares greater than it, nor it
    greater than anything after it)."""
    length = dynamic_shape(x)[0]
    assert_(length > 0, ValueError(empty_sequence_message(f)))
    if x.dtype.kind != "f":
        return np.max(x) if f is max else np.min(x)
    beyond = -np.inf if f is max else np.inf
    extreme = (np.max if f is max else np.min)(np.where(np.isnan(x), beyond, x))
    first = x[np.argmax(x == extreme)]
    return np.where(np.isnan(x[0]), x[0], first)


def _picked(better, values):
    """The value Python's fold over `values` keeps (`better(v, kept)` replaces it), staged;
    NotImplemented where no value is a traced number."""
    if len(values) < 2 or not any(isinstance(v, Tracer) for v in values) or any(
            isinstance(v, Tracer) and v.ndim for v in values):
        return NotImplemented
    current = values[0]
    for value in values[1:]:
        current = if_exp(better(value, current), lambda v=value: v, lambda c=current: c)
    return current


def _keyed(better, items, key=None, **default):
    """`max(items, key=f)` / `min(...)` where the keys are traced numbers: the item whose
    key Python's fold keeps (the first of equal keys), staged; NotImplemented otherwise.
    An empty `items` is Python's (its `default`, or its ValueError)."""
    if key is None or not items or set(default) - {"default"}:
        return NotImplemented
    from .calls import converted_call   # (calls asks this module first)
    keys = [converted_call(key, (item,), {}) for item in items]
    if not any(isinstance(k, Tracer) for k in keys) or any(
            isinstance(k, Tracer) and k.ndim for k in keys):
        return NotImplemented
    kept, kept_key = items[0], keys[0]
    for item, item_key in zip(items[1:], keys[1:]):
        take = better(item_key, kept_key)
        kept = if_exp(take, lambda v=item: v, lambda c=kept: c)
        kept_key = if_exp(take, lambda v=item_key: v, lambda c=kept_key: c)
    return kept


def _is_list_sort(f) -> bool:
    return getattr(f, "__name__", None) == "sort" and type(getattr(f, "__self__", None)) is list


def _sorting(f, args, kwargs):
    values = f.__self__ if f is not sorted else args[0] if len(args) == 1 else None
    if f is sorted and isinstance(values, Tracer) and values.ndim == 1 and \
            values.shape[0] is not None:
        values = list(values)   # Python iterates a 1-d array's items, then orders them
    if f is sorted and type(values) is range and set(kwargs) <= {"key", "reverse"} and \
            kwargs.get("key") is not None:
        return _sorted_range(values, **kwargs)
    if f is sorted and type(values) in (list, tuple) and values and \
            set(kwargs) <= {"key", "reverse"} and kwargs.get("key") is not None:
        return _sorted_arrays(values, **kwargs)
    if type(values) not in (list, tuple) or set(kwargs) - {"reverse"} or \
            (f is not sorted and args) or not any(isinstance(v, Tracer) for v in values):
        return NotImplemented
    ordered = python_sorted(values, **kwargs)
    if f is sorted:
        return ordered
    values[:] = ordered   # `xs.sort()`: the list itself, in place
    return None


def _sorted_arrays(items, key, reverse=False):
    """`sorted(rows, key=f)` of arrays of one shape and dtype (or Python numbers of one
    type) whose keys are traced numbers: the items in the keys' order (Python's, stable),
    each picked from their stack by its traced position; NotImplemented for other items
    (Python's own call)."""
    numbers = len({type(x) for x in items}) == 1 and type(items[0]) in (int, float)
    if not numbers and (not all(isinstance(x, (Tracer, np.ndarray)) for x in items) or
                        len({(np.shape(x), np.dtype(x.dtype)) for x in items}) != 1):
        return NotImplemented
    from .calls import converted_call   # (calls asks this module first)
    keys = [converted_call(key, (item,), {}) for item in items]
    if not any(isinstance(k, Tracer) for k in keys) or any(
            isinstance(k, Tracer) and k.ndim for k in keys):
        return NotImplemented
    stacked = np.stack(items)
    if not isinstance(stacked, Tracer):   # Python numbers: a constant of the graph
        builder = current_builder()
        stacked = Tracer(builder, builder.const(stacked))
    return [stacked[position] for position in python_argsort(keys, reverse)]


def _sorted_range(items: range, key, reverse=False) -> list:
    """`sorted(range(...), key=f)`, the argsort idiom: the keys computed (the key function
    converted), ordered by Python's `sorted` when they are traced numbers."""
    from .calls import converted_call   # (calls asks this module first)
    keys = [converted_call(key, (item,), {}) for item in items]
    if not any(isinstance(k, Tracer) for k in keys):   # Python's order of Python keys
        return [items[i] for i in sorted(range(len(keys)), key=keys.__getitem__,
                                         reverse=reverse)]
    order = python_argsort(keys, reverse)
    plain = (items.start, items.step) == (0, 1)
    return [p if plain else items.start + p * items.step for p in order]
