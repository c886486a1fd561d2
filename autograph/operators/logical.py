"""`and`, `or`, `not`: lazy like Python, staged when an operand is traced."""
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


def not_(value):
    """`not value`: a traced bool for a traced value."""
    value = read_if_variable(value)
    if isinstance(value, Tracer):
        return np.logical_not(value)
    return not value


_COMPARISONS = {"Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le,
                "Gt": operator.gt, "GtE": operator.ge, "Is": operator.is_,
                "IsNot": operator.is_not, "In": lambda a, b: a in b,
                "NotIn": lambda a, b: a not in b}


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
