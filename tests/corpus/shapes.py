"""Loop-carried values that change shape, variables first bound inside loops and
branches, and Python scalars carried through staged loops."""
import numpy as np

from . import f64, i64, mat, vec


def grow_by_concatenate(x_vec, n_int):
    acc = np.zeros(0)
    for i in range(n_int):
        acc = np.concatenate([acc, x_vec * i])
    return acc


def grow_one_element_at_a_time(x_vec, n_int):
    acc = x_vec[:1]
    i = 1
    while i < n_int:
        acc = np.concatenate([acc, x_vec[i:i + 1] * 2])
        i += 1
    return acc


def double_length_until_sum_large(x_vec, limit_scalar):
    while x_vec.sum() < limit_scalar:
        x_vec = np.concatenate([x_vec, x_vec])
    return x_vec


def drop_first_elements(x_vec, n_int):
    for i in range(n_int):
        x_vec = x_vec[1:]
    return x_vec, x_vec.sum()


def grow_rows_of_matrix(x_mat, n_int):
    out = x_mat
    for i in range(n_int):
        out = np.concatenate([out, out[:1] + i], axis=0)
    return out


def grow_in_one_branch(x_vec, n_int):
    acc = x_vec
    for i in range(n_int):
        if acc.sum() > 10:
            acc = acc * 0.5
        else:
            acc = np.concatenate([acc, acc])
    return acc


def python_float_total(x_vec, n_int):
    total = 0.0
    for i in range(n_int):
        total += x_vec[i]
    return total


def python_int_counter(x_vec):
    count = 0
    for v in x_vec:
        if v > 0:
            count += 1
    return count


def python_bool_flag(x_vec):
    found = False
    for v in x_vec:
        if v > 3:
            found = True
    return found


def python_float_carried_into_float32(x_vec32, n_int):
    total = 0.0
    for i in range(n_int):
        total += x_vec32[i]
    return total


def python_int_with_int32_array(x_vec32i):
    total = 0
    for v in x_vec32i:
        if v % 2 == 1:
            total += v
    return total


def first_bound_in_loop(x_vec, n_int):
    for i in range(n_int):
        last = x_vec[i] * 2
    return last


def first_bound_in_both_branches(x_scalar):
    if x_scalar > 0:
        y = x_scalar * 3
        label = 1
    else:
        y = x_scalar - 3
        label = 2
    return y, label


def first_bound_in_loop_and_branch(x_vec):
    for v in x_vec:
        if v > 0:
            kept = v
        else:
            kept = -v
    return kept


def first_bound_in_while(n_int):
    i = 0
    while i < n_int:
        square = i * i
        i += 1
    return square


def fibonacci_pair_swap(a_scalar, b_scalar, n_int):
    for _ in range(n_int):
        a_scalar, b_scalar = b_scalar, a_scalar + b_scalar
    return a_scalar, b_scalar


def unrolled_list_accumulation(x_scalar):
    out = []
    for k in range(3):
        if x_scalar > k:
            out.append(x_scalar * k)
        else:
            out.append(x_scalar - k)
    return np.stack(out)


def vector_accumulator_from_zeros_like(x_vec, n_int):
    acc = np.zeros_like(x_vec)
    for i in range(n_int):
        acc = acc + x_vec * i
        if acc.sum() > 20:
            acc = acc / 2
    return acc


def python_scalars_in_while(x_scalar):
    lo = 0.0
    hi = 10.0
    steps = 0
    while hi - lo > 1:
        mid = (lo + hi) / 2
        if mid > x_scalar:
            hi = mid
        else:
            lo = mid
        steps += 1
    return lo, hi, steps


def shrink_matrix_columns(x_mat, n_int):
    for i in range(n_int):
        x_mat = x_mat[:, 1:]
    return x_mat.sum(axis=1), x_mat.shape[0]


def concatenate_selected(x_vec, threshold_scalar):
    picked = np.zeros(0)
    for v in x_vec:
        if v > threshold_scalar:
            picked = np.concatenate([picked, np.expand_dims(v, 0)])
    return picked


def python_int_total_becomes_float(x_vec):
    total = 0
    for v in x_vec:
        if v > 0:
            total += v
    return total


def tuple_carried_and_unpacked(x_vec, n_int):
    pair = (0.0, 1.0)
    for i in range(n_int):
        a, c = pair
        pair = (c, a + c * x_vec[i])
    return pair


def dict_carried(x_vec, n_int):
    d = {"sum": 0.0, "count": 0}
    for i in range(n_int):
        d = {"sum": d["sum"] + x_vec[i], "count": d["count"] + 1}
    return d


CASES = [
    (python_int_total_becomes_float, [(vec(1.0, 2.0),), (vec(-1.0, 2.0),)]),
    (tuple_carried_and_unpacked, [(vec(1.0, 2.0, 3.0), i64(3)), (vec(1.0, 2.0, 3.0), i64(0))]),
    (dict_carried, [(vec(1.0, 2.0, 3.0), i64(3)), (vec(1.0, 2.0, 3.0), i64(0))]),
    (grow_by_concatenate, [(vec(1.0, 2.0), i64(0)), (vec(1.0, 2.0), i64(1)),
                           (vec(1.0, 2.0), i64(4))]),
    (grow_one_element_at_a_time, [(vec(1.0, 2.0, 3.0, 4.0), i64(1)),
                                  (vec(1.0, 2.0, 3.0, 4.0), i64(4))]),
    (double_length_until_sum_large, [(vec(1.0, 2.0), f64(2.0)), (vec(1.0, 2.0), f64(20.0))]),
    (drop_first_elements, [(vec(1.0, 2.0, 3.0, 4.0), i64(0)), (vec(1.0, 2.0, 3.0, 4.0), i64(3))]),
    (grow_rows_of_matrix, [(mat([[1.0, 2.0]]), i64(0)), (mat([[1.0, 2.0]]), i64(3))]),
    (grow_in_one_branch, [(vec(1.0, 2.0), i64(3)), (vec(8.0, 9.0), i64(2)),
                          (vec(1.0, 2.0), i64(0))]),
    (python_float_total, [(vec(1.0, 2.0, 3.0), i64(0)), (vec(1.0, 2.0, 3.0), i64(2))]),
    (python_int_counter, [(vec(1.0, -2.0, 3.0),), (vec(-1.0, -2.0, -3.0),)]),
    (python_bool_flag, [(vec(1.0, 4.0, 3.0),), (vec(1.0, 2.0, 3.0),)]),
    (python_float_carried_into_float32, [(vec(1.5, 2.5, 3.5, dtype="float32"), i64(0)),
                                         (vec(1.5, 2.5, 3.5, dtype="float32"), i64(3))]),
    (python_int_with_int32_array, [(vec(1, 2, 3, dtype="int32"),), (vec(2, 4, 6, dtype="int32"),)]),
    (first_bound_in_loop, [(vec(1.0, 2.0, 3.0), i64(1)), (vec(1.0, 2.0, 3.0), i64(3))]),
    (first_bound_in_both_branches, [(f64(2.0),), (f64(-2.0),)]),
    (first_bound_in_loop_and_branch, [(vec(1.0, -2.0),), (vec(1.0, 2.0),)]),
    (first_bound_in_while, [(i64(1),), (i64(5),)]),
    (fibonacci_pair_swap, [(f64(0.0), f64(1.0), i64(0)), (f64(0.0), f64(1.0), i64(10))]),
    (unrolled_list_accumulation, [(f64(5.0),), (f64(1.5),), (f64(-1.0),)]),
    (vector_accumulator_from_zeros_like, [(vec(1.0, 2.0), i64(0)), (vec(1.0, 2.0), i64(3)),
                                         (vec(1.0, 2.0), i64(6))]),
    (python_scalars_in_while, [(f64(3.3),), (f64(9.9),), (f64(-5.0),)]),
    (shrink_matrix_columns, [(mat([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), i64(0)),
                             (mat([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), i64(2))]),
    (concatenate_selected, [(vec(1.0, 5.0, 3.0, 7.0), f64(4.0)),
                            (vec(1.0, 5.0, 3.0, 7.0), f64(9.0))]),
]
