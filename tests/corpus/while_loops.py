"""`while` loops: break, continue, early return, `while True:` ended by break, while/else."""
from . import f32, f64, i64, vec


def count_down(n_int):
    steps = 0
    while n_int > 0:
        n_int -= 1
        steps += 1
    return steps


def collatz_steps(n_int):
    steps = 0
    while n_int != 1:
        if n_int % 2 == 0:
            n_int = n_int // 2
        else:
            n_int = 3 * n_int + 1
        steps += 1
    return steps


def while_break_at_negative(x_vec):
    i = 0
    while i < len(x_vec):
        if x_vec[i] < 0:
            break
        i += 1
    return i


def while_continue_skips_negatives(x_vec):
    i = 0
    total = 0.0
    while i < len(x_vec):
        v = x_vec[i]
        i += 1
        if v < 0:
            continue
        total += v
    return total


def while_early_return_search(x_vec, target_scalar):
    i = 0
    while i < len(x_vec):
        if x_vec[i] == target_scalar:
            return i
        i += 1
    return -1


def while_true_break(n_int):
    i = 0
    while True:
        i += 1
        if i * i >= n_int:
            break
    return i


def while_true_return(x_scalar):
    steps = 0
    while True:
        if x_scalar < 1:
            return steps
        x_scalar = x_scalar / 2
        steps += 1


def while_else_search(x_vec, target_scalar):
    i = 0
    found = -1
    while i < len(x_vec):
        if x_vec[i] > target_scalar:
            found = i
            break
        i += 1
    else:
        found = len(x_vec)
    return found


def while_else_without_break(n_int):
    total = 0
    while total < n_int:
        total += 3
    else:
        total = total * 10
    return total


def newton_sqrt(a_scalar):
    x = a_scalar
    while abs(x * x - a_scalar) > 1e-9 * a_scalar:
        x = (x + a_scalar / x) / 2
    return x


def euclid_gcd(a_int, b_int):
    while b_int != 0:
        a_int, b_int = b_int, a_int % b_int
    return a_int


def power_of_two_at_least(n_int):
    p = 1
    while p < n_int:
        p *= 2
    return p


def digit_sum(n_int):
    s = 0
    while n_int > 0:
        s += n_int % 10
        n_int //= 10
    return s


def python_while_with_traced_branch(x_scalar, k_py):
    i = 0
    while i < k_py:
        if x_scalar > 10:
            x_scalar = x_scalar - 10
        else:
            x_scalar = x_scalar * 2
        i += 1
    return x_scalar


def halve_until_small(x_scalar):
    count = 0.0
    rest = x_scalar
    while rest > 1:
        count += 1
        rest /= 2
    return count, rest


def fibonacci(n_int):
    a, c = 0, 1
    i = 0
    while i < n_int:
        a, c = c, a + c
        i += 1
    return a


def while_break_and_continue(x_vec):
    i = 0
    total = 0.0
    while i < len(x_vec):
        v = x_vec[i]
        i += 1
        if v == 0:
            continue
        if v > 100:
            break
        total += 1 / v
    return total, i


def while_return_in_nested_if(x_vec, lo_scalar):
    i = 0
    while i < len(x_vec):
        if x_vec[i] < lo_scalar:
            if x_vec[i] < 2 * lo_scalar:
                return -x_vec[i]
            return x_vec[i]
        i += 1
    return lo_scalar


def while_on_vector_sum(x_vec):
    while x_vec.sum() > 1:
        x_vec = x_vec / 2
    return x_vec


def while_two_breaks(x_vec, stop_scalar):
    i = 0
    reason = 0
    while i < len(x_vec):
        if x_vec[i] > stop_scalar:
            reason = 1
            break
        if x_vec[i] < -stop_scalar:
            reason = 2
            break
        i += 1
    return reason, i


def while_continue_even_numbers(n_int):
    i = 0
    total = 0
    while i < n_int:
        i += 1
        if i % 2 == 1:
            continue
        total += i
    return total


def bisection_cube_root(c_scalar):
    lo, hi = 0.0, 1.0 + c_scalar
    while hi - lo > 1e-6:
        mid = (lo + hi) / 2
        if mid * mid * mid > c_scalar:
            hi = mid
        else:
            lo = mid
    return lo


def float32_while(x_scalar32):
    steps = 0
    while x_scalar32 < 100:
        x_scalar32 = x_scalar32 * 3
        steps += 1
    return x_scalar32, steps


def while_condition_on_python_and_traced(x_vec, limit_py):
    i = 0
    acc = 0.0
    while i < limit_py and acc < 10:
        acc = acc + x_vec[i]
        i += 1
    return acc


def while_true_break_else_never(n_int):
    i = 0
    while True:
        i += 2
        if i >= n_int:
            break
    else:
        i = -100
    return i


def while_with_return_and_else(x_vec, target_scalar):
    i = 0
    while i < len(x_vec):
        if x_vec[i] == target_scalar:
            return i * 10
        i += 1
    else:
        i = i + 1000
    return i


def while_countdown_vector_state(x_vec, n_int):
    while n_int > 0:
        x_vec = x_vec[::-1] * 2
        n_int -= 1
    return x_vec


def while_else_return_unless_broken(x_vec):
    i = 0
    while i < 3:
        if x_vec[i] < 0:
            break
        i += 1
    else:
        return -1
    return i


def while_break_as_last_statement(x_vec):
    i = 0
    while i < 3:
        i += 1
        if x_vec[i - 1] < 0:
            break
    return i


XFAIL: dict = {}

def return_inside_while_skips_else(x_vec, n_int):
    """A `return` in the body leaves the function: the loop's `else` must not run."""
    i = 0
    while i < n_int:
        i += 1
        if x_vec[i - 1] > 0:
            return x_vec * i
    else:
        return x_vec - 1.0
    return x_vec


def while_else_reads_what_the_loop_bound(n_int):
    i = 0
    last = i64(-1)
    while i < n_int:
        last = i * 3
        i += 1
    else:
        result = last - 1   # `last` is read only here, in the `else`
    return result


CASES = [
    (while_else_reads_what_the_loop_bound, [(i64(0),), (i64(1),), (i64(4),)]),
    (return_inside_while_skips_else, [(vec(-1.0, 2.0, 3.0), i64(3)), (vec(-1.0, -2.0, -3.0), i64(3)),
                                      (vec(1.0, 2.0, 3.0), i64(0))]),
    (while_else_return_unless_broken, [(vec(1.0, -2.0, 3.0),), (vec(1.0, 2.0, 3.0),)]),
    (while_break_as_last_statement, [(vec(1.0, -2.0, 3.0),), (vec(1.0, 2.0, 3.0),)]),
    (count_down, [(i64(0),), (i64(1),), (i64(5),)]),
    (collatz_steps, [(i64(1),), (i64(6),), (i64(27),)]),
    (while_break_at_negative, [(vec(1.0, 2.0, 3.0),), (vec(1.0, -2.0, 3.0),),
                               (vec(-1.0, 2.0, 3.0),)]),
    (while_continue_skips_negatives, [(vec(1.0, -2.0, 3.0),), (vec(1.0, 2.0, 3.0),),
                                      (vec(-1.0, -2.0, -3.0),)]),
    (while_early_return_search, [(vec(1.0, 2.0, 3.0), f64(2.0)), (vec(1.0, 2.0, 3.0), f64(9.0)),
                                 (vec(1.0, 2.0, 3.0), f64(1.0))]),
    (while_true_break, [(i64(0),), (i64(1),), (i64(17),)]),
    (while_true_return, [(f64(0.5),), (f64(1.0),), (f64(40.0),)]),
    (while_else_search, [(vec(1.0, 5.0, 3.0), f64(2.0)), (vec(1.0, 5.0, 3.0), f64(9.0)),
                         (vec(1.0, 5.0, 3.0), f64(0.0))]),
    (while_else_without_break, [(i64(0),), (i64(1),), (i64(10),)]),
    (newton_sqrt, [(f64(1.0),), (f64(2.0),), (f64(1e6),)]),
    (euclid_gcd, [(i64(12), i64(18)), (i64(7), i64(0)), (i64(17), i64(5))]),
    (power_of_two_at_least, [(i64(1),), (i64(2),), (i64(100),)]),
    (digit_sum, [(i64(0),), (i64(7),), (i64(98765),)]),
    (python_while_with_traced_branch, [(f64(11.0), 3), (f64(1.0), 3), (f64(50.0), 3)]),
    (halve_until_small, [(f64(0.5),), (f64(2.0),), (f64(1000.0),)]),
    (fibonacci, [(i64(0),), (i64(1),), (i64(10),)]),
    (while_break_and_continue, [(vec(1.0, 0.0, 4.0, 200.0, 5.0),),
                                (vec(1.0, 2.0, 4.0, 8.0, 5.0),),
                                (vec(500.0, 2.0, 4.0, 8.0, 5.0),)]),
    (while_return_in_nested_if, [(vec(5.0, -1.0, 3.0), f64(0.0)),
                                 (vec(5.0, 1.0, 3.0), f64(2.0)),
                                 (vec(5.0, -9.0, 3.0), f64(-2.0)),
                                 (vec(5.0, 7.0, 3.0), f64(1.0))]),
    (while_on_vector_sum, [(vec(0.1, 0.2),), (vec(3.0, 4.0),)]),
    (while_two_breaks, [(vec(1.0, 2.0, 9.0), f64(5.0)), (vec(1.0, -7.0, 9.0), f64(5.0)),
                        (vec(1.0, 2.0, 3.0), f64(5.0))]),
    (while_continue_even_numbers, [(i64(0),), (i64(1),), (i64(7),)]),
    (bisection_cube_root, [(f64(8.0),), (f64(0.5),), (f64(0.0),)]),
    (float32_while, [(f32(200.0),), (f32(1.5),)]),
    (while_condition_on_python_and_traced, [(vec(1.0, 2.0, 3.0), 3), (vec(5.0, 6.0, 3.0), 3),
                                            (vec(20.0, 6.0, 3.0), 3)]),
    (while_true_break_else_never, [(i64(0),), (i64(5),)]),
    (while_with_return_and_else, [(vec(1.0, 2.0, 3.0), f64(2.0)),
                                  (vec(1.0, 2.0, 3.0), f64(7.0))]),
    (while_countdown_vector_state, [(vec(1.0, 2.0, 3.0), i64(0)), (vec(1.0, 2.0, 3.0), i64(3))]),
]
