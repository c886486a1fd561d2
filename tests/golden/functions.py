"""Representative functions whose converted source is kept in golden files."""
import numpy as np


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def first_negative(x_vec):
    for i in range(len(x_vec)):
        if x_vec[i] < 0:
            return i
    return -1


def clipped_sum(x_vec, limit):
    total = 0.0
    for value in x_vec:
        if value < 0:
            continue
        total += value
        if total > limit:
            break
    else:
        total = -total
    return total


def sign_and_magnitude(x):
    sign = 1 if x >= 0 else -1
    big = x > 10 or x < -10
    return sign, big and not x == 0


def checked_norm(x_vec):
    norm = np.sqrt((x_vec ** 2).sum())
    assert norm >= 0, "a norm is never negative"
    print("norm:", norm)
    return norm


def powers(x, n):
    out = []
    for _ in range(n):
        out.append(x)
        x = x * x
    return np.stack(out)


def relu(x):
    return np.maximum(x, 0)


def mlp_layer(x_mat, w_mat):
    hidden = relu(x_mat @ w_mat)
    while hidden.sum() > 100:
        hidden = hidden / 2
    return hidden


FUNCTIONS = [collatz, first_negative, clipped_sum, sign_and_magnitude, checked_norm, powers,
             mlp_layer]
