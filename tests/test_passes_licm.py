"""`runtime.passes.licm`: loop invariants that cannot raise or warn move out of `while` bodies."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph_runtime as runtime
from autograph_runtime import AbstractValue, GraphBuilder
from autograph_runtime.ops.effects import print_
from autograph_runtime.passes.licm import HOISTABLE, licm
from autograph_runtime.verify import verify
from hand_graphs import run


def loop(body, n, *avals):
    """A graph running `body(i, y, *captured)` while `i < n` (`n` the first input)."""
    with GraphBuilder("f") as builder:
        count = builder.new_input(AbstractValue((), np.int64), "n")
        y0, *captured = [builder.new_input(a, name) for a, name in zip(avals, "yabc")]
        _, y = runtime.while_loop(lambda s: s[0] < count,
                                  lambda s: (s[0] + 1, body(s[1], *captured)), (0, y0))
    return builder.build([y])


def hoisted(graph):
    result = licm(graph)
    verify(result)
    outer = [e.primitive.name for e in result.eqns if e.primitive.name != "while_loop"]
    return result, outer


def same_results(graph, result, *args):
    for n in (0, 1, 3):
        for got, want in zip(run(result, np.int64(n), *args), run(graph, np.int64(n), *args)):
            np.testing.assert_array_equal(got, want, strict=True)


def test_shape_work_and_casts_move_out():
    graph = loop(lambda y, a, b: y + a.T.reshape(6).astype(np.float64)[1:] * (b > 0),
                 None, AbstractValue((5,), np.float64), AbstractValue((3, 2), np.int32),
                 AbstractValue((5,), np.int64))
    result, outer = hoisted(graph)
    assert outer == ["transpose", "reshape", "astype", "getitem", "greater"]
    body = result.eqns[-1].params["body"]
    assert [e.primitive.name for e in body.eqns] == ["python_op", "multiply", "add"]
    same_results(graph, result, np.zeros(5), np.arange(6, dtype=np.int32).reshape(3, 2),
                 np.array([1, -1, 2, 0, 3]))


@pytest.mark.parametrize("body, arg", [
    (lambda y, a: y + np.log(a), np.zeros(3)),              # warns: divide by zero
    (lambda y, a: y + a * 1e308, np.full(3, 10.0)),         # float: may overflow
    (lambda y, a: y + a[np.int64(5) - 5 + 1], np.arange(3.0)),  # an index read from a value
    (lambda y, a: y + a.astype(np.int64), np.array([np.nan, 1.0, 2.0])),  # warns: invalid cast
    (lambda y, a: y + a // a, np.zeros(3)),                 # warns: divide by zero
], ids=["log", "overflow", "dynamic-index", "cast", "floor-divide"])
def test_what_may_warn_or_raise_stays_in_the_body(body, arg):
    graph = loop(body, None, AbstractValue((3,), np.float64), AbstractValue(arg.shape, arg.dtype))
    result, outer = hoisted(graph)
    assert not [name for name in outer if name not in ("getitem", "subtract", "add")], outer
    with warnings.catch_warnings():   # no trip: no warning, as eagerly
        warnings.simplefilter("error")
        run(result, np.int64(0), np.zeros(3), arg)


def test_effects_stay_in_the_body():
    def body(y, a):
        print_(a.T, always_stage=True)
        return y + 1
    graph = loop(body, None, AbstractValue((2, 2), np.float64), AbstractValue((2, 2), np.float64))
    result, outer = hoisted(graph)
    assert outer == ["transpose"]  # the view moves out; the print stays
    assert "print" in str(result.eqns[-1].params["body"])


def test_integer_arithmetic_on_scalars_stays():
    """NumPy scalars warn where integer arrays wrap silently: 0-d integer work stays."""
    graph = loop(lambda y, a: y + (a * a), None, AbstractValue((), np.int64),
                 AbstractValue((), np.int64))
    result, outer = hoisted(graph)
    assert outer == []
    graph = loop(lambda y, a: y + (a * a), None, AbstractValue((2,), np.int64),
                 AbstractValue((2,), np.int64))
    result, outer = hoisted(graph)
    assert outer == ["multiply"]
    same_results(graph, result, np.zeros(2, np.int64), np.array([2**62, 3]))


def test_nested_loops_hoist_through_every_level():
    def inner_loop(y, a):
        return runtime.while_loop(lambda s: s[0] < 2, lambda s: (s[0] + 1, s[1] + a.T), (0, y))[1]
    square = AbstractValue((2, 2), np.float64)
    graph = loop(inner_loop, None, square, square)
    result, outer = hoisted(graph)
    assert outer == ["transpose"]
    same_results(graph, result, np.zeros((2, 2)), np.arange(4.0).reshape(2, 2))


def test_a_carried_result_stays():
    graph = loop(lambda y, a: a.T, None, AbstractValue((2, 2), np.float64),
                 AbstractValue((2, 2), np.float64))
    assert licm(graph) is graph


def test_hoistable_rules_are_keyed_by_primitive():
    assert {p.name for p in HOISTABLE} >= {"transpose", "reshape", "getitem", "astype", "less"}


def test_the_condition_hoists_too():
    """`while i < n.T.sum()`-like conditions: the invariant moves out, after the condition's
    constants come its new ones, before the body's."""
    with GraphBuilder("f") as builder:
        limit = builder.new_input(AbstractValue((2, 2), np.int64), "limit")
        a = builder.new_input(AbstractValue((2, 2), np.float64), "a")
        _, y = runtime.while_loop(lambda s: np.any(s[0] < limit.T),
                                  lambda s: (s[0] + 1, s[1] + np.abs(-a)),
                                  (np.zeros((2, 2), np.int64), a))
    graph = builder.build([y])
    result, outer = hoisted(graph)
    assert outer == ["transpose", "negative", "absolute"]
    loop = result.eqns[-1]
    assert loop.params["num_cond_consts"] == graph.eqns[-1].params["num_cond_consts"] + 1
    args = (np.array([[0, 1], [2, 3]]), np.arange(4.0).reshape(2, 2))
    for got, want in zip(run(result, *args), run(graph, *args)):
        np.testing.assert_array_equal(got, want, strict=True)


def test_float_negation_and_tests_move_out_but_not_of_integer_scalars():
    graph = loop(lambda y, a: y + np.where(np.isnan(a), 0.0, np.abs(-a)), None,
                 AbstractValue((3,), np.float64), AbstractValue((3,), np.float64))
    result, outer = hoisted(graph)
    assert outer == ["isnan", "negative", "absolute", "where"]
    same_results(graph, result, np.zeros(3), np.array([np.nan, -np.inf, -0.0]))
    scalar = AbstractValue((), np.int8)
    graph = loop(lambda y, a: y + (-a), None, scalar, scalar)
    assert hoisted(graph)[1] == []
