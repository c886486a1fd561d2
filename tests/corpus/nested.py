"""Nested loops, loops inside branches, branches inside loops, returns from deep inside."""
import numpy as np

from . import b, f64, i64, mat, vec


def count_ordered_pairs(n_int, m_int):
    count = 0
    for i in range(n_int):
        for j in range(m_int):
            if i < j:
                count += 1
    return count


def matrix_sum_by_loops(x_mat):
    total = 0.0
    for row in x_mat:
        for v in row:
            if v > 0:
                total += v
    return total


def loop_in_branch(x_vec, flag_bool):
    if flag_bool:
        acc = 0.0
        for v in x_vec:
            acc += v
    else:
        acc = 1.0
        for v in x_vec:
            acc *= v
    return acc


def branch_in_loop_counts_signs(x_vec):
    pos, neg, zero = 0, 0, 0
    for v in x_vec:
        if v > 0:
            pos += 1
        elif v < 0:
            neg += 1
        else:
            zero += 1
    return pos, neg, zero


def break_inner_loop_only(x_mat):
    total = 0.0
    for row in x_mat:
        for v in row:
            if v < 0:
                break
            total += v
    return total


def while_inside_for(x_vec):
    steps = 0
    for v in x_vec:
        while v > 1:
            v = v / 2
            steps += 1
    return steps


def triangular_number(n_int):
    total = 0
    for i in range(n_int):
        for j in range(i):
            total += 1
    return total


def return_from_inner_loop(x_mat, target_scalar):
    for i in range(x_mat.shape[0]):
        for j in range(x_mat.shape[1]):
            if x_mat[i, j] == target_scalar:
                return i * 10 + j
    return -1


def return_from_inner_staged_loop(x_mat, target_scalar):
    for i, row in enumerate(x_mat):
        for j, v in enumerate(row):
            if v == target_scalar:
                return i * 10 + j
    return -1


def continue_in_inner_loop(x_mat):
    total = 0.0
    for row in x_mat:
        for v in row:
            if v < 0:
                continue
            total += v
        total *= 2
    return total


def loops_in_both_branches(x_vec, n_int):
    if n_int > 2:
        for i in range(n_int):
            x_vec = x_vec + i
    else:
        k = 0
        while k < 3:
            x_vec = x_vec * 2
            k += 1
    return x_vec


def triple_nested_range(n_int):
    total = 0
    for i in range(n_int):
        for j in range(i):
            for k in range(j):
                total += i * j * k
    return total


def nested_for_else(x_mat, target_scalar):
    hits = 0
    for row in x_mat:
        found = False
        for v in row:
            if v == target_scalar:
                found = True
                break
        else:
            hits -= 1
        if found:
            hits += 10
    return hits


def count_primes_below(n_int):
    count = 0
    for k in range(2, n_int):
        is_prime = True
        d = 2
        while d * d <= k:
            if k % d == 0:
                is_prime = False
                break
            d += 1
        if is_prime:
            count += 1
    return count


def loop_after_branch(x_vec, n_int):
    if x_vec.sum() > 0:
        scale = 2.0
    else:
        scale = -1.0
    for i in range(n_int):
        x_vec = x_vec * scale
    return x_vec


def branch_after_loop(x_vec):
    total = 0.0
    for v in x_vec:
        total += v
    if total > 10:
        return total / 10
    elif total < 0:
        return -total
    return total


def nested_while_loops(n_int):
    i = 0
    pairs = 0
    while i < n_int:
        j = i
        while j < n_int:
            pairs += 1
            j += 2
        i += 1
    return pairs


def inner_loop_bound_from_outer(x_vec, n_int):
    acc = 0.0
    for i in range(n_int):
        for j in range(i, n_int):
            acc += x_vec[j] - x_vec[i]
    return acc


def nested_loops_with_outer_break(x_mat, limit_scalar):
    total = 0.0
    rows = 0
    for row in x_mat:
        for v in row:
            total += v
        rows += 1
        if total > limit_scalar:
            break
    return total, rows


def python_loop_around_staged_loop(x_vec, n_int):
    out = 0.0
    for scale in (1.0, 10.0):
        for i in range(n_int):
            out += scale * x_vec[i]
    return out


def staged_loop_around_python_loop(x_mat, n_int):
    acc = np.zeros(2)
    for i in range(n_int):
        for j in range(2):
            acc = acc + x_mat[i] * (j + 1)
    return acc


def while_true_inside_for(x_vec):
    total = 0
    for v in x_vec:
        while True:
            v = v - 1
            total += 1
            if v < 0:
                break
    return total


def return_from_while_inside_for(x_mat):
    for row in x_mat:
        i = 0
        while i < 2:
            if row[i] < 0:
                return row[i]
            i += 1
    return 0.0


XFAIL: dict = {}

CASES = [
    (while_true_inside_for, [(vec(1.5, 0.5),), (vec(3.5, 0.5),)]),
    (return_from_while_inside_for, [(mat([[1.0, 2.0], [3.0, -4.0]]),),
                                    (mat([[1.0, 2.0], [3.0, 4.0]]),)]),
    (count_ordered_pairs, [(i64(0), i64(3)), (i64(2), i64(3)), (i64(4), i64(4))]),
    (matrix_sum_by_loops, [(mat([[1.0, -2.0], [3.0, 4.0]]),), (mat([[-1.0, -2.0], [-3.0, 4.0]]),)]),
    (loop_in_branch, [(vec(1.0, 2.0, 3.0), b(True)), (vec(1.0, 2.0, 3.0), b(False))]),
    (branch_in_loop_counts_signs, [(vec(1.0, -2.0, 0.0, 4.0),), (vec(1.0, 2.0, 3.0, 4.0),)]),
    (break_inner_loop_only, [(mat([[1.0, -2.0, 5.0], [3.0, 4.0, 5.0]]),),
                             (mat([[1.0, 2.0, 5.0], [-3.0, 4.0, 5.0]]),)]),
    (while_inside_for, [(vec(1.0, 8.0, 3.0),), (vec(0.5, 0.5, 0.5),)]),
    (triangular_number, [(i64(0),), (i64(1),), (i64(6),)]),
    (return_from_inner_loop, [(mat([[1.0, 2.0], [3.0, 4.0]]), f64(3.0)),
                              (mat([[1.0, 2.0], [3.0, 4.0]]), f64(9.0)),
                              (mat([[1.0, 2.0], [3.0, 4.0]]), f64(2.0))]),
    (return_from_inner_staged_loop, [(mat([[1.0, 2.0], [3.0, 4.0]]), f64(3.0)),
                                     (mat([[1.0, 2.0], [3.0, 4.0]]), f64(9.0)),
                                     (mat([[1.0, 2.0], [3.0, 4.0]]), f64(2.0))]),
    (continue_in_inner_loop, [(mat([[1.0, -2.0], [3.0, 4.0]]),), (mat([[1.0, 2.0], [3.0, 4.0]]),)]),
    (loops_in_both_branches, [(vec(1.0, 2.0), i64(4)), (vec(1.0, 2.0), i64(1))]),
    (triple_nested_range, [(i64(0),), (i64(3),), (i64(5),)]),
    (nested_for_else, [(mat([[1.0, 2.0], [3.0, 4.0]]), f64(3.0)),
                       (mat([[1.0, 2.0], [3.0, 4.0]]), f64(7.0)),
                       (mat([[3.0, 2.0], [3.0, 4.0]]), f64(3.0))]),
    (count_primes_below, [(i64(2),), (i64(3),), (i64(30),)]),
    (loop_after_branch, [(vec(1.0, 2.0), i64(3)), (vec(-1.0, -2.0), i64(2)),
                         (vec(1.0, 2.0), i64(0))]),
    (branch_after_loop, [(vec(5.0, 6.0, 7.0),), (vec(-5.0, 1.0, 2.0),), (vec(1.0, 1.0, 1.0),)]),
    (nested_while_loops, [(i64(0),), (i64(1),), (i64(5),)]),
    (inner_loop_bound_from_outer, [(vec(1.0, 4.0, 9.0), i64(3)), (vec(1.0, 4.0, 9.0), i64(1)),
                                   (vec(1.0, 4.0, 9.0), i64(0))]),
    (nested_loops_with_outer_break, [(mat([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), f64(2.0)),
                                     (mat([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), f64(100.0))]),
    (python_loop_around_staged_loop, [(vec(1.0, 2.0, 3.0), i64(2)), (vec(1.0, 2.0, 3.0), i64(0))]),
    (staged_loop_around_python_loop, [(mat([[1.0, 2.0], [3.0, 4.0]]), i64(2)),
                                      (mat([[1.0, 2.0], [3.0, 4.0]]), i64(0))]),
]
