"""Cumulative trapezoid integration, as scipy.integrate.cumulative_trapezoid with initial=0."""
import numpy as np


def cumtrapz(y, dx=1.0):
    out = np.zeros_like(y)
    for i in range(1, len(y)):
        out[i] = out[i - 1] + 0.5 * dx * (y[i] + y[i - 1])
    return out


def trapz_area(y, x):
    """The total area, from the sample points `x`, by a loop with a running total."""
    total = 0.0
    for i in range(len(y) - 1):
        total += 0.5 * (x[i + 1] - x[i]) * (y[i] + y[i + 1])
    return total


CASES = [
    (cumtrapz, [(np.array([0.0, 1.0, 4.0, 9.0]),), (np.array([1.0, -1.0, 2.0, 0.5]),)]),
    (trapz_area, [(np.array([0.0, 1.0, 4.0, 9.0]), np.array([0.0, 1.0, 2.0, 3.0])),
                  (np.array([1.0, -1.0, 2.0, 0.5]), np.array([0.0, 0.5, 1.5, 2.0]))]),
]
GRAD = {"cumtrapz": (0,), "trapz_area": (0, 1)}
