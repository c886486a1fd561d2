"""Realistic NumPy programs (`tests/programs/`), each run every way it can run against eager NumPy.

For every program and its argument tuples (`tests/programs/__init__.py`):

1. converted but not traced (`convert_function(fn)(*args)`): exactly what the
   plain function returns (types, dtypes, values), or the same exception type;
2. as a graph, through the oracle of `autograph.testing` (its `BackendCheck`,
   the check behind `assert_graph_equivalent`, on the CPU): every tuple, one
   after another, against eager on one graph function, which must trace once
   (where control flow depends on array values, it was staged);
3. where the module lists the function in `GRAD`: `ag.grad` of a weighted sum
   of its float outputs against central differences of the plain function, for
   every tuple, on one gradient function.

A check that fails today is in its module's `XFAIL` table (strict xfail naming
the construct, `#12`): when the construct lands, the XPASS says so.
"""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pytest

import autograph as ag
from autograph.conversion import convert_function
from autograph.testing.equivalence import BackendCheck, Call
from autograph_runtime.tree import flatten

sys.path.insert(0, os.path.dirname(__file__))
from gradcheck import numerical_grad  # noqa: E402
from programs import all_cases  # noqa: E402

CASES = list(all_cases())


def _params(check, only_grad=False):
    params = []
    for module, fn, arg_tuples, grad_positions, xfail in CASES:
        if only_grad and grad_positions is None:
            continue
        marks = [pytest.mark.xfail(strict=True, reason=xfail[check])] if check in xfail else []
        values = (fn, arg_tuples, grad_positions) if only_grad else (fn, arg_tuples)
        params.append(pytest.param(*values, id=f"{module}.{fn.__name__}", marks=marks))
    return params


def _run(fn, args):
    """`(result, None)` or `(None, exception)`, on copies of the arrays."""
    args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return fn(*args), None
        except Exception as error:  # noqa: BLE001 - an input check's raise is the oracle's
            return None, error


def test_programs_are_many_and_unique():
    ids = [f"{module}.{fn.__name__}" for module, fn, *_ in CASES]
    assert len(ids) == len(set(ids))
    assert len({module for module, *_ in CASES}) >= 20


@pytest.mark.parametrize("fn, arg_tuples", _params("eager"))
def test_eager(fn, arg_tuples):
    """The oracle runs (or raises a deliberate error) and its tuples share one signature."""
    assert len(arg_tuples) >= 2
    keys = set()
    for args in arg_tuples:
        leaves, tree = flatten(args)
        keys.add(repr((tree, [(np.result_type(x).str, np.shape(x), isinstance(x, np.generic))
                              if isinstance(x, (np.ndarray, np.generic)) else repr(x)
                              for x in leaves])))
        result, error = _run(fn, args)
        assert error is None or isinstance(error, (ValueError, ZeroDivisionError)), error
    assert len(keys) == 1, f"the argument tuples of {fn.__name__} differ in signature"


@pytest.mark.parametrize("fn, arg_tuples", _params("untraced"))
def test_converted_untraced(fn, arg_tuples):
    """Converted code on NumPy values: exactly eager's result, or its exception type."""
    converted = convert_function(fn)
    assert converted is not fn
    for k, args in enumerate(arg_tuples):
        (expected, e_error), (got, g_error) = _run(fn, args), _run(converted, args)
        if e_error is not None:
            assert type(g_error) is type(e_error), f"tuple {k}: eager raised {e_error!r}, " \
                                                   f"converted gave {got!r} {g_error!r}"
            continue
        assert g_error is None, f"tuple {k}: {type(g_error).__name__}: {g_error}"
        e_leaves, e_tree = flatten(expected)
        g_leaves, g_tree = flatten(got)
        assert g_tree == e_tree, f"tuple {k}: structure {g_tree}, eager {e_tree}"
        for e, g in zip(e_leaves, g_leaves):
            assert type(g) is type(e), f"tuple {k}: {type(g).__name__} {g!r}, eager {e!r}"
            np.testing.assert_array_equal(g, e, err_msg=f"tuple {k}", strict=True)


@pytest.mark.parametrize("fn, arg_tuples", _params("graph"))
def test_graph(fn, arg_tuples):
    """As a graph: eager's values for every tuple, in turn, from one trace."""
    checker = BackendCheck(fn, "cpu", rtol=1e-9, atol=1e-12)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for k, args in enumerate(arg_tuples):
            checker.check(Call(f"argument tuple {k}", tuple(args), {}))
    assert checker.graph_fn.trace_count == 1


def _weighted_loss(fn, args):
    """`fn` made scalar: the sum of each float output times fixed random weights."""
    expected, _ = _run(fn, args)
    leaves, _ = flatten(expected)
    rng = np.random.default_rng(0)
    weights = [rng.uniform(0.5, 1.5, np.shape(leaf)) if np.result_type(leaf).kind == "f"
               else None for leaf in leaves]

    def loss(*a):
        outs, _ = flatten(fn(*a))
        total = 0.0
        for out, w in zip(outs, weights):
            if w is not None:
                total = total + np.sum(out * w)
        return total
    return loss


@pytest.mark.parametrize("fn, arg_tuples, positions", _params("grad", only_grad=True))
def test_grad(fn, arg_tuples, positions):
    """`ag.grad` of the weighted outputs against central differences, one trace for all tuples."""
    loss = _weighted_loss(fn, arg_tuples[0])
    gradient = ag.grad(ag.convert(loss), argnums=positions)
    with np.errstate(all="ignore"):
        for k, args in enumerate(arg_tuples):
            try:
                loss(*args)
            except Exception as error:  # noqa: BLE001 - an input check's raise is the oracle's
                with pytest.raises(type(error)):
                    gradient(*args)
                continue
            got = gradient(*args)
            for i, g in zip(positions, got):
                want = numerical_grad(loss, args, i)
                np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6,
                                           err_msg=f"tuple {k}, argument {i}")
    assert gradient.trace_count == 1
