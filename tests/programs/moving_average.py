"""A moving-average filter with a running sum, the output preallocated."""
import numpy as np


def moving_average(x, window):
    if window < 1:
        raise ValueError("window must be positive")
    n = x.shape[0]
    out = np.empty(n - window + 1)
    acc = 0.0
    for i in range(n):
        acc += x[i]
        if i >= window:
            acc -= x[i - window]
        if i >= window - 1:
            out[i - window + 1] = acc / window
    return out


def moving_average_clipped(x, window, limit):
    """The same, each average clipped to a traced `limit`."""
    out = np.zeros(x.shape[0] - window + 1)
    for i in range(out.shape[0]):
        m = x[i:i + window].mean()
        if m > limit:
            m = limit
        out[i] = m
    return out


CASES = [
    (moving_average, [(np.array([1.0, 2.0, 4.0, 8.0, 16.0]), 3),
                      (np.array([-1.0, 0.5, 0.0, 2.0, 3.0]), 3)]),
    (moving_average_clipped, [(np.array([1.0, 2.0, 4.0, 8.0, 16.0]), 2, np.float64(5.0)),
                              (np.array([1.0, 2.0, 4.0, 8.0, 16.0]), 2, np.float64(50.0))]),
]
GRAD = {"moving_average": (0,)}
