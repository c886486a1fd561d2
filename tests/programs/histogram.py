"""A histogram by loops: the bin of each value counted into a preallocated array."""
import numpy as np


def histogram(data, lo, hi, bins=4):
    if hi <= lo:
        raise ValueError("empty range")
    counts = np.zeros(bins, dtype=np.int64)
    width = (hi - lo) / bins
    for v in data:
        if lo <= v < hi:
            idx = ((v - lo) // width).astype(np.int64)
            counts[idx] += 1
        elif v == hi:
            counts[bins - 1] += 1
    return counts


CASES = [
    (histogram, [(np.array([0.1, 0.5, 0.9, 0.2, 1.0, -3.0]), np.float64(0.0), np.float64(1.0)),
                 (np.array([2.0, 2.5, 3.0, 3.5, 4.0, 9.0]), np.float64(2.0), np.float64(4.0)),
                 (np.array([0.1, 0.5, 0.9, 0.2, 1.0, -3.0]), np.float64(1.0), np.float64(0.0))]),
]
