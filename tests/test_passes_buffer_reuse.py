"""Buffer reuse in `runtime.codegen`: a ufunc writes into the array of an operand dying at it,
only where nothing else can see that array; results bit for bit those without reuse."""
from __future__ import annotations

import re

import numpy as np
import pytest

import autograph_runtime as runtime
from autograph_runtime import AbstractValue
from autograph_runtime import codegen
from hand_graphs import build

N = codegen.REUSE_MIN_SIZE


def compiled(graph, reuse=True, monkeypatch=None):
    if not reuse:
        monkeypatch.setattr(codegen.CodeGen, "_reusable", lambda self, *a: {})
    return runtime.compile_graph(graph, runtime.get_backend("cpu"))


def check(graph, args, monkeypatch):
    """The source with reuse; its results equal those without, and the arguments stay."""
    f = compiled(graph)
    kept = [np.array(a, copy=True) for a in args]
    got = f(*args)
    for a, k in zip(args, kept):
        np.testing.assert_array_equal(a, k, strict=True)
    want = compiled(graph, False, monkeypatch)(*args)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w, strict=True)
    return f.source, got


def test_a_dying_temporary_takes_the_result(monkeypatch):
    graph = build(lambda x: [np.tanh(x * 2.0) + 1.0], AbstractValue((N,), np.float32))
    source, _ = check(graph, [np.linspace(-1, 1, N, dtype=np.float32)], monkeypatch)
    assert re.search(r"t1 = __u\d+\(t0, out=t0\)", source)
    assert re.search(r"t2 = __u\d+\(t1, 1.0, out=t1\)", source)


def test_inputs_outputs_and_small_arrays_are_not_written(monkeypatch):
    graph = build(lambda x: [np.exp(x), np.copy(x) * 2.0], AbstractValue((N,), np.float64))
    source, _ = check(graph, [np.ones(N)], monkeypatch)
    assert "out=" not in source  # x is an input; exp's result and the product are outputs
    graph = build(lambda x: [np.exp(x * 2.0)], AbstractValue((N - 1,), np.float64))
    assert "out=" not in check(graph, [np.ones(N - 1)], monkeypatch)[0]


def test_views_and_other_readers_spoil_reuse(monkeypatch):
    """`a[::-1]` views a: writing into a at its last use would change the view read later."""
    graph = build(lambda x: [(lambda a: (a + 1.0) * a[::-1].copy())(x * 2.0)],
                  AbstractValue((N,), np.float64))
    source, (got,) = check(graph, [np.arange(N, dtype=np.float64)], monkeypatch)
    a = np.arange(N) * 2.0
    np.testing.assert_array_equal(got, (a + 1.0) * a[::-1], strict=True)
    assert "(t0, 1.0, out=t0)" not in source


def test_unknown_shapes_and_changing_dtypes_are_not_written(monkeypatch):
    graph = build(lambda x: [np.exp(x * 2.0)], AbstractValue((None,), np.float64))
    assert "out=" not in check(graph, [np.ones(N)], monkeypatch)[0]
    graph = build(lambda x: [np.sqrt(x * 2)], AbstractValue((N,), np.int64))
    assert "out=" not in check(graph, [np.arange(N)], monkeypatch)[0]


@pytest.mark.parametrize("steps", [0, 1, 3])
def test_loop_bodies_reuse_their_own_temporaries(steps, monkeypatch):
    def fn(x, n):
        return runtime.while_loop(lambda s: s[0] < n,
                                  lambda s: (s[0] + 1, np.sin(s[1] * 0.5) + s[1]), (0, x))[1:]
    graph = build(fn, AbstractValue((N,), np.float64), AbstractValue((), np.int64))
    source, _ = check(graph, [np.linspace(0, 1, N), np.int64(steps)], monkeypatch)
    assert "out=" in source
