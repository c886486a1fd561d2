"""`runtime.passes.merge_matmuls`: `x @ A + h @ B` as one product; integers bit for bit,
floats only when `config.merge_float_matmuls` allows (and then within a few ulp)."""
from __future__ import annotations

import numpy as np
import pytest

import autograph_runtime as runtime
from autograph_runtime import AbstractValue
from autograph_runtime.effects import prune_dead_code
from autograph_runtime.passes.merge_matmuls import merge_matmuls
from autograph_runtime.verify import verify
from hand_graphs import build, run


def build_xh(fn, *avals):
    return build(fn, *avals, names="xhz")

RNG = np.random.default_rng(0)


def merged(graph):
    result = prune_dead_code(merge_matmuls(graph))
    verify(result)
    return result


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "bool"])
def test_integer_products_merge_bit_for_bit(dtype):
    A = RNG.integers(0, 100, (3, 4)).astype(dtype)
    B = RNG.integers(0, 100, (2, 4)).astype(dtype)
    graph = build_xh(lambda x, h: [x @ A + h @ B], AbstractValue((5, 3), dtype),
                  AbstractValue((5, 2), dtype))
    result = merged(graph)
    assert [e.primitive.name for e in result.eqns] == ["concatenate", "matmul"]
    x = RNG.integers(0, 100, (5, 3)).astype(dtype)
    h = RNG.integers(0, 100, (5, 2)).astype(dtype)
    with np.errstate(all="ignore"):
        expected = x @ A + h @ B
    np.testing.assert_array_equal(run(result, x, h)[0], expected, strict=True)


def test_floats_merge_only_when_allowed(monkeypatch):
    A, B = RNG.standard_normal((10, 40), np.float32), RNG.standard_normal((10, 40), np.float32)
    graph = build_xh(lambda x, h: [x @ A + h @ B], AbstractValue((1, 10), np.float32),
                  AbstractValue((1, 10), np.float32))
    assert merge_matmuls(graph) is graph
    monkeypatch.setattr(runtime.config, "merge_float_matmuls", True)
    result = merged(graph)
    assert [e.primitive.name for e in result.eqns] == ["concatenate", "matmul"]
    x, h = RNG.standard_normal((1, 10), np.float32), RNG.standard_normal((1, 10), np.float32)
    (got,) = run(result, x, h)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, x @ A + h @ B, rtol=1e-5, atol=1e-5)


def test_what_does_not_fit_stays():
    A, B = np.ones((3, 4), np.int64), np.ones((2, 4), np.int64)
    cases = [
        (lambda x, h: [x @ A + h @ B], (1, 3), (5, 2)),      # rows broadcast
        (lambda x, h: (lambda p: [p + h @ B, p])(x @ A), (5, 3), (5, 2)),  # p escapes
        (lambda x, h: (lambda p: [(p + h @ B) * p])(x @ A), (5, 3), (5, 2)),  # read twice
        (lambda x, h: [x @ A + h @ h.T[:, :4]], (5, 3), (5, 2)),   # not a constant
        (lambda x, h: [x @ A + h @ B], (None, 3), (None, 2)),  # unknown rows
    ]
    for fn, xs, hs in cases:
        graph = build_xh(fn, AbstractValue(xs, np.int64), AbstractValue(hs, np.int64))
        assert merge_matmuls(graph) is graph, str(graph)
