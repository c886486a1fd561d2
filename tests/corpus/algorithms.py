"""Small algorithms that combine the constructs: loops in branches in loops, early
exits, carried scalars and arrays, helpers."""
import numpy as np

from . import f64, i64, mat, vec


def max_subarray_sum(x_vec):
    best = x_vec[0]
    current = 0.0
    for v in x_vec:
        current = current + v if current > 0 else v
        if current > best:
            best = current
    return best


def binary_search(sorted_vec, target_scalar):
    lo, hi = 0, len(sorted_vec) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if sorted_vec[mid] == target_scalar:
            return mid
        elif sorted_vec[mid] < target_scalar:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def is_prime(n_int):
    if n_int < 2:
        return False
    d = 2
    while d * d <= n_int:
        if n_int % d == 0:
            return False
        d += 1
    return True


def integer_sqrt(n_int):
    r = 0
    while (r + 1) * (r + 1) <= n_int:
        r += 1
    return r


def fast_power(base_scalar, exponent_int):
    result = 1.0
    while exponent_int > 0:
        if exponent_int % 2 == 1:
            result = result * base_scalar
        base_scalar = base_scalar * base_scalar
        exponent_int = exponent_int // 2
    return result


def argmax_by_loop(x_vec):
    best_i = 0
    for i, v in enumerate(x_vec):
        if v > x_vec[best_i]:
            best_i = i
    return best_i


def count_inversions(x_vec, n_int):
    count = 0
    for i in range(n_int):
        for j in range(i + 1, n_int):
            if x_vec[i] > x_vec[j]:
                count += 1
    return count


def longest_positive_run(x_vec):
    best = 0
    run = 0
    for v in x_vec:
        if v > 0:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


def trapezoid_integral_of_square(a_scalar, b_scalar, n_int):
    h = (b_scalar - a_scalar) / n_int
    total = 0.0
    for i in range(n_int + 1):
        x = a_scalar + i * h
        w = 0.5 if i == 0 or i == n_int else 1.0
        total += w * x * x
    return total * h


def reverse_digits(n_int):
    out = 0
    while n_int > 0:
        out = out * 10 + n_int % 10
        n_int = n_int // 10
    return out


def sum_multiples_of_3_or_5(n_int):
    total = 0
    for k in range(n_int):
        if k % 3 == 0 or k % 5 == 0:
            total += k
    return total


def horner(x_scalar, coefficients_py):
    acc = 0.0
    for c in coefficients_py:
        acc = acc * x_scalar + c
    if acc < 0:
        acc = -acc
    return acc


def stable_softmax_or_uniform(x_vec):
    m = x_vec.max()
    if m - x_vec.min() > 50:
        out = np.where(x_vec == m, 1.0, 0.0)
    else:
        e = np.exp(x_vec - m)
        out = e / e.sum()
    return out


def power_iteration(x_mat, tol_scalar):
    v = np.ones(x_mat.shape[0]) / np.sqrt(x_mat.shape[0])
    eigenvalue = 0.0
    steps = 0
    while steps < 100:
        w = x_mat @ v
        new_eigenvalue = v @ w
        v = w / np.sqrt(w @ w)
        steps += 1
        if abs(new_eigenvalue - eigenvalue) < tol_scalar:
            break
        eigenvalue = new_eigenvalue
    return new_eigenvalue, steps


def kth_smallest(x_vec, k_int):
    work = x_vec
    smallest = work.min()
    for _ in range(k_int):
        work = np.where(work == work.min(), np.inf, work)
        smallest = work.min()
    return smallest


def piecewise_linear(x_scalar):
    if x_scalar < -1:
        y = -1.0
    elif x_scalar < 0:
        y = x_scalar
    elif x_scalar < 1:
        y = 2 * x_scalar
    else:
        y = 2.0 + (x_scalar - 1) * 0.5
    return y


def gradient_descent_early_stop(x0_scalar, lr_scalar):
    x = x0_scalar
    for step in range(50):  # converges in 23 steps from 0.0 at lr 0.25
        grad = 2 * (x - 3)
        if abs(grad) < 1e-6:
            return x, step
        x = x - lr_scalar * grad
    return x, -1


def histogram_by_loop(x_vec, n_bins_py):
    counts = np.zeros(n_bins_py, dtype=np.int64)
    for v in x_vec:
        k = np.floor(v).astype(np.int64)
        if 0 <= k and k < n_bins_py:
            counts = counts + (np.arange(n_bins_py) == k)
    return counts


def hailstone_max(n_int):
    peak = n_int
    while n_int > 1:
        n_int = n_int // 2 if n_int % 2 == 0 else 3 * n_int + 1
        if n_int > peak:
            peak = n_int
    return peak


def moving_average(x_vec, window_int):
    out = np.zeros(0)
    i = 0
    while i + window_int <= len(x_vec):
        out = np.concatenate([out, np.expand_dims(x_vec[i:i + window_int].mean(), 0)])
        i += 1
    return out


def first_repeated_difference(x_vec):
    previous = x_vec[1] - x_vec[0]
    for i in range(2, len(x_vec)):
        d = x_vec[i] - x_vec[i - 1]
        if d == previous:
            return i
        previous = d
    return -1


def sqrt_by_bisection_then_newton(a_scalar):
    lo, hi = 0.0, a_scalar + 1
    for _ in range(5):
        mid = (lo + hi) / 2
        if mid * mid > a_scalar:
            hi = mid
        else:
            lo = mid
    x = (lo + hi) / 2
    while abs(x * x - a_scalar) > 1e-10:
        x = x - (x * x - a_scalar) / (2 * x)
    return x


def matrix_row_normalize_if_needed(x_mat):
    out = x_mat
    for i in range(x_mat.shape[0]):
        norm = np.sqrt((x_mat[i] * x_mat[i]).sum())
        if norm > 1:
            scale = np.where(np.arange(x_mat.shape[0]) == i, 1 / norm, 1.0)
            out = out * np.expand_dims(scale, 1)
    return out


def babylonian_steps_with_budget(a_scalar, budget_int):
    x = a_scalar
    steps = 0
    while steps < budget_int:
        nxt = (x + a_scalar / x) / 2
        if abs(nxt - x) < 1e-12:
            break
        x = nxt
        steps += 1
    else:
        x = -x
    return x, steps


def lcm_by_gcd(a_int, b_int):
    x, y = a_int, b_int
    while y:
        x, y = y, x % y
    return a_int * b_int // x if x != 0 else 0


XFAIL: dict = {}

CASES = [
    (max_subarray_sum, [(vec(-2.0, 1.0, -3.0, 4.0, -1.0, 2.0, 1.0, -5.0),),
                        (vec(-2.0, -1.0, -3.0, -4.0, -1.0, -2.0, -1.0, -5.0),)]),
    (binary_search, [(vec(1.0, 3.0, 5.0, 7.0, 9.0), f64(7.0)),
                     (vec(1.0, 3.0, 5.0, 7.0, 9.0), f64(4.0)),
                     (vec(1.0, 3.0, 5.0, 7.0, 9.0), f64(1.0))]),
    (is_prime, [(i64(1),), (i64(2),), (i64(9),), (i64(97),)]),
    (integer_sqrt, [(i64(0),), (i64(15),), (i64(16),)]),
    (fast_power, [(f64(2.0), i64(0)), (f64(2.0), i64(10)), (f64(-1.5), i64(3))]),
    (argmax_by_loop, [(vec(1.0, 5.0, 3.0),), (vec(9.0, 5.0, 3.0),)]),
    (count_inversions, [(vec(3.0, 1.0, 2.0, 0.0), i64(4)), (vec(3.0, 1.0, 2.0, 0.0), i64(0)),
                        (vec(3.0, 1.0, 2.0, 0.0), i64(2))]),
    (longest_positive_run, [(vec(1.0, 2.0, -1.0, 3.0, 4.0, 5.0),),
                            (vec(-1.0, -2.0, -1.0, -3.0, 4.0, -5.0),)]),
    (trapezoid_integral_of_square, [(f64(0.0), f64(1.0), i64(1)), (f64(0.0), f64(1.0), i64(10))]),
    (reverse_digits, [(i64(0),), (i64(1234),)]),
    (sum_multiples_of_3_or_5, [(i64(0),), (i64(10),), (i64(16),)]),
    (horner, [(f64(2.0), (1.0, -3.0, 2.0)), (f64(1.5), (1.0, -3.0, 2.0))]),
    (stable_softmax_or_uniform, [(vec(1.0, 2.0, 3.0),), (vec(1.0, 200.0, 3.0),)]),
    (power_iteration, [(mat([[2.0, 0.0], [0.0, 1.0]]), f64(1e-9)),
                       (mat([[2.0, 1.0], [1.0, 3.0]]), f64(1e-9))]),
    (kth_smallest, [(vec(5.0, 1.0, 4.0, 2.0), i64(0)), (vec(5.0, 1.0, 4.0, 2.0), i64(2))]),
    (piecewise_linear, [(f64(-2.0),), (f64(-0.5),), (f64(0.5),), (f64(3.0),)]),
    (gradient_descent_early_stop, [(f64(3.0), f64(0.25)), (f64(0.0), f64(0.25)),
                                   (f64(0.0), f64(0.0))]),
    (histogram_by_loop, [(vec(0.5, 1.5, 1.7, 9.0), 3), (vec(-1.0, 2.5, 2.2, 0.1), 3)]),
    (hailstone_max, [(i64(1),), (i64(7),), (i64(16),)]),
    (moving_average, [(vec(1.0, 2.0, 3.0, 4.0), i64(2)), (vec(1.0, 2.0, 3.0, 4.0), i64(5)),
                      (vec(1.0, 2.0, 3.0, 4.0), i64(4))]),
    (first_repeated_difference, [(vec(1.0, 2.0, 4.0, 6.0),), (vec(1.0, 2.0, 4.0, 7.0),)]),
    (sqrt_by_bisection_then_newton, [(f64(2.0),), (f64(100.0),)]),
    (matrix_row_normalize_if_needed, [(mat([[3.0, 4.0], [0.1, 0.2]]),),
                                      (mat([[0.3, 0.4], [0.1, 0.2]]),)]),
    (babylonian_steps_with_budget, [(f64(2.0), i64(100)), (f64(2.0), i64(2)), (f64(1.0), i64(5))]),
    (lcm_by_gcd, [(i64(4), i64(6)), (i64(0), i64(0)), (i64(7), i64(3))]),
]
