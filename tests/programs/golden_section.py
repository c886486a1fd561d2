"""Golden-section search for the minimum of a unimodal function on [a, b]."""
import numpy as np

INV_PHI = (np.sqrt(5.0) - 1) / 2


def golden_section(center, a, b, tol=1e-5):
    def f(x):
        return (x - center) ** 2 + 1.0

    if a >= b:
        raise ValueError("need a < b")
    c = b - INV_PHI * (b - a)
    d = a + INV_PHI * (b - a)
    while abs(b - a) > tol:
        if f(c) < f(d):
            b = d
        else:
            a = c
        c = b - INV_PHI * (b - a)
        d = a + INV_PHI * (b - a)
    return (a + b) / 2


CASES = [
    (golden_section, [(np.float64(0.3), np.float64(0.0), np.float64(2.0)),
                      (np.float64(1.7), np.float64(-1.0), np.float64(3.0)),
                      (np.float64(0.0), np.float64(1.0), np.float64(0.5))]),
]
