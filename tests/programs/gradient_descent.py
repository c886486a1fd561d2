"""Least-squares gradient descent with early stopping when the loss stops improving."""
import numpy as np


def gradient_descent(X, y, lr=0.1, max_iter=200, tol=1e-10):
    n, d = X.shape
    w = np.zeros(d)
    prev_loss = np.inf
    for it in range(max_iter):
        r = X @ w - y
        loss = (r @ r) / n
        if prev_loss - loss < tol:
            break
        prev_loss = loss
        grad = 2.0 / n * (X.T @ r)
        w -= lr * grad
    return w, loss


def gradient_descent_history(X, y, lr=0.1, n_iter=5):
    """A fixed number of steps, the loss of each kept in a preallocated history."""
    n, d = X.shape
    w = np.zeros(d)
    history = np.empty(n_iter)
    for it in range(n_iter):
        r = X @ w - y
        history[it] = (r @ r) / n
        w = w - lr * 2.0 / n * (X.T @ r)
    return w, history


_X = np.array([[1.0, 0.5], [1.0, -1.0], [1.0, 2.0], [1.0, 0.0]])

CASES = [
    (gradient_descent, [(_X, np.array([1.0, -0.5, 2.5, 0.7])),
                        (_X, np.array([0.0, 0.0, 0.0, 0.0])),
                        (_X * 3.0, np.array([3.0, 1.0, -2.0, 0.5]))]),
    (gradient_descent_history, [(_X, np.array([1.0, -0.5, 2.5, 0.7])),
                                (_X, np.array([2.0, 1.0, 0.0, -1.0]))]),
]
GRAD = {"gradient_descent_history": (0, 1)}
