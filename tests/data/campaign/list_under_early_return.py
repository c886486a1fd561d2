# A generated program (issue #12 campaign): a list stacked by an `if` whose state path
# went through the `Placeholder` of a return value (TypeError while tracing).
import contextlib

import numpy as np


def f(n, k, x, p):
    a = np.int64(5)
    b = n * 2
    y = np.tanh(x)
    s = np.float64(0.0)
    done = False
    q = 0
    L = [s]
    if not (np.sum(y > 0.5) % 2 == 1):
        for j0, v0 in zip(y, y):
            try:
                return ((y - np.minimum(x, y)) + p + np.float32(1.0) * q, L)
            finally:
                s = s + 1.0
            s = s - ((y - y)).sum()
            b += p
        y = y * 0.5
    elif x[1] < -0.5:
        for j1, v1 in zip(y, x):
            L.append(y.sum())
    elif done:
        with np.errstate(divide='ignore', invalid='ignore'):
            with np.errstate(divide='ignore', invalid='ignore'):
                q = q * 3 + 1
                q = q + b
            with np.errstate(all='ignore'):
                L.append(np.int64(2))
                x = y
                y = y
    else:
        x = x * 1.5
        L.append((a + n))
        if p < 2:
            i2 = np.int64(0)
            while i2 < p and i2 < 8:
                i2 = i2 + 1
                q += 1
                q = (q * 4096 + 1) % 10**21
                q = q * 3 + 1
            else:
                done = q > 0
        elif np.minimum(n, k) % 2 == 0:
            return (np.where(y > -0.5, y[::-1], x) + a + np.float32(1.0) * q, L)
        elif np.sum(y > 0.5) % 2 == 1:
            s = (np.abs(y))[0]
        else:
            L.append(np.int64(0) + p)
    return (y + p + np.float32(1.0) * q, L)
