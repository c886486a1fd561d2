"""`runtime.passes.optimize`: the pipeline, its switch, and the verifier after each pass."""
from __future__ import annotations

import types

import numpy as np
import pytest

import autograph as ag
import autograph_runtime.config
import autograph_runtime as runtime
from autograph_runtime import AbstractValue, GraphBuilder
from autograph_runtime import passes
from autograph_runtime.ir import Graph
from autograph_runtime.tracer import bind
from autograph_runtime.ops.elementwise import ufunc_primitive
from autograph_runtime.verify import VerificationError


def f(x):
    return np.exp(x * 1) + np.exp(x * 1)


def test_graph_functions_compile_the_optimized_graph():
    concrete = ag.convert(f).get_concrete_function(np.ones(3, np.float32))
    assert str(concrete.graph).count("exp") == 2            # the traced graph, as saved
    assert str(concrete.optimized_graph).count("exp") == 1  # the graph that runs
    assert concrete.source.count("exp") == 0 and concrete.source.count("__k") == 1
    ones = np.ones(3, np.float32)
    np.testing.assert_array_equal(concrete(ones), 2 * np.exp(ones), strict=True)


def test_the_switch_compiles_the_graph_as_traced(monkeypatch):
    monkeypatch.setattr(runtime.config, "optimize", False)
    concrete = ag.convert(f).get_concrete_function(np.ones(3, np.float32))
    assert concrete.optimized_graph is concrete.graph


def test_the_verifier_checks_each_pass(monkeypatch):
    def broken(graph):
        return Graph(graph.name, graph.inputs, graph.eqns[1:], graph.outputs, graph.consts)
    monkeypatch.setattr(passes, "PIPELINE", (broken,))
    with GraphBuilder("g") as builder:
        x = builder.new_input(AbstractValue((3,), np.float64), "x")
        y = np.exp(np.exp(x))
    with pytest.raises(VerificationError):
        passes.optimize(builder.build([y]))


def test_constants_fold_only_with_numpy_kernels():
    with GraphBuilder("g") as builder:
        x = builder.new_input(AbstractValue((3,), np.float64), "x")
        y = x + bind(ufunc_primitive(np.exp), np.ones(3))
    graph = builder.build([y])
    numpy_backend = types.SimpleNamespace(xp=np)
    other_backend = types.SimpleNamespace(xp=types.SimpleNamespace())
    assert len(passes.optimize(graph, numpy_backend).eqns) == 1
    assert len(passes.optimize(graph, other_backend).eqns) == 2


def test_dead_code_goes_last():
    assert passes.PIPELINE[-1] is runtime.effects.prune_dead_code
