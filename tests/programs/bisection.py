"""Bisection for a root of a cubic whose coefficients are arguments, with a bracket check."""
import numpy as np


def bisection(a, b, lo, hi, tol=1e-9):
    def f(x):
        return x ** 3 + a * x + b

    if f(lo) * f(hi) > 0:
        raise ValueError("root not bracketed")
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if f(lo) * f(mid) <= 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def bisection_sign(a, b, lo, hi):
    """A fixed number of halvings, the sign test written with np.sign."""
    f_lo = lo ** 3 + a * lo + b
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        f_mid = mid ** 3 + a * mid + b
        if np.sign(f_mid) == np.sign(f_lo):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return mid


CASES = [
    (bisection, [(np.float64(-2.0), np.float64(-5.0), np.float64(0.0), np.float64(3.0)),
                 (np.float64(1.0), np.float64(1.0), np.float64(-2.0), np.float64(0.0)),
                 (np.float64(1.0), np.float64(1.0), np.float64(0.0), np.float64(2.0))]),
    (bisection_sign, [(np.float64(-2.0), np.float64(-5.0), np.float64(0.0), np.float64(3.0)),
                      (np.float64(1.0), np.float64(1.0), np.float64(-2.0), np.float64(0.0))]),
]
