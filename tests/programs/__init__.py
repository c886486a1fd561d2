"""Realistic NumPy programs, written as people write them, for `tests/test_programs.py`.

Each module `tests/programs/<name>.py` holds one small program in the style of
public NumPy code (numerical methods with preallocated outputs filled in
loops, item writes, `with`, `try`, closures, input checks that `raise`), as
plain functions with no decorator, and:

- `CASES = [(function, [argument tuples ...]), ...]`: the tuples of one
  function share one signature (so one trace must serve them all) and, where
  the control flow depends on array values, take different paths through it;
- `GRAD = {function name: argument positions}` (optional): the functions
  whose gradient is checked against finite differences;
- `XFAIL = {function name: {check: reason}}` (optional): checks ("untraced",
  "graph", "grad") that fail today, each reason naming the construct (strict
  xfail: when the construct lands, the XPASS says so and the mark goes).
"""
from __future__ import annotations

import importlib

MODULES = ("hmm_forward", "viterbi", "gauss_seidel", "rk4", "golden_section", "lu_loops",
           "edit_distance", "newton", "bisection", "power_iteration", "kmeans", "gradient_descent",
           "moving_average", "cumtrapz", "horner", "histogram", "collatz", "matvec", "euler",
           "softmax", "logistic", "polyfit_normal", "line_search")


def modules():
    """The program modules, imported."""
    return [importlib.import_module(f"{__name__}.{name}") for name in MODULES]


def all_cases():
    """`(module name, function, argument tuples, grad positions, xfail reasons by check)`."""
    for module in modules():
        short = module.__name__.rsplit(".", 1)[1]
        xfail = getattr(module, "XFAIL", {})
        grad = getattr(module, "GRAD", {})
        for fn, arg_tuples in module.CASES:
            yield short, fn, arg_tuples, grad.get(fn.__name__), xfail.get(fn.__name__, {})
