"""`and`/`or`/`not` (lazy: the right side has an effect or would fail) and comparison chains."""
import numpy as np

from . import b, f64, i64, vec


def and_guards_index(x_vec, i_int):
    return i_int < len(x_vec) and x_vec[i_int] > 0


def or_guards_index(x_vec, i_int):
    return i_int >= len(x_vec) or x_vec[i_int] > 0


def _noisy_positive(x_scalar):
    print("checking", x_scalar)
    return x_scalar > 0


def and_right_side_prints(x_scalar, y_scalar):
    return y_scalar > 0 and _noisy_positive(x_scalar)


def or_right_side_prints(x_scalar, y_scalar):
    return y_scalar > 0 or _noisy_positive(x_scalar)


def not_in_if(x_scalar):
    if not x_scalar > 0:
        return -x_scalar
    return x_scalar


def not_bool_arg(flag_bool, x_scalar):
    return x_scalar if not flag_bool else -x_scalar


def and_or_mix(a_scalar, b_scalar, c_scalar):
    return (a_scalar > 0 and b_scalar > 0) or c_scalar > 0


def or_returns_operand(x_scalar, y_scalar):
    return x_scalar or y_scalar


def and_returns_operand(x_scalar, y_scalar):
    return x_scalar and y_scalar


def chain_in_unit_interval(x_scalar):
    return 0 < x_scalar < 1


def chain_in_if(x_scalar, lo_scalar, hi_scalar):
    if lo_scalar <= x_scalar < hi_scalar:
        return x_scalar - lo_scalar
    return hi_scalar - lo_scalar


def chain_guards_index(x_vec, i_int):
    if 0 <= i_int < len(x_vec) and x_vec[i_int] > 0:
        return x_vec[i_int]
    return 0.0


def long_chain(a_int, b_int, c_int, d_int):
    return a_int < b_int <= c_int < d_int


def chain_of_equalities(a_int, b_int, c_int):
    return a_int == b_int == c_int


def chain_lazy_third_operand(x_vec, i_int):
    return i_int > 0 > x_vec[0] < x_vec[i_int - 1]


def chain_with_subscript_middle(x_vec):
    return 0.0 < x_vec[0] < 1.0


def de_morgan_not_or(x_scalar, y_scalar):
    return not (x_scalar > 0 or y_scalar > 0)


def while_test_and_guards_index(x_vec):
    i = 0
    while i < len(x_vec) and x_vec[i] >= 0:
        i += 1
    return i


def while_test_or(x_scalar, n_int):
    steps = 0
    while x_scalar > 100 or steps < n_int:
        x_scalar = x_scalar / 2
        steps += 1
    return x_scalar, steps


def python_left_traced_right(x_vec, flag_py):
    if flag_py and x_vec.sum() > 0:
        return x_vec.max()
    return x_vec.min()


def traced_left_python_right(x_vec, limit_py):
    return x_vec.sum() > 0 and limit_py > 3


def nested_bool_ops(a_scalar, b_scalar, c_scalar):
    if (a_scalar > 0 or b_scalar > 0) and not c_scalar > 0:
        return a_scalar + b_scalar
    return c_scalar


def three_way_or(x_int):
    return x_int == 1 or x_int == 2 or x_int == 3


def three_way_and_guards_slice(x_vec, k_int):
    return k_int > 0 and k_int <= len(x_vec) and x_vec[k_int - 1] > 1


def not_not(x_scalar):
    if not not x_scalar:
        return x_scalar
    return x_scalar - 1


def bool_ops_on_array_reductions(x_vec):
    return np.all(x_vec > 0) or np.any(x_vec < -5)


def and_in_ternary(x_scalar, y_scalar):
    return x_scalar if x_scalar > 0 and y_scalar > 0 else y_scalar


def or_default_value(x_scalar):
    y = x_scalar or 10.0
    return y * 2


def not_in_while(x_scalar):
    done = False
    steps = 0
    while not done:
        x_scalar = x_scalar * 3
        steps += 1
        done = x_scalar > 50
    return steps


def chain_mixing_python_and_traced(x_int):
    return 1 < 2 < x_int < 10


def bitwise_ops_in_ternary(x_scalar, y_scalar):
    return (x_scalar > 0) & (y_scalar > 0) if x_scalar + y_scalar > 0 else \
        (x_scalar > 0) | (y_scalar > 0)


XFAIL: dict = {}

CASES = [
    (bitwise_ops_in_ternary, [(f64(1.0), f64(2.0)), (f64(-1.0), f64(-2.0)),
                              (f64(3.0), f64(-1.0))]),
    (and_guards_index, [(vec(1.0, -2.0, 3.0), i64(0)), (vec(1.0, -2.0, 3.0), i64(1)),
                        (vec(1.0, -2.0, 3.0), i64(5))]),
    (or_guards_index, [(vec(1.0, -2.0, 3.0), i64(0)), (vec(1.0, -2.0, 3.0), i64(9))]),
    (and_right_side_prints, [(f64(2.0), f64(1.0)), (f64(-2.0), f64(1.0)), (f64(2.0), f64(-1.0))]),
    (or_right_side_prints, [(f64(2.0), f64(1.0)), (f64(-2.0), f64(-1.0))]),
    (not_in_if, [(f64(-2.0),), (f64(3.0),)]),
    (not_bool_arg, [(b(True), f64(2.0)), (b(False), f64(2.0))]),
    (and_or_mix, [(f64(1.0), f64(1.0), f64(-1.0)), (f64(1.0), f64(-1.0), f64(-1.0)),
                  (f64(-1.0), f64(1.0), f64(1.0))]),
    (or_returns_operand, [(f64(0.0), f64(5.0)), (f64(3.0), f64(5.0))]),
    (and_returns_operand, [(f64(0.0), f64(5.0)), (f64(3.0), f64(5.0))]),
    (chain_in_unit_interval, [(f64(0.5),), (f64(-0.5),), (f64(1.5),)]),
    (chain_in_if, [(f64(0.5), f64(0.0), f64(1.0)), (f64(2.0), f64(0.0), f64(1.0)),
                   (f64(-1.0), f64(0.0), f64(1.0))]),
    (chain_guards_index, [(vec(1.0, 2.0, -3.0), i64(1)), (vec(1.0, 2.0, -3.0), i64(2)),
                          (vec(1.0, 2.0, -3.0), i64(-1)), (vec(1.0, 2.0, -3.0), i64(3))]),
    (long_chain, [(i64(1), i64(2), i64(2), i64(3)), (i64(1), i64(0), i64(2), i64(3)),
                  (i64(1), i64(2), i64(1), i64(3)), (i64(1), i64(2), i64(2), i64(2))]),
    (chain_of_equalities, [(i64(1), i64(1), i64(1)), (i64(1), i64(1), i64(2)),
                           (i64(1), i64(2), i64(2))]),
    (chain_lazy_third_operand, [(vec(-1.0, 2.0, 3.0), i64(2)), (vec(-1.0, 2.0, 3.0), i64(0)),
                                (vec(1.0, 2.0, 3.0), i64(9))]),
    (chain_with_subscript_middle, [(vec(0.5, 2.0),), (vec(-0.5, 2.0),), (vec(1.5, 2.0),)]),
    (de_morgan_not_or, [(f64(-1.0), f64(-1.0)), (f64(1.0), f64(-1.0))]),
    (while_test_and_guards_index, [(vec(1.0, 2.0, 3.0),), (vec(1.0, -2.0, 3.0),),
                                   (vec(-1.0, 2.0, 3.0),)]),
    (while_test_or, [(f64(1000.0), i64(0)), (f64(1.0), i64(3)), (f64(50.0), i64(0))]),
    (python_left_traced_right, [(vec(1.0, 2.0), True), (vec(-1.0, -2.0), True)]),
    (traced_left_python_right, [(vec(1.0, 2.0), 5), (vec(-1.0, -2.0), 5)]),
    (nested_bool_ops, [(f64(1.0), f64(-1.0), f64(-1.0)), (f64(-1.0), f64(-1.0), f64(-1.0)),
                       (f64(1.0), f64(1.0), f64(1.0))]),
    (three_way_or, [(i64(1),), (i64(2),), (i64(3),), (i64(4),)]),
    (three_way_and_guards_slice, [(vec(1.0, 2.0), i64(0)), (vec(1.0, 2.0), i64(2)),
                                  (vec(1.0, 2.0), i64(3)), (vec(1.0, 2.0), i64(1))]),
    (not_not, [(f64(0.0),), (f64(2.0),)]),
    (bool_ops_on_array_reductions, [(vec(1.0, 2.0),), (vec(-1.0, -9.0),), (vec(-1.0, 2.0),)]),
    (and_in_ternary, [(f64(1.0), f64(2.0)), (f64(-1.0), f64(2.0)), (f64(1.0), f64(-2.0))]),
    (or_default_value, [(f64(0.0),), (f64(4.0),)]),
    (not_in_while, [(f64(100.0),), (f64(1.0),)]),
    (chain_mixing_python_and_traced, [(i64(5),), (i64(1),), (i64(20),)]),
]
