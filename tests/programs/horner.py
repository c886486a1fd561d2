"""Horner's rule for polynomial evaluation, over a coefficient array."""
import numpy as np


def horner(coeffs, x):
    result = np.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result


def horner_indexed(coeffs, x):
    """Horner by index, highest power first, with `*=` and `+=` on a local array."""
    result = np.full_like(x, coeffs[0])
    for i in range(1, coeffs.shape[0]):
        result *= x
        result += coeffs[i]
    return result


CASES = [
    (horner, [(np.array([1.0, -2.0, 3.0]), np.array([0.0, 1.0, 2.5])),
              (np.array([0.5, 0.0, -1.0]), np.array([-1.0, 3.0, 0.5]))]),
    (horner_indexed, [(np.array([1.0, -2.0, 3.0]), np.array([0.0, 1.0, 2.5])),
                      (np.array([0.5, 0.0, -1.0]), np.array([-1.0, 3.0, 0.5]))]),
]
GRAD = {"horner": (0, 1), "horner_indexed": (0, 1)}
