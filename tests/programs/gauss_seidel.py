"""Gauss-Seidel iteration for A x = b, stopping when the update is below a tolerance."""
import numpy as np


def gauss_seidel(A, b, tol=1e-8, max_iter=50):
    n = A.shape[0]
    if A.shape != (n, n):
        raise ValueError("A must be square")
    x = np.zeros_like(b)
    for it in range(max_iter):
        x_old = x.copy()
        for i in range(n):
            s1 = A[i, :i] @ x[:i]
            s2 = A[i, i + 1:] @ x_old[i + 1:]
            x[i] = (b[i] - s1 - s2) / A[i, i]
        if np.sqrt(((x - x_old) ** 2).sum()) < tol:
            break
    return x, it


_A = np.array([[4.0, 1.0, 0.0], [1.0, 5.0, 2.0], [0.0, 2.0, 6.0]])

CASES = [
    (gauss_seidel, [(_A, np.array([1.0, 2.0, 3.0])),
                    (_A * 10.0, np.array([-1.0, 0.5, 2.0])),
                    (_A, np.array([0.0, 0.0, 0.0]))]),
]
