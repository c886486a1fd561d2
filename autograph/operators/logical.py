"""`and`, `or`, `not` and `in`: lazy like Python, staged when an operand is traced."""
from __future__ import annotations

import operator

import numpy as np

import autograph_runtime as runtime
from autograph_runtime import Tracer
from autograph_runtime.tracer import read_if_variable

from .staging import staging


def and_(left_fn, right_fn):
    """`left and right`: the right side runs only where the left is true."""
    left = left_fn()
    if not isinstance(read_if_variable(left), Tracer):
        return right_fn() if left else left
    with staging():
        return runtime.cond(left, right_fn, lambda: left)


def or_(left_fn, right_fn):
    """`left or right`: the right side runs only where the left is false."""
    left = left_fn()
    if not isinstance(read_if_variable(left), Tracer):
        return left if left else right_fn()
    with staging():
        return runtime.cond(left, lambda: left, right_fn)


def and_test(left_fn, right_fn):
    """`left and right` where only its truth is read (an `if`'s or `while`'s test, an
    operand of `not`): a bool, so a traced `b[i] and x[i] > 0` joins a bool with a bool
    where `and_` would join the int `b[i]` with the comparison's bool."""
    left = left_fn()
    if not isinstance(read_if_variable(left), Tracer):
        return right_fn() if left else left
    with staging():
        return runtime.cond(_truth(left), lambda: _truth(right_fn()), lambda: False)


def or_test(left_fn, right_fn):
    """`left or right` where only its truth is read (see `and_test`)."""
    left = left_fn()
    if not isinstance(read_if_variable(left), Tracer):
        return left if left else right_fn()
    with staging():
        return runtime.cond(_truth(left), lambda: True, lambda: _truth(right_fn()))


def _truth(value):
    """`bool(value)`, staged for a traced value (as `cond` reads a test)."""
    value = read_if_variable(value)
    return value.astype(bool) if isinstance(value, Tracer) else bool(value)


def not_(value):
    """`not value`: a traced bool for a traced value."""
    value = read_if_variable(value)
    if isinstance(value, Tracer):
        return np.logical_not(value)
    return not value


def in_(item, container):
    """`item in container`, staged where a traced number is looked up in a tuple, list or
    set (Python compares it with each: identity, else `==`), or anything in a traced
    array (NumPy's `(container == item).any()`); Python's own `in` otherwise."""
    item = read_if_variable(item)
    if isinstance(container, Tracer):
        return (container == item).any()
    if type(container) not in (tuple, list, set, frozenset) or not (
            isinstance(item, Tracer) and item.ndim == 0
            or any(isinstance(v, Tracer) and v.ndim == 0 for v in container)):
        return item in container
    if any(v is item for v in container):
        return True
    found = False
    for value in container:
        equal = item == value
        found = equal if found is False else found | equal
    return found


def not_in(item, container):
    """`item not in container` (see `in_`)."""
    found = in_(item, container)
    return np.logical_not(found) if isinstance(found, Tracer) else not found


_COMPARISONS = {"Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le,
                "Gt": operator.gt, "GtE": operator.ge, "Is": operator.is_,
                "IsNot": operator.is_not, "In": in_, "NotIn": not_in}


def compare_chain(thunks, ops):
    """`a op1 b op2 c ...`: each operand evaluated at most once, left to right, lazily."""
    left = thunks[0]()

    def rest(k, left):
        right = thunks[k + 1]()
        result = _COMPARISONS[ops[k]](left, right)
        if k + 1 == len(ops):
            return result
        return and_(lambda: result, lambda: rest(k + 1, right))
    return rest(0, left)
