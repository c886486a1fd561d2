"""Power iteration for the dominant eigenvalue, stopping at a tolerance."""
import numpy as np


def power_iteration(A, num_iters=100, tol=1e-9):
    v = np.ones(A.shape[0])
    v = v / np.sqrt(v @ v)
    for _ in range(num_iters):
        w = A @ v
        v_new = w / np.sqrt(w @ w)
        if np.sqrt(((v_new - v) ** 2).sum()) < tol:
            v = v_new
            break
        v = v_new
    return v @ A @ v, v


def power_iteration_while(A, tol=1e-9):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = 0.0
    diff = 1.0
    while diff > tol:
        w = A @ v
        lam_new = v @ w
        v = w / np.sqrt(w @ w)
        diff = abs(lam_new - lam)
        lam = lam_new
    return lam


CASES = [
    (power_iteration, [(np.array([[2.0, 1.0], [1.0, 3.0]]),),
                       (np.array([[5.0, 0.0], [0.0, 1.0]]),)]),
    (power_iteration_while, [(np.array([[2.0, 1.0], [1.0, 3.0]]),),
                             (np.array([[5.0, 0.0], [0.0, 1.0]]),)]),
]
