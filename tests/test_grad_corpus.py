"""Gradients of the control-flow corpus (`tests/corpus/`) against finite differences.

Every corpus case is taken that has floating-point array arguments and a
floating-point result, and whose graph check is not a known failure. Its
loss is a weighted sum of the floating-point leaves of the result; the
gradient with respect to every floating-point argument must match central
differences (float64) at each argument tuple where the path taken through the
function's code stays the same when any element moves by the step: elsewhere
(a tie in a comparison, a loop that ends exactly there) the gradient of the
path taken is not the slope of the function, and that argument is left out.
"""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pytest
from corpus import all_cases
from gradcheck import float_positions, numerical_grad

from autograph.gradients import grad
from autograph_runtime.tree import flatten


def _float_leaves(value) -> list:
    return [i for i, x in enumerate(flatten(value)[0])
            if isinstance(x, float) or (isinstance(x, (np.ndarray, np.generic))
                                        and np.result_type(x).kind == "f")]


def _quiet(fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


def _differentiable_cases():
    for module, fn, arg_tuples, xfail in all_cases():
        if "graph" in xfail or not float_positions(arg_tuples[0]):
            continue
        try:
            leaves = _float_leaves(_quiet(fn, *arg_tuples[0]))
        except Exception:
            continue
        if leaves:
            yield pytest.param(fn, arg_tuples, leaves, id=f"{module}.{fn.__name__}")


CASES = list(_differentiable_cases())


def _loss(fn, leaves):
    weights = {i: 0.5 + 0.25 * k for k, i in enumerate(leaves)}

    def loss(*args):
        out = flatten(fn(*args))[0]
        total = 0.0
        for i, w in weights.items():
            total = total + np.sum(out[i] * w)
        return total
    return loss


def _path(fn, args) -> tuple:
    """The bytecode offsets run in corpus files while `fn(*args)` runs, in order."""
    corpus_dir = os.path.dirname(fn.__code__.co_filename)
    steps = []

    def tracer(frame, event, arg):
        if not frame.f_code.co_filename.startswith(corpus_dir):
            return None
        frame.f_trace_opcodes = True
        if event == "opcode":
            steps.append((frame.f_code.co_name, frame.f_lasti))
        return tracer
    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        _quiet(fn, *args)
    finally:
        sys.settrace(old)
    return tuple(steps)


def _path_is_stable(fn, args, i, eps) -> bool:
    """True where moving any element of argument i by ±eps keeps the path taken."""
    base = _path(fn, args)
    x = np.asarray(args[i])
    for k in np.ndindex(x.shape):
        for step in (eps, -eps):
            moved = x.astype(np.float64).copy()
            moved[k] += step
            moved = moved.astype(x.dtype)
            shifted = list(args)
            shifted[i] = moved[()] if moved.ndim == 0 else moved
            if _path(fn, shifted) != base:
                return False
    return True


def _float64(x):
    if isinstance(x, (np.ndarray, np.generic)) and np.result_type(x).kind == "f":
        return np.float64(x) if isinstance(x, np.generic) else x.astype(np.float64)
    return x


def _reference(fn, loss, args, i) -> np.ndarray | None:
    """Central differences (float64) where the path is stable and finite, else None."""
    args = [_float64(x) for x in args]
    if sys.gettrace() is not None or not _path_is_stable(fn, args, i, 1e-6):
        return None
    want = numerical_grad(loss, args, i, eps=1e-6)
    return want if np.all(np.isfinite(want)) else None


def test_the_corpus_has_many_differentiable_cases():
    assert len(CASES) >= 40, len(CASES)


@pytest.mark.parametrize("fn, arg_tuples, leaves", CASES)
def test_corpus_gradient(fn, arg_tuples, leaves):
    loss = _loss(fn, leaves)
    positions = float_positions(arg_tuples[0])
    gradient = grad(loss, argnums=positions)
    checked = 0
    for args in arg_tuples:
        got = _quiet(gradient, *args)
        for i, g in zip(positions, got):
            want = _reference(fn, loss, args, i)
            if want is None:
                continue
            assert g.dtype == np.result_type(args[i]) and g.shape == np.shape(args[i])
            tolerance = 1e-5 if g.dtype == np.float64 else 1e-4
            np.testing.assert_allclose(g, want, rtol=tolerance, atol=tolerance,
                                       err_msg=f"argument {i} of {args}")
            checked += 1
    assert gradient.trace_count == 1
    if not checked:
        pytest.skip("not smooth at any argument tuple")
