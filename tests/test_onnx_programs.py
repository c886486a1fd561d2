"""Whole programs exported to ONNX and run in onnxruntime: the README's LSTM cell and its
staged 100-step loop, Collatz, and a trained MLP (its prediction, and its train step,
which writes the variables: their values before are inputs, after outputs)."""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest
from onnx_check import check, close, run_model

import autograph as ag

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
try:
    import demo
    import train_mlp
finally:
    sys.path.pop(0)
from programs import collatz  # noqa: E402


def _lstm_args(rng, units=10):
    h, c = (rng.standard_normal((1, units)).astype(np.float32) for _ in range(2))
    w, u = (rng.standard_normal((units, 4 * units)).astype(np.float32) * 0.3 for _ in range(2))
    b = rng.standard_normal(4 * units).astype(np.float32) * 0.1
    return h, c, w, u, b


def test_the_lstm_cell(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 10)).astype(np.float32)
    runs = [(rng.standard_normal((1, 10)).astype(np.float32), *_lstm_args(rng))
            for _ in range(3)]
    # float32 products summed in another order, and onnxruntime's own exp and tanh: a
    # gate near zero after cancellation differs by more ulps than its size suggests
    check(demo.lstm_cell, x, *_lstm_args(rng), path=tmp_path / "cell.onnx", runs=runs,
          ulps=(1e-5, 1e-6))


def test_the_lstm_over_a_staged_loop_of_100_steps(tmp_path):
    rng = np.random.default_rng(1)
    xs = rng.standard_normal((100, 1, 10)).astype(np.float32)
    args = (xs, *_lstm_args(rng), np.int64(100))
    concrete = ag.convert(demo.run_lstm).get_concrete_function(*args)
    assert any(e.primitive.name == "while_loop" for e in concrete.graph.eqns)
    model = concrete.export_onnx(tmp_path / "loop.onnx")
    loop, = [n for n in model.graph.node if n.op_type == "Loop"]
    assert loop.input[0] and not loop.input[1]   # `range(steps)`: a trip count, no condition
    for steps in (100, 37, 0):
        run = (xs, *args[1:6], np.int64(steps))
        got = run_model(tmp_path / "loop.onnx", run)[0]
        want = demo.run_lstm(*run[:6], steps)
        # exp and tanh differ from NumPy's by an ulp now and then, and 100 recurrent
        # steps carry such differences on: a float32 tolerance, not a few ulp
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)


def test_collatz(tmp_path):
    check(demo.collatz, np.int64(27), path=tmp_path / "c.onnx",
          runs=[(np.int64(n),) for n in (1, 97, 871, 63728127)])
    check(collatz.collatz_lengths, np.arange(1, 40), path=tmp_path / "lengths.onnx",
          runs=[(np.arange(100, 139),)])
    with pytest.warns(ag.ExportWarning, match="the assert at .*collatz.py"):
        check(collatz.collatz_max, np.int64(27), path=tmp_path / "max.onnx",
              runs=[(np.int64(n),) for n in (1, 97, 871)])


def test_a_trained_mlp_and_its_train_step(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (128, 1))
    y = np.sin(3 * x[:, 0])
    model = train_mlp.MLP(seed=0)
    model.build(1)
    train_step = train_mlp.make_train_step(model)
    for _ in range(100):
        train_step(x, y)
    predict = ag.convert(lambda x: model(x))
    predict.get_concrete_function(ag.TensorSpec((None, 1), np.float64)).export_onnx(
        tmp_path / "mlp.onnx")
    fresh = rng.uniform(-1, 1, (17, 1))
    assert close(model(fresh), run_model(tmp_path / "mlp.onnx", [fresh])[0], ulps=8)

    step = train_step.get_concrete_function(x, y)
    step.export_onnx(tmp_path / "step.onnx")
    before = [v.numpy().copy() for v in model.variables]
    loss, *after = run_model(tmp_path / "step.onnx", [x, y, *before])
    want_loss = train_step(x, y)
    assert close(np.asarray(want_loss), loss, ulps=8)
    for got, variable in zip(after, model.variables):
        np.testing.assert_allclose(got, variable.numpy(), rtol=1e-12, atol=1e-15)
