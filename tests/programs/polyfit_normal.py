"""A least-squares polynomial fit through the normal equations, solved by Gaussian elimination."""
import numpy as np


def vandermonde(x, degree):
    V = np.ones((x.shape[0], degree + 1))
    for j in range(1, degree + 1):
        V[:, j] = V[:, j - 1] * x
    return V


def solve_gauss(M, r):
    M = M.copy()
    r = r.copy()
    n = M.shape[0]
    for k in range(n):
        for i in range(k + 1, n):
            factor = M[i, k] / M[k, k]
            M[i, k:] -= factor * M[k, k:]
            r[i] -= factor * r[k]
    coef = np.zeros(n)
    for i in range(n - 1, -1, -1):
        coef[i] = (r[i] - M[i, i + 1:] @ coef[i + 1:]) / M[i, i]
    return coef


def polyfit(x, y, degree=2):
    V = vandermonde(x, degree)
    return solve_gauss(V.T @ V, V.T @ y)


CASES = [
    (polyfit, [(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), np.array([1.0, 2.0, 5.0, 10.0, 17.0])),
               (np.array([-1.0, 0.0, 0.5, 2.0, 3.0]), np.array([0.3, -1.0, 2.0, 0.0, 1.0]))]),
]
GRAD = {"polyfit": (0, 1)}
