"""Viterbi decoding in log space: a table of scores, back-pointers, and a backtrack."""
import numpy as np


def viterbi(obs, log_pi, log_A, log_B):
    T = len(obs)
    N = log_A.shape[0]
    delta = np.zeros((T, N))
    psi = np.zeros((T, N), dtype=np.int64)
    delta[0] = log_pi + log_B[:, obs[0]]
    for t in range(1, T):
        for j in range(N):
            scores = delta[t - 1] + log_A[:, j]
            psi[t, j] = np.argmax(scores)
            delta[t, j] = scores[psi[t, j]] + log_B[j, obs[t]]
    path = np.zeros(T, dtype=np.int64)
    path[T - 1] = np.argmax(delta[T - 1])
    for t in range(T - 2, -1, -1):
        path[t] = psi[t + 1, path[t + 1]]
    return path, delta[T - 1].max()


_LA = np.log(np.array([[0.7, 0.3], [0.4, 0.6]]))
_LB = np.log(np.array([[0.5, 0.4, 0.1], [0.1, 0.3, 0.6]]))

CASES = [
    (viterbi, [(np.array([0, 1, 2, 2]), np.log(np.array([0.6, 0.4])), _LA, _LB),
               (np.array([2, 2, 0, 0]), np.log(np.array([0.2, 0.8])), _LA, _LB)]),
]
