"""Training a small MLP with a converted train step that updates `ag.Variable`s.

The model fits y = sin(3x) on [-1, 1]. `train_step` is one graph: the forward
pass, the gradient of the loss with respect to the model's variables
(`ag.value_and_grad(..., wrt=...)`), gradient clipping written as a plain
Python `if` on a traced norm (staged as a `cond`, and differentiated through
nothing: it acts on gradients), and the updates, `v.assign_sub(...)`, ordered
after the reads that computed the gradients.

    python examples/train_mlp.py
"""
from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import autograph as ag  # noqa: E402


class MLP:
    """Two tanh layers and a linear read-out, built on the first call from the input width."""

    def __init__(self, hidden: int = 32, seed: int = 0):
        self.hidden = hidden
        self.rng = np.random.default_rng(seed)
        self.layers = None

    def build(self, n_in: int):
        sizes = [n_in, self.hidden, self.hidden, 1]
        self.layers = [
            (ag.Variable(self.rng.normal(0, 1 / np.sqrt(a), (a, b)), name=f"w{i}"),
             ag.Variable(np.zeros(b), name=f"b{i}"))
            for i, (a, b) in enumerate(zip(sizes, sizes[1:]))]

    @property
    def variables(self) -> list:
        return [v for layer in self.layers for v in layer]

    def __call__(self, x):
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < len(self.layers) - 1:
                x = np.tanh(x)
        return x[:, 0]


def make_train_step(model: MLP, learning_rate: float = 0.05, max_norm: float = 2.0):
    def loss_fn(x, y):
        return np.mean((model(x) - y) ** 2)

    loss_and_grads = ag.value_and_grad(loss_fn, wrt=model.variables)

    @ag.convert
    def train_step(x, y):
        loss, grads = loss_and_grads(x, y)
        norm = np.sqrt(sum(np.sum(g * g) for g in grads))
        scale = 1.0
        if norm > max_norm:                       # a traced condition: staged as a cond
            scale = max_norm / norm
        for v, g in zip(model.variables, grads):  # a Python list: unrolled while tracing
            v.assign_sub(learning_rate * scale * g)
        return loss
    return train_step


def train(steps: int = 600, report_every: int = 50, seed: int = 0, out=print):
    """Trains on 128 points; returns the losses, one per step."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (128, 1))
    y = np.sin(3 * x[:, 0])
    model = MLP(seed=seed)
    model.build(x.shape[1])
    train_step = make_train_step(model)
    losses = []
    floor, width = 1e-4, 60                       # the bars: a log scale from `floor`
    for step in range(steps):
        losses.append(float(train_step(x, y)))
        if step == 0:
            out(f"training loss (mean squared error on {len(x)} points of y = sin(3x)), "
                f"every {report_every} steps")
            out(f"{'step':>6}  {'loss':>9}  bar: log scale, none at {floor:.0e}, "
                f"{width} # at the first loss ({losses[0]:.2e})")
        if step % report_every == 0 or step == steps - 1:
            bar = "#" * int(round(width * np.clip(np.log(losses[-1] / floor)
                                                  / np.log(losses[0] / floor), 0, 1)))
            out(f"{step:>6}  {losses[-1]:>9.5f}  {bar}")
    out(f"traced {train_step.trace_count} time(s); "
        f"final loss {losses[-1]:.5f} (first {losses[0]:.5f})")
    return losses


if __name__ == "__main__":
    train()
