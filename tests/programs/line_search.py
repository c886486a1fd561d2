"""Backtracking (Armijo) line search: a closure reads the step that the loop rebinds."""
import numpy as np


def backtracking(x, d, alpha=1.0, beta=0.5, c=1e-4):
    def f(z):
        return ((z - 1.0) ** 2).sum()

    fx = f(x)
    slope = (2.0 * (x - 1.0)) @ d
    t = alpha

    def trial():
        return f(x + t * d)

    for _ in range(20):
        with np.errstate(over="ignore"):
            if trial() <= fx + c * t * slope:
                return t, x + t * d
        t = beta * t
    return t, x


CASES = [
    (backtracking, [(np.array([3.0, -2.0]), np.array([-2.0, 3.0])),
                    (np.array([3.0, -2.0]), np.array([-20.0, 30.0])),
                    (np.array([3.0, -2.0]), np.array([1.0, -1.0]))]),
]
