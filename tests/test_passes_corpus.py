"""The control-flow corpus with the optimization passes on and off: both give eager's answer,
and the optimized graph gives the unoptimized one's bit for bit (every pass is exact)."""
from __future__ import annotations

import numpy as np
import pytest
from test_corpus import CASES, _run, assert_exactly, assert_graph_matches

import autograph as ag
import autograph_runtime as runtime


def _params():
    return [pytest.param(fn, arg_tuples, id=f"{module}.{fn.__name__}",
                         marks=[pytest.mark.xfail(strict=True, reason=xfail["graph"])]
                         if "graph" in xfail else [])
            for module, fn, arg_tuples, xfail in CASES]


def _results(fn, arg_tuples, capsys, optimize, monkeypatch):
    monkeypatch.setattr(runtime.config, "optimize", optimize)
    g = ag.convert(fn)
    return [_run(g, args, capsys) for args in arg_tuples], g


@pytest.mark.parametrize("fn, arg_tuples", _params())
def test_optimized_matches_unoptimized_and_eager(fn, arg_tuples, capsys, monkeypatch):
    plain, _ = _results(fn, arg_tuples, capsys, False, monkeypatch)
    optimized, g = _results(fn, arg_tuples, capsys, True, monkeypatch)
    for k, (args, (want, want_text), (got, text)) in enumerate(zip(arg_tuples, plain, optimized)):
        expected, eager_text = _run(fn, args, capsys)
        assert_graph_matches(expected, got, f"optimized, argument tuple {k}")
        assert_exactly(want, got, f"optimized against unoptimized, argument tuple {k}")
        assert text == want_text == eager_text


def test_the_passes_change_some_corpus_graphs(monkeypatch):
    """The differential test above compares something: the pipeline rewrites corpus graphs."""
    monkeypatch.setattr(runtime.config, "optimize", True)
    changed = 0
    for _, fn, arg_tuples, xfail in CASES:
        if "graph" in xfail:
            continue
        concrete = ag.convert(fn).get_concrete_function(*arg_tuples[0])
        changed += concrete.optimized_graph is not concrete.graph
    assert changed >= 5, changed
    assert np.isfinite(changed)
