# A generated program (issue #12 campaign): two return-value `Placeholder`s met in a staged
# `if` whose branches both pass theirs on ("cannot use a Placeholder as an array").
import contextlib

import numpy as np


def f(n, k, x, p):
    a = np.int64(4)
    b = k + 1
    y = x[::-1]
    s = np.float64(0.0)
    done = False
    L = []
    for j0 in (4, 5,):
        for j1, v1 in zip(x, y):
            if done:
                continue
            elif (j0 + k) < (2 - b) <= np.maximum(j0, a):
                continue
            elif ((k if np.any(x > 1.0) else j0) % 2 == 1) and (y[-1] < -1.5):
                y = (x[::-1] - y[1])
                return ((x + np.minimum(a, p)) + (p if not done else k), L)
            else:
                a = (np.argmax(y) if (np.abs(x)).sum() > 2.0 else np.minimum(1, b))
                done = True
                x = np.maximum(x, np.maximum(x, x))
            done = False
        return (y[::-1] + a, L)
    else:
        y = y
        s = s * x[0]
    if np.any(x > -0.5):
        a += (k + n)
        with np.errstate(divide='ignore', invalid='ignore'):
            return ((np.tanh(x) - (x - x)) + k, L)
    elif not ((2 * 2) < n <= n):
        for j2, v2 in zip(y, x):
            done = p == 1
            with np.errstate(divide='ignore', invalid='ignore'):
                k = np.int64(1)
                b = np.minimum(np.maximum(4, 1), (2 // 2))
                done = False
    elif np.sum(y > 0.5) % 2 == 0:
        L.append(s)
    else:
        done = True
    return (x + n, L)
