"""Collatz stopping times of a batch of starting values, into a preallocated array."""
import numpy as np


def collatz_lengths(ns):
    out = np.zeros_like(ns)
    for i in range(len(ns)):
        n = ns[i]
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        out[i] = steps
    return out


def collatz_max(n):
    """The largest value the sequence from `n` reaches, and its length."""
    if n < 1:
        raise ValueError("n must be positive")
    peak = n
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        if n > peak:
            peak = n
        steps += 1
    return peak, steps


CASES = [
    (collatz_lengths, [(np.array([1, 6, 7, 27]),), (np.array([2, 3, 9, 97]),)]),
    (collatz_max, [(np.int64(27),), (np.int64(1),), (np.int64(6),), (np.int64(0),)]),
]
