"""`runtime.passes.simplify`: each rule against eager NumPy on every dtype, special values included.

A row traces `pattern(x)` for an input of each dtype, returns a copy of it (so
the result does not escape, and the rule may drop the equation), and checks
that the simplified graph passes the verifier, fires where the row says, and
gives exactly what eager NumPy and the unsimplified graph give.
"""
from __future__ import annotations

import numpy as np
import pytest
from oracle import ALL_DTYPES

import autograph_runtime as runtime
from autograph_runtime import AbstractValue, GraphBuilder
from autograph_runtime.passes.simplify import RULES, simplify
from autograph_runtime.verify import verify
from hand_graphs import run

DTYPES = ALL_DTYPES + ("float16", "uint64", "complex64")


def special_values(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        values = [True, False, True, True, False, False]
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        values = [info.min, info.max, 0, 1, info.max // 2, info.min + 1]
    elif dtype.kind == "f":
        values = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5]
    else:
        values = [complex(1, np.inf), complex(-0.0, -0.0), complex(np.nan, 1),
                  complex(-1, 0.0), complex(0.0, -0.0), complex(np.inf, 2)]
    return np.array(values, dtype).reshape(2, 3)


# (id, pattern, the dtype kinds where the rule fires)
ROWS = [
    ("x*1", lambda x: x * 1, "iuf"),
    ("1*x", lambda x: 1 * x, "iuf"),
    ("x*True", lambda x: x * True, "biuf"),
    ("x*1.0", lambda x: x * 1.0, "f"),
    ("x*-1", lambda x: x * -1, ""),
    ("x/1", lambda x: x / 1, "f"),
    ("x-0", lambda x: x - 0, "iuf"),
    ("x-0.0", lambda x: x - 0.0, "f"),
    ("x-(-0.0)", lambda x: x - (-0.0), ""),
    ("0-x", lambda x: 0 - x, ""),
    ("x+0", lambda x: x + 0, "iu"),
    ("0+x", lambda x: 0 + x, "iu"),
    ("x+False", lambda x: x + False, "biu"),
    ("x+0.0", lambda x: x + 0.0, ""),
    ("x+(-0.0)", lambda x: x + (-0.0), "f"),
    ("-(-x)", lambda x: -(-x), "iufc"),
    ("x.T.T", lambda x: x.T.T, "biufc"),
    ("x.astype(dtype)", lambda x: x.astype(x.dtype), "biufc"),
    ("reshape.reshape", lambda x: x.reshape(3, 2).reshape(6), "biufc"),
]


def trace(pattern, dtype):
    with GraphBuilder("f") as builder:
        x = builder.new_input(AbstractValue((2, 3), dtype), "x")
        y = np.copy(pattern(x))
    return builder.build([y])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name, pattern, kinds", ROWS, ids=[r[0] for r in ROWS])
def test_rule_against_eager(name, pattern, kinds, dtype):
    x = special_values(dtype)
    try:
        with np.errstate(all="ignore"):
            expected = np.copy(pattern(x))
    except (TypeError, OverflowError) as error:  # `-x` of bool, `x * -1` of uint8
        with pytest.raises(type(error)):
            trace(pattern, dtype)
        return
    graph = trace(pattern, dtype)
    simplified = runtime.effects.prune_dead_code(simplify(graph))
    verify(simplified)
    fired = len(simplified.eqns) < len(graph.eqns)
    assert fired == (np.dtype(dtype).kind in kinds), str(simplified)
    with np.errstate(all="ignore"):
        (got,), (before,) = run(simplified, x), run(graph, x)
    for result in (got, before):
        assert result.dtype == expected.dtype
        np.testing.assert_array_equal(result, expected, strict=True)
        assert np.array_equal(np.signbit(np.real(result)), np.signbit(np.real(expected)))
        assert np.array_equal(np.signbit(np.imag(result)), np.signbit(np.imag(expected)))


def test_every_rule_has_a_row():
    names = {p.name for p in RULES}
    rows = {"multiply", "divide", "subtract", "add", "negative", "transpose", "astype", "reshape"}
    assert names == rows


def test_an_escaping_result_stays_a_fresh_array():
    """`return x * 1` gives a new array eagerly: never the input itself."""
    with GraphBuilder("f") as builder:
        x = builder.new_input(AbstractValue((3,), np.float64), "x")
        y = x * 1
    graph = builder.build([y])
    assert simplify(graph) is graph
    a = np.ones(3)
    (out,) = run(simplify(graph), a)
    assert out is not a and not np.shares_memory(out, a)


def test_transposes_compose_into_one():
    with GraphBuilder("f") as builder:
        x = builder.new_input(AbstractValue((2, 3, 4), np.float32), "x")
        y = np.copy(np.transpose(np.transpose(x, (1, 2, 0)), (0, 2, 1)))
    graph = builder.build([y])
    simplified = runtime.effects.prune_dead_code(simplify(graph))
    assert str(simplified) == (
        "graph f(x:f32[2,3,4]) {\n"
        "  t0:f32[3,2,4] = transpose[axes=(1, 0, 2)] x\n"
        "  t1:f32[3,2,4] = copy[order='K'] t0\n"
        "  return t1\n"
        "}")
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(run(simplified, a)[0], run(graph, a)[0], strict=True)


def test_subgraphs_are_simplified():
    with GraphBuilder("f") as builder:
        x = builder.new_input(AbstractValue((3,), np.int64), "x")
        _, y = runtime.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] * 1 + 2), (0, x))
    graph = builder.build([y])
    simplified = simplify(graph)
    verify(simplified)
    assert "multiply" in str(graph) and "multiply" not in str(
        runtime.effects.prune_dead_code(simplified))
    a = np.arange(3)
    np.testing.assert_array_equal(run(simplified, a)[0], a + 6, strict=True)
