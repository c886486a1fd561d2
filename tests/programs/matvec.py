"""Matrix-vector product by loops, as in a first course on numerical methods."""
import numpy as np


def matvec(A, x):
    n, m = A.shape
    if m != x.shape[0]:
        raise ValueError("shapes do not match")
    y = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(m):
            s += A[i, j] * x[j]
        y[i] = s
    return y


def matvec_rows(A, x):
    """One dot product per row, the rows iterated directly, results appended to a list."""
    rows = []
    for row in A:
        rows.append(row @ x)
    return np.array(rows)


CASES = [
    (matvec, [(np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]]), np.array([1.0, 0.5, -2.0])),
              (np.array([[2.0, 0.0, 1.0], [1.0, 1.0, 1.0]]), np.array([0.0, 3.0, 1.0]))]),
    (matvec_rows, [(np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]]), np.array([1.0, 0.5, -2.0])),
                   (np.array([[2.0, 0.0, 1.0], [1.0, 1.0, 1.0]]), np.array([0.0, 3.0, 1.0]))]),
]
GRAD = {"matvec": (0, 1), "matvec_rows": (0, 1)}
XFAIL = {}
