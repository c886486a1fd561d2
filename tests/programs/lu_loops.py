"""Doolittle LU factorization by loops, with a check for a zero pivot."""
import numpy as np


def lu(A):
    n = A.shape[0]
    L = np.eye(n)
    U = A.copy()
    for k in range(n):
        if U[k, k] == 0.0:
            raise ZeroDivisionError("zero pivot")
        for i in range(k + 1, n):
            L[i, k] = U[i, k] / U[k, k]
            U[i, k:] -= L[i, k] * U[k, k:]
    return L, U


CASES = [
    (lu, [(np.array([[4.0, 3.0, 2.0], [2.0, 1.0, 3.0], [3.0, 2.0, 1.0]]),),
          (np.array([[2.0, 1.0, 1.0], [4.0, 3.0, 3.0], [8.0, 7.0, 9.0]]),),
          (np.array([[0.0, 1.0, 1.0], [4.0, 3.0, 3.0], [8.0, 7.0, 9.0]]),)]),
]
GRAD = {"lu": (0,)}
