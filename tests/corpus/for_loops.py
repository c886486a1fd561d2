"""`for` loops: over range() with traced bounds (staged), over Python ranges, lists and
tuples (unrolled), over traced arrays, enumerate and zip; for/else; break, continue
and return inside them."""
import numpy as np

from . import f64, i64, mat, vec


def sum_first_n(x_vec, n_int):
    total = 0.0
    for i in range(n_int):
        total += x_vec[i]
    return total


def sum_range_start_stop(x_vec, lo_int, hi_int):
    total = 0.0
    for i in range(lo_int, hi_int):
        total = total + x_vec[i] * i
    return total


def range_with_traced_step(n_int, step_int):
    count = 0
    for i in range(0, n_int, step_int):
        count += i
    return count


def range_counting_down(n_int):
    out = 0
    for i in range(n_int, 0, -1):
        out = out * 10 + i
    return out


def factorial(n_int):
    result = 1
    for k in range(2, n_int + 1):
        result *= k
    return result


def python_range_with_traced_branch(x_scalar):
    y = x_scalar
    for i in range(4):
        if y > i:
            y = y - 1
        else:
            y = y + 2
    return y


def unrolled_python_list(x_scalar):
    total = 0.0
    for w in [0.5, 2.0, -1.0]:
        if x_scalar * w > 1:
            total += x_scalar * w
    return total


def unrolled_tuple_of_arrays(x_vec, y_vec):
    best = x_vec
    for v in (x_vec, y_vec, x_vec + y_vec):
        if v.sum() > best.sum():
            best = v
    return best


def unrolled_python_list_of_pairs(x_scalar):
    for lo, hi in [(0.0, 1.0), (1.0, 2.0), (2.0, 3.0)]:
        if lo <= x_scalar and x_scalar < hi:
            x_scalar = x_scalar - lo
    return x_scalar


def for_over_array(x_vec):
    total = 0.0
    for v in x_vec:
        if v > 0:
            total += v
    return total


def for_over_matrix_rows(x_mat):
    best = x_mat[0]
    for row in x_mat:
        if row.sum() > best.sum():
            best = row
    return best


def enumerate_array(x_vec):
    weighted = 0.0
    for i, v in enumerate(x_vec):
        if v < 0:
            break
        weighted += i * v
    return weighted


def enumerate_with_start(x_vec):
    last_positive = 0
    for i, v in enumerate(x_vec, 1):
        if v > 0:
            last_positive = i
    return last_positive


def zip_two_arrays(x_vec, y_vec):
    agree = 0
    for a, c in zip(x_vec, y_vec):
        if (a > 0) == (c > 0):
            agree += 1
    return agree


def zip_three_arrays(x_vec, y_vec, z_vec):
    total = 0.0
    for a, c, d in zip(x_vec, y_vec, z_vec):
        if d > a:
            continue
        total += a * c - d
    return total


def zip_array_with_range(x_vec, n_int):
    total = 0.0
    for i, v in zip(range(n_int), x_vec):
        total += v ** i
    return total


def for_else_found(x_vec, target_scalar):
    result = 0.0
    for v in x_vec:
        if v > target_scalar:
            result = v
            break
    else:
        result = -1.0
    return result


def for_else_over_range(n_int):
    total = 0
    for i in range(n_int):
        total += i
        if total > 10:
            break
    else:
        total = -total
    return total


def for_break_on_range(x_vec, n_int):
    total = 0.0
    for i in range(n_int):
        if x_vec[i] < 0:
            break
        total += x_vec[i]
    return total


def for_continue_on_array(x_vec):
    total = 0.0
    for v in x_vec:
        if v < 0:
            continue
        total += np.sqrt(v)
    return total


def for_return_first_negative(x_vec):
    for v in x_vec:
        if v < 0:
            return v
    return 0.0


def for_return_pair_from_loop(x_vec):
    for i, v in enumerate(x_vec):
        if v < 0:
            return i, v
    return -1, 0.0


def for_return_index_in_range(x_vec, n_int):
    for i in range(n_int):
        if x_vec[i] > 10:
            return i
    return -1


def for_break_and_continue(x_vec):
    count = 0
    for v in x_vec:
        if v == 0:
            continue
        if v > 100:
            break
        count += 1
    return count


def loop_variable_used_after(x_vec, n_int):
    for i in range(n_int):
        pass
    return x_vec[i]


def for_over_reversed_slice(x_vec):
    out = 0.0
    for v in x_vec[::-1]:
        if v == 0:
            continue
        out = out * 10 + v
    return out


def for_over_traced_length_range(x_vec):
    total = 0.0
    for i in range(len(x_vec)):
        if x_vec[i] > x_vec[0]:
            total += x_vec[i] - x_vec[0]
    return total


def enumerate_zip_nested_targets(x_vec, y_vec):
    total = 0.0
    for i, (a, c) in enumerate(zip(x_vec, y_vec)):
        if a > c:
            total += a * i
        else:
            total -= c
    return total


def for_over_int_array(n_vec):
    evens = 0
    for k in n_vec:
        if k % 2 == 0:
            evens += k
    return evens


def dot_by_loop(x_vec, y_vec, n_int):
    acc = 0.0
    for i in range(n_int):
        acc = acc + x_vec[i] * y_vec[i]
    return acc


def for_loop_over_python_range_with_break(x_vec):
    for i in range(3):
        if x_vec[i] < 0:
            break
    return i


def for_loop_target_unused(n_int, x_scalar):
    for _ in range(n_int):
        x_scalar = x_scalar * 2 + 1
    return x_scalar


def count_up_to_first_negative(x_vec):
    count = 0
    for v in x_vec:
        count += 1
        if v < 0:
            break
    return count


def for_range_negative_count(n_int):
    total = 10
    for i in range(n_int):
        total -= 1
    return total


def for_over_matrix_with_enumerate(x_mat):
    best_index = -1
    best_norm = 0.0
    for i, row in enumerate(x_mat):
        norm = np.sqrt((row * row).sum())
        if norm > best_norm:
            best_norm = norm
            best_index = i
    return best_index, best_norm


def range_of_int32_bound(n_int32, x_vec):
    total = 0.0
    for i in range(n_int32):
        total += x_vec[i] / (i + 1)
    return total


def range_index_divided_by_bound(n_int):
    total = 0.0
    for i in range(n_int):
        total += i / n_int
    return total


def continue_as_last_statement(x_vec):
    total = 0.0
    for v in x_vec:
        total += v
        if v > 0:
            continue
    return total


def loop_variable_bound_before(x_vec, n_int):
    i = -1
    for i in range(n_int):
        pass
    return i


def for_else_returns_unless_broken(x_vec):
    for v in x_vec:
        if v < 0:
            break
    else:
        return 100.0
    return v


def unrolled_list_with_traced_break(x_scalar):
    out = 0.0
    for w in [1.0, 2.0, 3.0]:
        out += w
        if x_scalar < out:
            break
    return out


XFAIL: dict = {}

def append_under_traced_if(x_vec, n_int):
    # The branch that does not append faces the other's one-element list: an empty one.
    ys = []
    for i in range(n_int):
        if x_vec[i % 3] > 0:
            ys.append(x_vec[i % 3] * 2.0)
    return len(ys)


def for_else_reads_what_the_loop_bound(n_int):
    last = i64(0)
    for i in range(n_int):
        last = i * 2
    else:
        result = last + 1   # `last` is read only here, in the `else`
    return result


def inner_loop_changes_what_the_next_outer_trip_reads(x_vec, n_int):
    u = np.sum(x_vec)
    total = 0.0
    for _ in range(2):            # a Python loop around a staged one
        total = total + u         # reads what the inner loop set on the trip before
        for _ in range(n_int):
            u = x_vec[0]
    return total


CASES = [
    (inner_loop_changes_what_the_next_outer_trip_reads, [(vec(0.0, 0.0, 0.5), i64(1)),
                                                         (vec(1.0, 2.0, 0.5), i64(0))]),
    (append_under_traced_if, [(vec(1.0, -2.0, 3.0), i64(5)), (vec(-1.0, -2.0, -3.0), i64(2)),
                              (vec(1.0, 2.0, 3.0), i64(0))]),
    (for_else_reads_what_the_loop_bound, [(i64(0),), (i64(1),), (i64(4),)]),
    (range_of_int32_bound, [(np.int32(2), vec(1.0, 2.0, 3.0)), (np.int32(0), vec(1.0, 2.0, 3.0))]),
    (range_index_divided_by_bound, [(i64(4),), (i64(1),)]),
    (continue_as_last_statement, [(vec(1.0, -2.0),), (vec(-1.0, -2.0),)]),
    (loop_variable_bound_before, [(vec(1.0, 2.0, 3.0), i64(3)), (vec(1.0, 2.0, 3.0), i64(0))]),
    (for_else_returns_unless_broken, [(vec(1.0, -2.0),), (vec(1.0, 2.0),)]),
    (unrolled_list_with_traced_break, [(f64(0.5),), (f64(10.0),), (f64(2.0),)]),
    (sum_first_n, [(vec(1.0, 2.0, 3.0, 4.0, 5.0), i64(0)), (vec(1.0, 2.0, 3.0, 4.0, 5.0), i64(1)),
                   (vec(1.0, 2.0, 3.0, 4.0, 5.0), i64(5))]),
    (sum_range_start_stop, [(vec(1.0, 2.0, 3.0, 4.0), i64(1), i64(3)),
                            (vec(1.0, 2.0, 3.0, 4.0), i64(3), i64(1)),
                            (vec(1.0, 2.0, 3.0, 4.0), i64(0), i64(4))]),
    (range_with_traced_step, [(i64(10), i64(3)), (i64(0), i64(2)), (i64(5), i64(1))]),
    (range_counting_down, [(i64(0),), (i64(1),), (i64(4),)]),
    (factorial, [(i64(0),), (i64(1),), (i64(10),)]),
    (python_range_with_traced_branch, [(f64(10.0),), (f64(0.0),), (f64(2.5),)]),
    (unrolled_python_list, [(f64(3.0),), (f64(-3.0),), (f64(0.1),)]),
    (unrolled_tuple_of_arrays, [(vec(1.0, 2.0), vec(3.0, 4.0)), (vec(1.0, 2.0), vec(-3.0, -4.0)),
                                (vec(-1.0, -2.0), vec(0.5, 0.5))]),
    (unrolled_python_list_of_pairs, [(f64(0.5),), (f64(1.5),), (f64(2.5),), (f64(7.0),)]),
    (for_over_array, [(vec(1.0, -2.0, 3.0),), (vec(-1.0, -2.0, -3.0),)]),
    (for_over_matrix_rows, [(mat([[1.0, 2.0], [3.0, 4.0], [0.0, 0.0]]),),
                            (mat([[5.0, 2.0], [3.0, 4.0], [0.0, 0.0]]),)]),
    (enumerate_array, [(vec(1.0, 2.0, 3.0),), (vec(0.0, -2.0, 3.0),)]),
    (enumerate_with_start, [(vec(1.0, 2.0, -3.0),), (vec(-1.0, -2.0, -3.0),)]),
    (zip_two_arrays, [(vec(1.0, -2.0, 3.0), vec(1.0, 2.0, 3.0)),
                      (vec(1.0, -2.0, 3.0), vec(-1.0, -2.0, -3.0))]),
    (zip_three_arrays, [(vec(1.0, 2.0), vec(3.0, 4.0), vec(5.0, 6.0)),
                        (vec(0.0, 2.0), vec(3.0, 0.0), vec(1.0, 1.0))]),
    (zip_array_with_range, [(vec(2.0, 3.0, 4.0), i64(0)), (vec(2.0, 3.0, 4.0), i64(2)),
                            (vec(2.0, 3.0, 4.0), i64(9))]),
    (for_else_found, [(vec(1.0, 5.0, 3.0), f64(2.0)), (vec(1.0, 5.0, 3.0), f64(9.0))]),
    (for_else_over_range, [(i64(0),), (i64(3),), (i64(10),)]),
    (for_break_on_range, [(vec(1.0, 2.0, -3.0, 4.0), i64(4)), (vec(1.0, 2.0, -3.0, 4.0), i64(2)),
                          (vec(1.0, 2.0, -3.0, 4.0), i64(0))]),
    (for_continue_on_array, [(vec(4.0, -1.0, 9.0),), (vec(-4.0, -1.0, -9.0),)]),
    (for_return_first_negative, [(vec(1.0, -2.0, -3.0),), (vec(1.0, 2.0, 3.0),)]),
    (for_return_pair_from_loop, [(vec(1.0, -2.0, 3.0),), (vec(1.0, 2.0, 3.0),)]),
    (for_return_index_in_range, [(vec(1.0, 20.0, 30.0), i64(3)), (vec(1.0, 20.0, 30.0), i64(1)),
                                 (vec(1.0, 20.0, 30.0), i64(0))]),
    (for_break_and_continue, [(vec(1.0, 0.0, 2.0, 200.0, 3.0),), (vec(1.0, 0.0, 2.0, 2.0, 3.0),),
                              (vec(101.0, 0.0, 2.0, 2.0, 3.0),)]),
    (loop_variable_used_after, [(vec(1.0, 2.0, 3.0), i64(1)), (vec(1.0, 2.0, 3.0), i64(3))]),
    (for_over_reversed_slice, [(vec(1.0, 2.0, 3.0),), (vec(0.0, 0.0, 1.0),)]),
    (for_over_traced_length_range, [(vec(1.0, 2.0, 3.0),), (vec(5.0, 2.0, 3.0),)]),
    (enumerate_zip_nested_targets, [(vec(1.0, 2.0, 3.0), vec(4.0, 5.0, 6.0)),
                                    (vec(-1.0, 2.0, -3.0), vec(4.0, -5.0, 6.0))]),
    (for_over_int_array, [(vec(1, 2, 3, 4, dtype="int64"),), (vec(1, 3, 5, 7, dtype="int64"),)]),
    (dot_by_loop, [(vec(1.0, 2.0, 3.0), vec(4.0, 5.0, 6.0), i64(3)),
                   (vec(1.0, 2.0, 3.0), vec(4.0, 5.0, 6.0), i64(0))]),
    (for_loop_over_python_range_with_break, [(vec(1.0, 2.0, 3.0),), (vec(1.0, -2.0, 3.0),),
                                             (vec(-1.0, 2.0, 3.0),)]),
    (count_up_to_first_negative, [(vec(1.0, -2.0, 3.0),), (vec(1.0, 2.0, 3.0),)]),
    (for_loop_target_unused, [(i64(0), f64(1.0)), (i64(3), f64(1.0))]),
    (for_range_negative_count, [(i64(-3),), (i64(4),)]),
    (for_over_matrix_with_enumerate, [(mat([[1.0, 2.0], [3.0, 4.0]]),),
                                      (mat([[0.0, 0.0], [0.0, 0.0]]),),
                                      (mat([[5.0, 2.0], [3.0, 4.0]]),)]),
]


def count_into_local_array(n_int):
    """Issue #12: `t += 1` on an array made in the function, in a staged loop."""
    t = np.zeros(3)
    for i in range(n_int):
        t += 1
    return t


def fill_and_out_in_loop(n_int):
    """`t.fill(v)` and `np.add(t, 1, out=t)` in a staged loop."""
    t = np.zeros(2)
    for i in range(n_int):
        t.fill(i)
        np.add(t, 1, out=t)
    return t


def op_assign_on_numpy_scalar(x_int8):
    """Issue #12: `s += np.int64(300)` on an int8 NumPy scalar rebinds s to int64 301."""
    s = x_int8[0]
    if s > 0:
        s += np.int64(300)
    else:
        s -= np.int64(300)
    return s


CASES += [
    (count_into_local_array, [(i64(0),), (i64(1),), (i64(4),)]),
    (fill_and_out_in_loop, [(i64(0),), (i64(3),)]),
    (op_assign_on_numpy_scalar, [(vec(1, 2, dtype="int8"),), (vec(-100, 2, dtype="int8"),)]),
]
