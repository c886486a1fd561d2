"""Calls: user helpers, nested functions, closures, lambdas and methods (converted
recursively, their control flow staged too) and NumPy (called as is)."""
import functools

import numpy as np

from . import f64, i64, mat, vec


def _clip_scalar(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


def _count_positive(x_vec):
    count = 0
    for v in x_vec:
        if v > 0:
            count += 1
    return count


def _halvings(v):
    steps = 0
    while v > 1:
        v = v / 2
        steps += 1
    return steps


def _min_max(x_vec):
    lo = x_vec[0]
    hi = x_vec[0]
    for v in x_vec:
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return lo, hi


def _power_unrolled(x, k):
    if k == 0:
        return x * 0 + 1
    return x * _power_unrolled(x, k - 1)


def helper_with_branches(x_scalar):
    return _clip_scalar(x_scalar, -1.0, 1.0) * 10


def helper_with_loop(x_vec, y_vec):
    return _count_positive(x_vec) - _count_positive(y_vec)


def helper_called_in_loop(x_vec):
    total = 0
    for v in x_vec:
        total += _halvings(v)
    return total


def helper_called_in_branch(x_vec):
    if x_vec.sum() > 0:
        lo, hi = _min_max(x_vec)
    else:
        lo, hi = _min_max(-x_vec)
    return hi - lo


def helper_returning_tuple(x_vec):
    lo, hi = _min_max(x_vec)
    if hi - lo > 5:
        return lo
    return hi


def python_recursion_unrolled(x_scalar, k_py):
    y = _power_unrolled(x_scalar, k_py)
    if y > 100:
        y = y / 100
    return y


def nested_function(x_scalar):
    def magnitude(v):
        if v < 0:
            return -v
        return v
    return magnitude(x_scalar) + magnitude(x_scalar - 5)


def nested_function_closure(x_vec, n_int):
    def step(acc, i):
        if x_vec[i] > 0:
            return acc + x_vec[i]
        return acc
    acc = 0.0
    for i in range(n_int):
        acc = step(acc, i)
    return acc


def nested_function_with_loop(x_scalar, n_int):
    def repeat(v, times):
        for _ in range(times):
            v = v * 2 if v < 10 else v - 3
        return v
    return repeat(x_scalar, n_int)


def lambda_with_ternary(x_scalar):
    relu = lambda v: v if v > 0 else v * 0
    return relu(x_scalar) + relu(-x_scalar) * 2


def lambda_passed_to_helper(x_vec):
    return _apply_where(lambda v: v > 1, x_vec)


def _apply_where(predicate, x_vec):
    total = 0.0
    for v in x_vec:
        if predicate(v):
            total += v
    return total


def lambda_in_loop(x_vec, n_int):
    scale = lambda v, k: v * k if k % 2 == 0 else -v
    out = x_vec
    for k in range(n_int):
        out = scale(out, k)
    return out


class Thresholder:
    def __init__(self, threshold):
        self.threshold = threshold

    def apply(self, x_vec):
        kept = 0.0
        for v in x_vec:
            if v > self.threshold:
                kept += v
        return kept

    def __call__(self, x_scalar):
        if x_scalar > self.threshold:
            return x_scalar
        return self.threshold

    @staticmethod
    def sign(x_scalar):
        if x_scalar > 0:
            return 1.0
        elif x_scalar < 0:
            return -1.0
        return 0.0

    @classmethod
    def make_default(cls):
        return cls(1.5)


_THRESHOLDER = Thresholder(2.0)


def method_call(x_vec):
    return _THRESHOLDER.apply(x_vec)


def callable_object(x_scalar):
    return _THRESHOLDER(x_scalar) * 2


def staticmethod_call(x_scalar):
    return Thresholder.sign(x_scalar) * x_scalar


def classmethod_then_method(x_vec):
    return Thresholder.make_default().apply(x_vec)


def numpy_calls_in_branches(x_vec):
    if np.max(x_vec) > 2:
        y = np.clip(x_vec, 0, 2)
    else:
        y = np.where(x_vec > 0, x_vec, 0.0)
    return np.sum(y), np.cumsum(y)


def numpy_calls_in_loop(x_mat, n_int):
    v = np.ones(x_mat.shape[1])
    for _ in range(n_int):
        v = x_mat @ v
        v = v / np.sqrt(np.sum(v * v))
    return v


def keyword_arguments_to_helper(x_scalar):
    return _clip_scalar(hi=2.0, v=x_scalar, lo=-2.0)


def helper_with_default_argument(x_scalar):
    return _scaled_unless_small(x_scalar) + _scaled_unless_small(x_scalar, factor=10.0)


def _scaled_unless_small(v, factor=2.0):
    if abs(v) < 1:
        return v
    return v * factor


def star_args_helper(x_scalar, y_scalar):
    return _largest(x_scalar, y_scalar, x_scalar + y_scalar)


def _largest(*values):
    best = values[0]
    for v in values[1:]:
        if v > best:
            best = v
    return best


def partial_of_helper(x_scalar):
    clip_unit = functools.partial(_clip_scalar, lo=0.0, hi=1.0)
    return clip_unit(x_scalar) + clip_unit(x_scalar / 10)


def helper_calling_helper(x_vec):
    return _spread(x_vec) if _count_positive(x_vec) > 1 else x_vec.sum()


def _spread(x_vec):
    lo, hi = _min_max(x_vec)
    return hi - lo


def higher_order_helper(x_vec):
    return _fold(lambda acc, v: acc + v if v > 0 else acc * 2, x_vec, 1.0)


def _fold(fn, x_vec, initial):
    acc = initial
    for v in x_vec:
        acc = fn(acc, v)
    return acc


def method_on_matrix_rows(x_mat):
    total = 0.0
    for row in x_mat:
        total += _THRESHOLDER.apply(row)
    return total


def list_comprehension_of_traced(x_vec, k_int):
    parts = [x_vec[i] * 2 for i in range(3)]
    if k_int > 0:
        return parts[0] + parts[1]
    return parts[2]


def function_defined_in_loop(x_vec, n_int):
    total = 0.0
    for i in range(n_int):
        def weigh(v):
            return v * i if v > 0 else v
        total += weigh(x_vec[i])
    return total


SCALE = 3.0


def global_read_in_loop(x_vec, n_int):
    total = 0.0
    for i in range(n_int):
        total += x_vec[i] * SCALE
    return total


def nonlocal_counter_outside_staging(x_scalar):
    count = 0

    def bump():
        nonlocal count
        count += 1
    bump()
    bump()
    if x_scalar > 0:
        return x_scalar * count
    return x_scalar


XFAIL: dict = {}

CASES = [
    (list_comprehension_of_traced, [(vec(1.0, 2.0, 3.0), i64(1)), (vec(1.0, 2.0, 3.0), i64(0))]),
    (function_defined_in_loop, [(vec(1.0, -2.0, 3.0), i64(3)), (vec(1.0, -2.0, 3.0), i64(1))]),
    (global_read_in_loop, [(vec(1.0, 2.0, 3.0), i64(3)), (vec(1.0, -2.0, 3.0), i64(0))]),
    (nonlocal_counter_outside_staging, [(f64(1.0),), (f64(-1.0),)]),
    (helper_with_branches, [(f64(-5.0),), (f64(0.5),), (f64(5.0),)]),
    (helper_with_loop, [(vec(1.0, -1.0, 2.0), vec(-1.0, -1.0, 2.0)),
                        (vec(-1.0, -1.0, -2.0), vec(1.0, 1.0, 2.0))]),
    (helper_called_in_loop, [(vec(1.0, 8.0, 3.0),), (vec(0.5, 0.5, 0.5),)]),
    (helper_called_in_branch, [(vec(1.0, 5.0, 3.0),), (vec(-1.0, -5.0, 3.0),)]),
    (helper_returning_tuple, [(vec(1.0, 9.0, 3.0),), (vec(1.0, 2.0, 3.0),)]),
    (python_recursion_unrolled, [(f64(2.0), 3), (f64(10.0), 3)]),
    (nested_function, [(f64(2.0),), (f64(-2.0),), (f64(7.0),)]),
    (nested_function_closure, [(vec(1.0, -2.0, 3.0), i64(3)), (vec(1.0, -2.0, 3.0), i64(0))]),
    (nested_function_with_loop, [(f64(1.0), i64(5)), (f64(1.0), i64(0)), (f64(50.0), i64(2))]),
    (lambda_with_ternary, [(f64(2.0),), (f64(-2.0),)]),
    (lambda_passed_to_helper, [(vec(1.0, 2.0, 3.0),), (vec(0.0, 0.5, 1.0),)]),
    (lambda_in_loop, [(vec(1.0, 2.0), i64(0)), (vec(1.0, 2.0), i64(3))]),
    (method_call, [(vec(1.0, 3.0, 5.0),), (vec(1.0, 1.0, 1.0),)]),
    (callable_object, [(f64(5.0),), (f64(1.0),)]),
    (staticmethod_call, [(f64(3.0),), (f64(-3.0),), (f64(0.0),)]),
    (classmethod_then_method, [(vec(1.0, 3.0, 5.0),), (vec(1.0, 1.0, 1.0),)]),
    (numpy_calls_in_branches, [(vec(1.0, 3.0, -1.0),), (vec(1.0, 0.5, -1.0),)]),
    (numpy_calls_in_loop, [(mat([[2.0, 1.0], [1.0, 3.0]]), i64(0)),
                           (mat([[2.0, 1.0], [1.0, 3.0]]), i64(5))]),
    (keyword_arguments_to_helper, [(f64(-5.0),), (f64(0.0),), (f64(5.0),)]),
    (helper_with_default_argument, [(f64(0.5),), (f64(3.0),)]),
    (star_args_helper, [(f64(1.0), f64(2.0)), (f64(3.0), f64(-2.0)), (f64(-1.0), f64(-2.0))]),
    (partial_of_helper, [(f64(0.5),), (f64(5.0),), (f64(-5.0),)]),
    (helper_calling_helper, [(vec(1.0, 2.0, 5.0),), (vec(-1.0, -2.0, 5.0),)]),
    (higher_order_helper, [(vec(1.0, -2.0, 3.0),), (vec(-1.0, -2.0, -3.0),)]),
    (method_on_matrix_rows, [(mat([[1.0, 3.0], [5.0, 1.0]]),), (mat([[1.0, 1.0], [1.0, 1.0]]),)]),
]
