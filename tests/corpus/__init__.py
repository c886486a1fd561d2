"""A corpus of plain NumPy functions for checking the control-flow conversion.

Each module `tests/corpus/<construct>.py` holds plain functions (no
decorators) and a list `CASES` of `(function, [argument tuples ...])`. All
argument tuples of one function share one signature (the same dtypes and
shapes for arrays and NumPy scalars, equal Python values) but hold values
that take different paths through the function's control flow, so one trace
must serve them all. Arguments are named after what they take: `x_vec` a
float64 vector, `n_int` an int64 scalar, `flag_bool` a NumPy bool, `k_py` a
Python value, and so on.

A module may also hold `XFAIL = {function name: {check: reason}}` for cases
that reveal a known bug, `check` being "untraced" or "graph".

`tests/test_corpus.py` runs every case eagerly (the oracle), converted but
untraced (`autograph.conversion.convert_function`), and as a graph
(`ag.convert`).
"""
from __future__ import annotations

import importlib

import numpy as np

MODULES = ("conditionals", "logical", "while_loops", "for_loops", "nested", "effects",
           "shapes", "calls", "algorithms")


def vec(*values, dtype="float64"):
    """A 1-D array of `values` (float64 unless `dtype` says otherwise)."""
    return np.array(values, dtype=dtype)


def mat(rows, dtype="float64"):
    """A 2-D array of `rows`."""
    return np.array(rows, dtype=dtype)


def i64(value):
    """A NumPy int64 scalar (traced in a graph)."""
    return np.int64(value)


def f64(value):
    """A NumPy float64 scalar (traced in a graph)."""
    return np.float64(value)


def f32(value):
    """A NumPy float32 scalar (traced in a graph)."""
    return np.float32(value)


def b(value):
    """A NumPy bool scalar (traced in a graph)."""
    return np.bool_(value)


def modules():
    """The corpus modules, imported."""
    return [importlib.import_module(f"{__name__}.{name}") for name in MODULES]


def all_cases():
    """`(module name, function, argument tuples, xfail reasons by check)` for every case."""
    for module in modules():
        short = module.__name__.rsplit(".", 1)[1]
        xfail = getattr(module, "XFAIL", {})
        for fn, arg_tuples in module.CASES:
            yield short, fn, arg_tuples, xfail.get(fn.__name__, {})
