"""`print` of traced values (printed every time the graph runs) and passing `assert`s."""
import numpy as np

from . import f32, f64, i64, vec


def print_each_element(x_vec, n_int):
    for i in range(n_int):
        print("x", i, x_vec[i])
    return n_int


def print_in_branches(x_scalar):
    if x_scalar > 0:
        print("positive", x_scalar)
        y = x_scalar
    else:
        print("not positive", x_scalar)
        y = -x_scalar
    return y


def print_whole_array(x_vec):
    print(x_vec)
    if x_vec.sum() > 0:
        x_vec = x_vec - 1
        print(x_vec)
    return x_vec


def print_with_sep_and_end(x_scalar, y_scalar):
    if x_scalar > y_scalar:
        print(x_scalar, y_scalar, sep=" > ", end="!\n")
    else:
        print(x_scalar, y_scalar, sep=" <= ", end="?\n")
    return x_scalar - y_scalar


def print_collatz_trajectory(n_int):
    while n_int != 1:
        print(n_int)
        if n_int % 2 == 0:
            n_int = n_int // 2
        else:
            n_int = 3 * n_int + 1
    return n_int


def print_running_total(x_vec):
    total = 0.0
    for v in x_vec:
        total += v
        print("running total:", total)
        if total < 0:
            print("below zero after", v)
    return total


def print_constant_in_staged_branch(x_scalar):
    if x_scalar > 0:
        print("positive")
        return x_scalar
    print("not positive")
    return -x_scalar


def print_after_loop(n_int):
    total = 0
    for i in range(n_int):
        total += i
    print("sum below", n_int, "is", total)
    return total


def print_in_helper(x_scalar):
    return _report("value", x_scalar) if x_scalar > 1 else _report("small", x_scalar * 0)


def _report(label, value):
    print(label, value)
    return value


def print_int_and_bool(n_int):
    even = n_int % 2 == 0
    print("n =", n_int, "even:", even)
    if even:
        print("half:", n_int // 2)
    return even


def print_float32_value(x_scalar32):
    y = x_scalar32 * np.float32(1.5)
    if y > 1:
        print("scaled", y)
    return y


def print_on_break(x_vec):
    i = 0
    while i < len(x_vec):
        if x_vec[i] < 0:
            print("negative at", i, x_vec[i])
            break
        i += 1
    return i


def assert_then_branch(x_vec):
    assert x_vec.min() > -10, "too small"
    if x_vec.sum() > 0:
        return x_vec.max()
    return x_vec.min()


def assert_in_loop(x_vec):
    total = 0.0
    for v in x_vec:
        assert v == v, "nan"
        if v > 0:
            total += v
    return total


def assert_without_message(x_scalar):
    assert x_scalar < 1000
    return x_scalar * 2 if x_scalar > 0 else x_scalar


def assert_in_branch(x_scalar):
    if x_scalar > 0:
        assert x_scalar > 0, "positive branch"
        y = np.sqrt(x_scalar)
    else:
        assert x_scalar <= 0
        y = -x_scalar
    return y


def assert_in_while(n_int):
    steps = 0
    while n_int > 1:
        assert n_int > 0, "n stays positive"
        n_int = n_int // 2
        steps += 1
    return steps


def assert_with_chain(x_scalar):
    assert -100 < x_scalar < 100, "out of range"
    return x_scalar if x_scalar > 0 else -x_scalar


def print_and_assert_together(x_vec, n_int):
    total = 0.0
    for i in range(n_int):
        assert i < len(x_vec)
        total += x_vec[i]
        print(i, total)
    return total


def print_and_return_nothing(x_scalar):
    if x_scalar > 0:
        print("positive", x_scalar)
        return
    print("not positive", x_scalar)


XFAIL: dict = {}

CASES = [
    (print_and_return_nothing, [(f64(1.0),), (f64(-1.0),)]),
    (print_each_element, [(vec(1.5, 2.5, 3.5), i64(0)), (vec(1.5, 2.5, 3.5), i64(3))]),
    (print_in_branches, [(f64(2.0),), (f64(-2.0),)]),
    (print_whole_array, [(vec(1.0, 2.0),), (vec(-1.0, 0.5),)]),
    (print_with_sep_and_end, [(f64(2.0), f64(1.0)), (f64(1.0), f64(2.0))]),
    (print_collatz_trajectory, [(i64(1),), (i64(6),)]),
    (print_running_total, [(vec(1.0, 2.0, 3.5),), (vec(-1.0, 0.25, 0.0),)]),
    (print_constant_in_staged_branch, [(f64(2.0),), (f64(-2.0),)]),
    (print_after_loop, [(i64(0),), (i64(4),)]),
    (print_in_helper, [(f64(3.0),), (f64(0.5),)]),
    (print_int_and_bool, [(i64(4),), (i64(7),)]),
    (print_float32_value, [(f32(2.0),), (f32(0.25),)]),
    (print_on_break, [(vec(1.0, -2.0, 3.0),), (vec(1.0, 2.0, 3.0),)]),
    (assert_then_branch, [(vec(1.0, 2.0),), (vec(-1.0, -2.0),)]),
    (assert_in_loop, [(vec(1.0, -2.0, 3.0),), (vec(-1.0, -2.0, -3.0),)]),
    (assert_without_message, [(f64(3.0),), (f64(-3.0),)]),
    (assert_in_branch, [(f64(4.0),), (f64(-4.0),)]),
    (assert_in_while, [(i64(1),), (i64(20),)]),
    (assert_with_chain, [(f64(3.0),), (f64(-3.0),)]),
    (print_and_assert_together, [(vec(1.0, 2.0, 3.0), i64(2)), (vec(1.0, 2.0, 3.0), i64(0))]),
]
