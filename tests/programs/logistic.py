"""Logistic regression trained by batch gradient descent, the loss a closure over the data."""
import numpy as np


def sigmoid(t):
    return 1.0 / (1.0 + np.exp(-t))


def fit_logistic(X, y, lr=0.5, n_iter=30, tol=1e-6):
    w = np.zeros(X.shape[1])

    def loss(w):
        p = sigmoid(X @ w)
        eps = 1e-12
        return -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))

    history = []
    for it in range(n_iter):
        p = sigmoid(X @ w)
        g = X.T @ (p - y) / len(y)
        w = w - lr * g
        history.append(loss(w))
        if np.abs(g).max() < tol:
            break
    return w, np.array(history)


def predict(X, w, threshold=0.5):
    try:
        p = sigmoid(X @ w)
    finally:
        pass
    labels = np.zeros(X.shape[0], dtype=np.int64)
    for i in range(X.shape[0]):
        if p[i] >= threshold:
            labels[i] = 1
    return labels


_X = np.array([[1.0, 0.5], [1.0, -1.5], [1.0, 2.0], [1.0, -0.3]])

CASES = [
    (fit_logistic, [(_X, np.array([1.0, 0.0, 1.0, 0.0])), (_X, np.array([0.0, 1.0, 0.0, 1.0]))]),
    (predict, [(_X, np.array([0.1, 1.0])), (_X, np.array([-0.5, -2.0]))]),
]
