"""Explicit Euler for y' = r y (1 - y / K), stopping when the solution blows up."""
import numpy as np


def euler(y0, rate, h, n_steps=20, limit=1e6):
    y = y0.copy()
    steps = 0
    for i in range(n_steps):
        y = y + h * rate * y * (1.0 - y / 10.0)
        steps += 1
        if np.abs(y).max() > limit:
            break
    return y, steps


def euler_trajectory(y0, rate, h, n_steps=6):
    """The same, the trajectory preallocated and filled row by row."""
    traj = np.zeros((n_steps + 1,) + y0.shape)
    traj[0] = y0
    for i in range(n_steps):
        traj[i + 1] = traj[i] + h * rate * traj[i] * (1.0 - traj[i] / 10.0)
    return traj


CASES = [
    (euler, [(np.array([1.0, 2.0]), np.float64(0.5), np.float64(0.1)),
             (np.array([1.0, -2.0]), np.float64(20.0), np.float64(0.5)),
             (np.array([3.0, 0.5]), np.float64(-1.0), np.float64(0.1))]),
    (euler_trajectory, [(np.array([1.0, 2.0]), np.float64(0.5), np.float64(0.1)),
                        (np.array([3.0, 0.5]), np.float64(-1.0), np.float64(0.1))]),
]
GRAD = {"euler_trajectory": (0, 1)}
