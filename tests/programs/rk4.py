"""Classic fourth-order Runge-Kutta for a damped oscillator, the trajectory preallocated."""
import numpy as np


def rk4(y0, damping, h, n_steps):
    def deriv(t, y):
        dy = np.empty_like(y)
        dy[0] = y[1]
        dy[1] = -y[0] - damping * y[1]
        return dy

    ys = np.zeros((n_steps + 1, y0.shape[0]))
    ys[0] = y0
    t = 0.0
    y = y0
    for i in range(n_steps):
        k1 = deriv(t, y)
        k2 = deriv(t + h / 2, y + h / 2 * k1)
        k3 = deriv(t + h / 2, y + h / 2 * k2)
        k4 = deriv(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t += h
        ys[i + 1] = y
    return ys


def rk4_final(y0, damping, h):
    """The same integration with the state only (no table): the derivative is a closure."""
    def deriv(y):
        return np.array([y[1], -y[0] - damping * y[1]])

    y = y0
    for _ in range(8):
        k1 = deriv(y)
        k2 = deriv(y + h / 2 * k1)
        k3 = deriv(y + h / 2 * k2)
        k4 = deriv(y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return y


CASES = [
    (rk4, [(np.array([1.0, 0.0]), np.float64(0.1), 0.1, 6),
           (np.array([0.0, 2.0]), np.float64(0.5), 0.1, 6)]),
    (rk4_final, [(np.array([1.0, 0.0]), np.float64(0.1), 0.1),
                 (np.array([0.5, -1.0]), np.float64(0.3), 0.1)]),
]
GRAD = {"rk4": (0, 1), "rk4_final": (0, 1)}
