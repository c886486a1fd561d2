"""`runtime.passes.cse`: repeated pure equations computed once, never across scopes or effects."""
from __future__ import annotations

import numpy as np

import autograph_runtime as runtime
from autograph_runtime import AbstractValue
from autograph_runtime.effects import prune_dead_code
from autograph_runtime.passes.cse import cse
from autograph_runtime.tracer import bind
from autograph_runtime.ops.effects import print_
from autograph_runtime.ops.elementwise import ufunc_primitive
from autograph_runtime.verify import verify
from hand_graphs import build, run


def checked(graph, *args):
    merged = cse(graph)
    verify(merged)
    for got, want in zip(run(merged, *args), run(graph, *args)):
        np.testing.assert_array_equal(got, want, strict=True)
    return merged


def test_repeated_expressions_merge():
    graph = build(lambda x: [np.tanh(x * 2.0) + np.tanh(x * 2.0)],
                  AbstractValue((3,), np.float32))
    merged = checked(graph, np.arange(3, dtype=np.float32))
    assert str(merged) == (
        "graph f(x:f32[3]) {\n"
        "  t0:f32[3] = multiply x 2.0\n"
        "  t1:f32[3] = tanh t0\n"
        "  t2:f32[3] = add t1 t1\n"
        "  return t2\n"
        "}")


def test_literals_of_other_types_or_signs_do_not_merge():
    nan, minus_nan = float("nan"), -float("nan")
    graph = build(lambda x: [np.copy(x + 0.0) - np.copy(x + (-0.0)),
                             np.copy(x * 1) + np.copy(x * 1.0) + np.copy(x * True),
                             np.copy(x + nan) + np.copy(x + minus_nan)],
                  AbstractValue((3,), np.float64))
    merged = checked(graph, np.array([-0.0, 1.0, np.nan]))
    assert merged is graph


def test_two_escaping_results_stay_two_arrays():
    """`return x + 1, x + 1` gives two arrays eagerly: writing one leaves the other."""
    graph = build(lambda x: [x + 1, x + 1], AbstractValue((3,), np.float64))
    assert cse(graph) is graph
    a, b = run(cse(graph), np.zeros(3))
    assert a is not b


def test_one_escaping_result_merges():
    graph = build(lambda x: [x + 1, np.exp(x + 1)], AbstractValue((3,), np.float64))
    merged = prune_dead_code(checked(graph, np.zeros(3)))
    assert str(merged).count("add") == 1


def test_effects_never_merge():
    def fn(x):
        print_(x, always_stage=True)
        print_(x, always_stage=True)
        return [x]
    graph = build(fn, AbstractValue((3,), np.float64))
    assert cse(graph) is graph


def test_subgraphs_keep_their_own_scope():
    """The body's `x + 1` reads its own input, not the outer `x`: no merge across scopes."""
    def fn(x):
        outer = x + 1
        _, inner = runtime.while_loop(lambda s: s[0] < 2,
                                      lambda s: (s[0] + 1, s[1] + 1 + (s[1] + 1)),
                                      (0, x))
        return [outer * inner]
    graph = build(fn, AbstractValue((3,), np.float64))
    merged = checked(graph, np.arange(3.0))
    body = merged.eqns[1].params["body"]
    assert str(body).count("= add") == 2  # `s + 1` once, then the sum; the outer one stays
    assert str(merged).count("= add") == 3


def test_params_compare_by_value():
    graph = build(lambda x: [np.copy(np.sum(x, axis=0)) + np.copy(np.sum(x, axis=0))
                             + np.copy(np.sum(x, axis=1)).sum()],
                  AbstractValue((2, 2), np.float64))
    merged = prune_dead_code(checked(graph, np.arange(4.0).reshape(2, 2)))
    assert str(merged).count("sum[axis=(0,)") == 1 and str(merged).count("sum[axis=(1,)") == 1


def test_constants_merge_as_operands():
    W = np.eye(2)
    graph = build(lambda x: [bind(ufunc_primitive(np.add), W, x)
                             * bind(ufunc_primitive(np.add), W, x)],
                  AbstractValue((2, 2), np.float64))
    merged = prune_dead_code(checked(graph, np.ones((2, 2))))
    assert str(merged).count("= add") == 1
