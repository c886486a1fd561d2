"""Checking gradients against central finite differences, in float64.

`check_grad(fn, *args)` differentiates `sum(fn(*args) * weights)` (fixed
random weights, so that every output element counts differently; `fn` itself
where it returns a scalar) with `ag.grad` and compares the result with
central differences of the plain NumPy function. `specs`, where given, traces
the gradient for them (unknown dimensions) before running it on `args`.
"""
from __future__ import annotations

import warnings

import numpy as np

import autograph as ag
from autograph.gradients import grad


def float_positions(args) -> tuple:
    """The positions of the floating-point array arguments."""
    return tuple(i for i, a in enumerate(args)
                 if isinstance(a, (np.ndarray, np.generic)) and np.result_type(a).kind == "f")


def numerical_grad(f, args, i, eps=1e-6) -> np.ndarray:
    """d f(*args) / d args[i] by central differences (f returns a scalar)."""
    x = np.array(args[i], dtype=np.float64)
    out = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        values = []
        for step in (eps, -eps):
            moved = x.copy()
            moved[k] += step
            shifted = list(args)
            shifted[i] = moved.astype(np.result_type(args[i]))[()] if moved.ndim == 0 \
                else moved.astype(np.result_type(args[i]))
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                values.append(float(f(*shifted)))
        out[k] = (values[0] - values[1]) / (2 * eps)
    return out


def weighted(fn, args, seed=0):
    """`fn` made scalar: `sum(fn(*args) * weights)`."""
    with np.errstate(all="ignore"):
        shape = np.shape(fn(*args))
    weights = np.random.default_rng(seed).uniform(0.5, 1.5, shape)

    def loss(*a):
        return np.sum(fn(*a) * weights)
    return loss


def check_grad(fn, *args, argnums=None, rtol=1e-5, atol=1e-6, specs=None, autograph=False):
    """`ag.grad` of `fn` (made scalar) against finite differences; returns the gradients."""
    argnums = float_positions(args) if argnums is None else tuple(argnums)
    loss = weighted(fn, args)
    gradient = grad(ag.convert(loss, autograph=autograph), argnums=argnums)
    with np.errstate(all="ignore"):
        if specs is None:
            got = gradient(*args)
        else:
            got = gradient.get_concrete_function(*specs)(*args)
    for i, g in zip(argnums, got):
        want = numerical_grad(loss, args, i)
        assert g.dtype == np.result_type(args[i]), f"argument {i}: gradient dtype {g.dtype}"
        assert g.shape == np.shape(args[i]), f"argument {i}: gradient shape {g.shape}"
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol,
                                   err_msg=f"gradient with respect to argument {i}")
    return got
