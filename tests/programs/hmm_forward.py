"""The forward algorithm of a hidden Markov model, with scaling (as in hmmlearn-style code)."""
import numpy as np


def forward(obs, pi, A, B):
    """log P(obs) for a discrete HMM: initial `pi`, transitions `A`, emissions `B`."""
    T = obs.shape[0]
    N = A.shape[0]
    alpha = np.zeros((T, N))
    scale = np.zeros(T)
    alpha[0, :] = pi * B[:, obs[0]]
    scale[0] = alpha[0].sum()
    alpha[0, :] /= scale[0]
    for t in range(1, T):
        alpha[t, :] = (alpha[t - 1] @ A) * B[:, obs[t]]
        scale[t] = alpha[t].sum()
        alpha[t, :] /= scale[t]
    return np.log(scale).sum()


_PI = np.array([0.6, 0.4])
_A = np.array([[0.7, 0.3], [0.4, 0.6]])
_B = np.array([[0.5, 0.4, 0.1], [0.1, 0.3, 0.6]])

CASES = [
    (forward, [(np.array([0, 1, 2, 2]), _PI, _A, _B),
               (np.array([2, 2, 0, 1]), np.array([0.1, 0.9]), _A, _B)]),
]
GRAD = {"forward": (1, 2, 3)}
