"""Levenshtein distance of two integer sequences on a NumPy table."""
import numpy as np


def edit_distance(a, b):
    m, n = len(a), len(b)
    D = np.zeros((m + 1, n + 1), dtype=np.int64)
    for i in range(m + 1):
        D[i, 0] = i
    for j in range(n + 1):
        D[0, j] = j
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            D[i, j] = np.minimum(np.minimum(D[i - 1, j] + 1, D[i, j - 1] + 1),
                                 D[i - 1, j - 1] + cost)
    return D[m, n]


CASES = [
    (edit_distance, [(np.array([1, 2, 3, 4]), np.array([1, 3, 4])),
                     (np.array([5, 5, 5, 5]), np.array([1, 2, 3])),
                     (np.array([1, 2, 3, 4]), np.array([1, 2, 3]))]),
]
