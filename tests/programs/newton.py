"""Newton's method for a square root, iterated until the residual is below a tolerance."""
import numpy as np


def newton_sqrt(a, tol=1e-10, max_iter=100):
    if a < 0:
        raise ValueError("square root of a negative number")
    x = a if a > 1 else np.float64(1.0)
    n_iter = 0
    while abs(x * x - a) > tol and n_iter < max_iter:
        x = x - (x * x - a) / (2 * x)
        n_iter += 1
    return x, n_iter


CASES = [
    (newton_sqrt, [(np.float64(2.0),), (np.float64(0.25),), (np.float64(1e4),),
                   (np.float64(-1.0),)]),
]
