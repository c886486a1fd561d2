"""The control-flow corpus (`tests/corpus/`), run every way against eager NumPy.

For every function and every one of its argument tuples:

1. eagerly: the plain function on NumPy values is the oracle (what it
   returns and what it prints); the tuples of one function share one
   signature, and take at least two different paths through its control
   flow (the bytecode run in corpus files differs);
2. converted but not traced (`convert_function(fn)(*args)`): exactly what
   eager returns (same types, same values) and prints: the as-if rule;
3. as a graph (`ag.convert(fn)(*args)`): what eager returns, as arrays (a
   NumPy scalar matches a 0-d array of its dtype; a Python bool, int or
   float a 0-d array of the same kind, of any width, since a Python
   scalar is weakly typed: `total = 0.0` carried through a loop over
   float32 values is float32 in the graph); outputs the graph keeps as
   Python values must equal eager's exactly. What it prints must be what
   eager prints, on the first call (the trace) and on the second alike,
   and one trace must serve all the tuples (the control flow was staged).

A case's known bug is marked in its module's `XFAIL` table (strict xfail).
"""
from __future__ import annotations

import math
import os
import sys
import warnings

import numpy as np
import pytest
from corpus import all_cases

import autograph as ag
from autograph.conversion import convert_function
from autograph_runtime.tree import flatten

ARRAYS = (np.ndarray, np.generic)
CASES = list(all_cases())


def _params(check):
    params = []
    for module, fn, arg_tuples, xfail in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=xfail[check])] if check in xfail else []
        params.append(pytest.param(fn, arg_tuples, id=f"{module}.{fn.__name__}", marks=marks))
    return params


def _ids():
    return [f"{module}.{fn.__name__}" for module, fn, _, _ in CASES]


def test_corpus_ids_are_unique_and_large():
    ids = _ids()
    assert len(ids) == len(set(ids)), "corpus function names must be unique per module"
    assert len(ids) >= 150


def _run(fn, args, capsys):
    """`fn(*args)` with NumPy's floating-point warnings off; its result and its printed text."""
    capsys.readouterr()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = fn(*args)
    return result, capsys.readouterr().out


# -- comparisons ------------------------------------------------------------------------------

def _same_value(e, g) -> bool:
    if isinstance(e, float) and math.isnan(e):
        return isinstance(g, float) and math.isnan(g)
    return e == g


def assert_exactly(expected, got, where):
    """Same structure, same types, same dtypes and shapes, same values (NaNs equal)."""
    e_leaves, e_tree = flatten(expected)
    g_leaves, g_tree = flatten(got)
    assert g_tree == e_tree, f"{where}: structure {g_tree}, eager gives {e_tree}"
    for i, (e, g) in enumerate(zip(e_leaves, g_leaves)):
        at = f"{where}, leaf {i}"
        assert type(g) is type(e), f"{at}: {type(g).__name__} {g!r}, eager gives " \
                                   f"{type(e).__name__} {e!r}"
        if isinstance(e, ARRAYS):
            assert g.dtype == e.dtype and np.shape(g) == np.shape(e), \
                f"{at}: {g.dtype}{np.shape(g)}, eager gives {e.dtype}{np.shape(e)}"
            np.testing.assert_array_equal(g, e, err_msg=at, strict=True)
        else:
            assert _same_value(e, g), f"{at}: {g!r}, eager gives {e!r}"


_KINDS = {bool: "b", int: "iu", float: "f", complex: "c"}


def assert_graph_matches(expected, got, where, rtol=1e-9):
    """Graph outputs against eager: arrays for traced values, Python values where static."""
    e_leaves, e_tree = flatten(expected)
    g_leaves, g_tree = flatten(got)
    assert g_tree == e_tree, f"{where}: structure {g_tree}, eager gives {e_tree}"
    for i, (e, g) in enumerate(zip(e_leaves, g_leaves)):
        at = f"{where}, leaf {i}"
        if not isinstance(g, np.ndarray):  # a static Python value: returned as it is
            assert type(g) is type(e) and _same_value(e, g), \
                f"{at}: {type(g).__name__} {g!r}, eager gives {type(e).__name__} {e!r}"
            continue
        if isinstance(e, ARRAYS):
            want = np.asarray(e)
            assert g.dtype == want.dtype, f"{at}: dtype {g.dtype}, eager gives {want.dtype}"
        elif type(e) in _KINDS:
            want = np.asarray(e)
            assert g.dtype.kind in _KINDS[type(e)], \
                f"{at}: dtype {g.dtype} for eager's Python {type(e).__name__} {e!r}"
            want = want.astype(g.dtype)
        else:
            pytest.fail(f"{at}: an array {g!r} where eager gives {type(e).__name__} {e!r}")
        assert g.shape == want.shape, f"{at}: shape {g.shape}, eager gives {want.shape}"
        if want.dtype.kind in "fc":
            np.testing.assert_allclose(g, want, rtol=rtol, atol=0, equal_nan=True, err_msg=at)
        else:
            np.testing.assert_array_equal(g, want, err_msg=at, strict=True)


# -- the case tables themselves ---------------------------------------------------------------

def _signature(args):
    def key(x):
        if isinstance(x, ARRAYS):
            return ("array", np.result_type(x).str, np.shape(x), isinstance(x, np.generic))
        return ("python", type(x).__name__, repr(x))
    leaves, tree = flatten(args)
    return tree, [key(x) for x in leaves]


def _path(fn, args):
    """The bytecode offsets run in corpus files while `fn(*args)` runs eagerly, in order."""
    corpus_dir = os.path.dirname(fn.__code__.co_filename)
    lines = []

    def tracer(frame, event, arg):
        if not frame.f_code.co_filename.startswith(corpus_dir):
            return None
        frame.f_trace_opcodes = True
        if event == "opcode":  # finer than lines: a ternary's two sides share a line
            lines.append((frame.f_code.co_name, frame.f_lasti))
        return tracer
    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            fn(*args)
    finally:
        sys.settrace(old)
    return tuple(lines)


@pytest.mark.parametrize("fn, arg_tuples", _params("eager"))
def test_eager(fn, arg_tuples, capsys):
    """The oracle runs, its tuples share a signature, and they take different paths."""
    assert len(arg_tuples) >= 2, "a case needs several argument tuples"
    signatures = {repr(_signature(args)) for args in arg_tuples}
    assert len(signatures) == 1, f"argument tuples of {fn.__name__} differ in signature"
    for args in arg_tuples:
        first = _run(fn, args, capsys)
        again = _run(fn, args, capsys)
        assert_exactly(first[0], again[0], "eager, run twice")
        assert first[1] == again[1]
    if sys.gettrace() is None:  # a coverage tool or debugger owns the trace hook otherwise
        paths = {_path(fn, args) for args in arg_tuples}
        assert len(paths) >= 2, f"every argument tuple takes the same path through {fn.__name__}"


@pytest.mark.parametrize("fn, arg_tuples", _params("untraced"))
def test_converted_untraced(fn, arg_tuples, capsys):
    """Converted code on NumPy values returns and prints exactly what eager does."""
    converted = convert_function(fn)
    assert converted is not fn, f"{fn.__name__} was not converted"
    for k, args in enumerate(arg_tuples):
        expected, eager_text = _run(fn, args, capsys)
        got, text = _run(converted, args, capsys)
        assert_exactly(expected, got, f"untraced, argument tuple {k}")
        assert text == eager_text, f"untraced, argument tuple {k}: printed other text"


@pytest.mark.parametrize("fn, arg_tuples", _params("graph"))
def test_graph(fn, arg_tuples, capsys):
    """As a graph: eager's values and printed text for every tuple, from one trace."""
    g = ag.convert(fn)
    for k, args in enumerate(arg_tuples):
        expected, eager_text = _run(fn, args, capsys)
        for call in ("first", "second"):  # a graph prints on every call, not just its trace
            got, text = _run(g, args, capsys)
            assert_graph_matches(expected, got, f"graph, argument tuple {k}, {call} call")
            assert text == eager_text, \
                f"graph, argument tuple {k}, {call} call: printed {text!r}, eager {eager_text!r}"
    assert g.trace_count == 1, f"{fn.__name__} traced {g.trace_count} times for one signature"
