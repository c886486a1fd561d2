"""`runtime.passes.constant_folding`: constants computed once, bit for bit; effects, errors,
warnings and large results left to the graph's run."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph_runtime as runtime
from autograph_runtime import AbstractValue, GraphBuilder
from autograph_runtime.ir import Literal
from autograph_runtime.ops.effects import print_
from autograph_runtime.ops.elementwise import ufunc_primitive as ufunc
from autograph_runtime.passes.constant_folding import MAX_BYTES, constant_folding
from autograph_runtime.tracer import bind
from autograph_runtime.verify import verify
from hand_graphs import build, run


def folded(graph):
    result = runtime.effects.prune_dead_code(constant_folding(graph))
    verify(result)
    return result


def test_weights_fold_bit_for_bit():
    W = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)
    graph = build(lambda x: [x @ bind(ufunc(np.exp), bind(ufunc(np.multiply), W, 0.3))],
                  AbstractValue((2, 4), np.float32))
    result = folded(graph)
    assert [e.primitive.name for e in result.eqns] == ["matmul"]
    (const,) = result.consts.values()
    assert not const.flags.writeable
    np.testing.assert_array_equal(const, np.exp(W * np.float32(0.3)), strict=True)
    x = np.ones((2, 4), np.float32)
    np.testing.assert_array_equal(run(result, x)[0], run(graph, x)[0], strict=True)


def test_scalars_become_literals_of_their_type():
    graph = build(lambda x: [x + bind(ufunc(np.sqrt), np.float32(4.0))],
                  AbstractValue((2,), np.float16))
    result = folded(graph)
    (add,) = result.eqns
    assert isinstance(add.inputs[1], Literal) and type(add.inputs[1].value) is np.float32
    x = np.ones(2, np.float16)
    np.testing.assert_array_equal(run(result, x)[0], run(graph, x)[0], strict=True)


def test_a_chain_folds_at_once():
    graph = build(lambda x: [x * bind(ufunc(np.add), bind(ufunc(np.multiply), np.arange(3), 2), 1)],
                  AbstractValue((3,), np.int64))
    result = folded(graph)
    assert [e.primitive.name for e in result.eqns] == ["multiply"]
    np.testing.assert_array_equal(run(result, np.ones(3, np.int64))[0], [1, 3, 5], strict=True)


@pytest.mark.parametrize("make", [
    lambda: bind(ufunc(np.divide), np.ones(2), 0.0),                # warns: divide by zero
    lambda: bind(ufunc(np.sqrt), np.array([-1.0])),                 # warns: invalid value
    lambda: bind(ufunc(np.multiply), np.array([1e308]), 10.0),      # warns: overflow
    lambda: bind(ufunc(np.floor_divide), np.arange(2), np.int64(0)),  # warns for ints too
], ids=["divide", "sqrt", "overflow", "int-divide"])
def test_what_warns_stays_and_warns_at_each_run(make):
    graph = build(lambda x: [x + make()], AbstractValue((), np.float64))
    result = folded(graph)
    assert len(result.eqns) == 2
    for _ in range(2):
        with pytest.warns(RuntimeWarning):
            run(result, np.float64(1.0))
        with np.errstate(all="raise"), pytest.raises(FloatingPointError):
            run(result, np.float64(1.0))


def test_effects_stay():
    def fn(x):
        print_(bind(ufunc(np.add), np.ones(2), 1.0), always_stage=True)
        return [x]
    graph = build(fn, AbstractValue((), np.float64))
    result = folded(graph)
    assert [e.primitive.name for e in result.eqns] == ["print"]
    assert isinstance(result.eqns[0].inputs[0], runtime.ir.Var)  # its operand folded


def test_large_results_stay():
    n = MAX_BYTES // 8 + 1
    graph = build(lambda x: [x + bind(ufunc(np.add), np.zeros(n), 1.0)],
                  AbstractValue((n,), np.float64))
    assert constant_folding(graph) is graph


def test_nothing_to_fold_gives_the_graph_itself():
    graph = build(lambda x: [np.tanh(x)], AbstractValue((3,), np.float64))
    assert constant_folding(graph) is graph


def test_subgraphs_fold_their_own_constants():
    W = np.arange(3.0)

    def fn(x):
        return runtime.while_loop(lambda s: s[0] < 3,
                                  lambda s: (s[0] + 1, s[1] + bind(ufunc(np.square), W)),
                                  (0, x))[1:]
    graph = build(fn, AbstractValue((3,), np.float64))
    result = folded(graph)
    body = result.eqns[0].params["body"]
    assert "square" not in str(result) and len(body.consts) >= 1
    x = np.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(run(result, x)[0], 3 * W ** 2, strict=True)


def test_arrays_someone_may_change_do_not_fold():
    """A writeable constant (or a read-only view of a writeable array) is read at each run."""
    base = np.arange(3.0)
    view = base[:]
    view.flags.writeable = False
    for value in (base, view):
        with GraphBuilder("f") as builder:
            x = builder.new_input(AbstractValue((3,), np.float64), "x")
            y = x + bind(ufunc(np.exp), np.zeros(3))
        graph = builder.build([y])
        exp = graph.eqns[0]
        (const,) = graph.consts
        graph.consts[const] = value
        assert exp.primitive.name == "exp" and constant_folding(graph) is graph
    frozen = np.arange(3.0)
    frozen.flags.writeable = False
    graph.consts[const] = frozen
    assert len(folded(graph).eqns) == 1
