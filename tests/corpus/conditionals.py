"""`if`/`elif`/`else` (nested), conditional expressions, returns in branches."""
import numpy as np

from . import b, f32, f64, i64, vec


def abs_if_else(x_scalar):
    if x_scalar < 0:
        y = -x_scalar
    else:
        y = x_scalar
    return y


def sign_if_elif_else(x_scalar):
    if x_scalar > 0:
        s = 1.0
    elif x_scalar < 0:
        s = -1.0
    else:
        s = 0.0
    return s


def grade_elif_chain(score_scalar):
    if score_scalar >= 90:
        grade = 4
    elif score_scalar >= 80:
        grade = 3
    elif score_scalar >= 70:
        grade = 2
    elif score_scalar >= 60:
        grade = 1
    else:
        grade = 0
    return grade


def clip_nested_if(x_scalar, lo_scalar, hi_scalar):
    if x_scalar < hi_scalar:
        if x_scalar < lo_scalar:
            y = lo_scalar
        else:
            y = x_scalar
    else:
        y = hi_scalar
    return y


def if_without_else(x_scalar):
    y = x_scalar * 2
    if y < 0:
        y = -y
    return y + 1


def returns_in_both_branches(x_vec):
    if x_vec.sum() > 0:
        return x_vec * 2
    else:
        return x_vec - 1


def early_return_then_fall_through(x_scalar):
    if x_scalar < 0:
        return -1.0
    y = x_scalar * 2
    return y


def return_in_elif(x_scalar):
    if x_scalar > 10:
        return x_scalar - 10
    elif x_scalar > 5:
        return x_scalar * 0
    y = x_scalar + 100
    return y


def nested_returns(x_scalar, y_scalar):
    if x_scalar > 0:
        if y_scalar > 0:
            return x_scalar + y_scalar
        return x_scalar - y_scalar
    return -x_scalar


def bound_in_both_branches(x_vec):
    if x_vec[0] > x_vec[-1]:
        first = x_vec[0]
        last = x_vec[-1]
    else:
        first = x_vec[-1]
        last = x_vec[0]
    return first - last


def branch_on_bool_arg(flag_bool, x_vec):
    if flag_bool:
        return x_vec.max()
    else:
        return x_vec.min()


def branch_on_python_and_traced(x_vec, mode_py):
    if mode_py == "center":
        x_vec = x_vec - x_vec.mean()
    else:
        x_vec = x_vec * 0
    if x_vec[0] > 0:
        x_vec = x_vec * 10
    return x_vec


def if_all_positive(x_vec):
    if np.all(x_vec > 0):
        out = np.log(x_vec)
    else:
        out = x_vec
    return out


def if_any_negative(x_vec):
    if np.any(x_vec < 0):
        x_vec = np.abs(x_vec)
    return x_vec.sum()


def ternary_abs(x_scalar):
    return x_scalar if x_scalar > 0 else -x_scalar


def nested_ternary(x_scalar):
    return 1.0 if x_scalar > 1 else (0.0 if x_scalar > -1 else -1.0)


def ternary_python_ints_in_expression(x_vec, k_int):
    return x_vec * (2 if k_int > 0 else 3)


def ternary_picks_array(x_vec, y_vec):
    return x_vec if x_vec.sum() > y_vec.sum() else y_vec


def ternary_lazy_index(x_vec, i_int):
    return x_vec[i_int] if i_int < len(x_vec) else -1.0


def update_in_one_branch(x_vec):
    y = x_vec
    if y.mean() > 0:
        y = y - y.mean()
    return y


def elif_on_integer(n_int):
    if n_int % 3 == 0:
        r = n_int // 3
    elif n_int % 3 == 1:
        r = n_int * 2
    else:
        r = -n_int
    return r


def tuple_assign_in_branches(x_scalar):
    if x_scalar > 0:
        a, c = x_scalar, 2 * x_scalar
    else:
        a, c = -x_scalar, x_scalar
    return a * c


def return_tuple_from_branches(x_scalar):
    if x_scalar > 0:
        return x_scalar, x_scalar * 2
    else:
        return -x_scalar, x_scalar


def early_return_of_tuple(x_scalar):
    if x_scalar > 0:
        return x_scalar, x_scalar * 2
    y = x_scalar * 3
    return y, y


def branches_of_different_lengths(x_vec):
    if x_vec.sum() > 0:
        y = x_vec[:2]
    else:
        y = x_vec[:3]
    return y * 2


def sequential_ifs(x_scalar):
    y = x_scalar
    if y > 1:
        y = y / 2
    if y > 1:
        y = y / 2
    if y < -1:
        y = y * -1
    return y


def collatz_step(n_int):
    if n_int % 2 == 0:
        return n_int // 2
    else:
        return 3 * n_int + 1


def python_shape_then_traced(x_vec):
    if x_vec.shape[0] > 3:
        head = x_vec[:3]
    else:
        head = x_vec
    if head.sum() > x_vec.sum():
        return head.sum()
    return x_vec.sum()


def deeply_nested_if(a_scalar, b_scalar, c_scalar):
    if a_scalar > 0:
        if b_scalar > 0:
            if c_scalar > 0:
                r = a_scalar + b_scalar + c_scalar
            else:
                r = a_scalar + b_scalar
        else:
            r = a_scalar
    else:
        if c_scalar > 0:
            r = c_scalar
        else:
            r = a_scalar * 0
    return r


def float32_branch_with_python_float(x_scalar32):
    if x_scalar32 > 0:
        y = x_scalar32 * 2
    else:
        y = 0.5
    return y


def if_on_matrix_trace(x_mat):
    if x_mat[0, 0] + x_mat[1, 1] > 0:
        return x_mat @ x_mat
    return x_mat.T


def if_reassigns_argument_and_local(x_vec, y_scalar):
    scale = 1.0
    if y_scalar > 1:
        x_vec = x_vec * y_scalar
        scale = y_scalar
    elif y_scalar < -1:
        x_vec = x_vec / y_scalar
    return x_vec, scale


def if_on_boolean_array_element(mask_vec, x_vec):
    if mask_vec[0]:
        return x_vec[0]
    if mask_vec[1]:
        return x_vec[1]
    return x_vec[2]


def pass_in_branch(x_scalar):
    y = x_scalar
    if x_scalar > 0:
        pass
    else:
        y = y - 1
    return y


XFAIL: dict = {}


def assignment_expression_in_test(x_vec, n_int):
    # `:=` in a test binds total: a later staged `if` must carry it, not start it unbound.
    if (total := x_vec.sum()) > 100.0:
        x_vec = x_vec + 1.0
    if n_int > 0:
        total = total + 1.0
    return total


def assignment_expression_in_comprehension(x_vec, n_int):
    # `:=` in a comprehension binds last in the function: the staged `if` changes it.
    last = x_vec[0]
    if n_int > 0:
        doubled = [(last := v * 2.0) for v in x_vec]  # noqa: F841
    return last


def chained_assignment_in_branch(x_scalar):
    a = c = x_scalar * 2
    if a > 0:
        a = c = a + 1
    return a + c


def delete_after_branch(x_scalar):
    y = x_scalar * 2
    if x_scalar > 0:
        y = y + 1
    z = y
    del y
    return z


def python_if_then_traced_elif(x_scalar, mode_py):
    if mode_py == 1:
        return x_scalar
    elif x_scalar > 0:
        return x_scalar * 2
    return x_scalar * 3


CASES = [
    (assignment_expression_in_test, [(vec(1.0, 2.0), i64(1)), (vec(1.0, 2.0), i64(-1))]),
    (assignment_expression_in_comprehension, [(vec(1.0, 2.0), i64(1)),
                                              (vec(1.0, 2.0), i64(-1))]),
    (chained_assignment_in_branch, [(f64(1.0),), (f64(-1.0),)]),
    (delete_after_branch, [(f64(1.0),), (f64(-1.0),)]),
    (python_if_then_traced_elif, [(f64(1.0), 2), (f64(-1.0), 2)]),
    (abs_if_else, [(f64(-2.5),), (f64(3.0),)]),
    (sign_if_elif_else, [(f64(2.0),), (f64(-3.0),), (f64(0.0),)]),
    (grade_elif_chain, [(f64(95.0),), (f64(85.0),), (f64(75.0),), (f64(65.0),), (f64(10.0),)]),
    (clip_nested_if, [(f64(-5.0), f64(-1.0), f64(1.0)), (f64(0.5), f64(-1.0), f64(1.0)),
                      (f64(7.0), f64(-1.0), f64(1.0))]),
    (if_without_else, [(f64(-1.5),), (f64(2.0),)]),
    (returns_in_both_branches, [(vec(1.0, 2.0, 3.0),), (vec(-1.0, -2.0, 0.5),)]),
    (early_return_then_fall_through, [(f64(-3.0),), (f64(4.0),)]),
    (return_in_elif, [(f64(12.0),), (f64(7.0),), (f64(1.0),)]),
    (nested_returns, [(f64(1.0), f64(2.0)), (f64(1.0), f64(-2.0)), (f64(-1.0), f64(2.0))]),
    (bound_in_both_branches, [(vec(5.0, 1.0, 2.0),), (vec(1.0, 1.0, 5.0),)]),
    (branch_on_bool_arg, [(b(True), vec(1.0, 5.0, 3.0)), (b(False), vec(1.0, 5.0, 3.0))]),
    (branch_on_python_and_traced, [(vec(3.0, 1.0, 2.0), "center"),
                                   (vec(1.0, 2.0, 3.0), "center")]),
    (if_all_positive, [(vec(1.0, 2.0, 3.0),), (vec(1.0, -2.0, 3.0),)]),
    (if_any_negative, [(vec(1.0, -2.0, 3.0),), (vec(1.0, 2.0, 3.0),)]),
    (ternary_abs, [(f64(-4.0),), (f64(4.0),)]),
    (nested_ternary, [(f64(3.0),), (f64(0.0),), (f64(-3.0),)]),
    (ternary_python_ints_in_expression, [(vec(1.0, 2.0), i64(1)), (vec(1.0, 2.0), i64(-1))]),
    (ternary_picks_array, [(vec(5.0, 5.0), vec(1.0, 1.0)), (vec(0.0, 0.0), vec(1.0, 1.0))]),
    (ternary_lazy_index, [(vec(1.0, 2.0, 3.0), i64(1)), (vec(1.0, 2.0, 3.0), i64(7))]),
    (update_in_one_branch, [(vec(1.0, 2.0, 6.0),), (vec(-1.0, -2.0, 0.0),)]),
    (elif_on_integer, [(i64(9),), (i64(10),), (i64(11),)]),
    (tuple_assign_in_branches, [(f64(2.0),), (f64(-3.0),)]),
    (return_tuple_from_branches, [(f64(2.0),), (f64(-3.0),)]),
    (early_return_of_tuple, [(f64(2.0),), (f64(-3.0),)]),
    (branches_of_different_lengths, [(vec(1.0, 2.0, 3.0, 4.0),), (vec(-1.0, -2.0, -3.0, 4.0),)]),
    (sequential_ifs, [(f64(8.0),), (f64(1.5),), (f64(-4.0),), (f64(0.5),)]),
    (collatz_step, [(i64(10),), (i64(7),)]),
    (python_shape_then_traced, [(vec(1.0, 2.0, 3.0, -10.0),), (vec(1.0, 2.0, 3.0, 10.0),)]),
    (deeply_nested_if, [(f64(1.0), f64(1.0), f64(1.0)), (f64(1.0), f64(1.0), f64(-1.0)),
                        (f64(1.0), f64(-1.0), f64(1.0)), (f64(-1.0), f64(1.0), f64(1.0)),
                        (f64(-1.0), f64(1.0), f64(-1.0))]),
    (float32_branch_with_python_float, [(f32(1.5),), (f32(-1.5),)]),
    (if_on_matrix_trace, [(np.array([[1.0, 2.0], [3.0, 4.0]]),),
                          (np.array([[-1.0, 2.0], [3.0, -4.0]]),)]),
    (if_reassigns_argument_and_local, [(vec(1.0, 2.0), f64(3.0)), (vec(1.0, 2.0), f64(-4.0)),
                                       (vec(1.0, 2.0), f64(0.5))]),
    (if_on_boolean_array_element, [(vec(True, False, False, dtype=bool), vec(1.0, 2.0, 3.0)),
                                   (vec(False, True, False, dtype=bool), vec(1.0, 2.0, 3.0)),
                                   (vec(False, False, True, dtype=bool), vec(1.0, 2.0, 3.0))]),
    (pass_in_branch, [(f64(1.0),), (f64(-1.0),)]),
]


def sort_local_array_if(n_int):
    """`t.sort()` on an array made in the function, under an `if` on a traced value."""
    t = np.array([3.0, 1.0, 2.0])
    if n_int > 2:
        t.sort()
    else:
        t *= 2
    return t


CASES += [
    (sort_local_array_if, [(i64(0),), (i64(4),)]),
]
