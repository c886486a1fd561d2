"""`ag.run_functions_eagerly`: graph functions run as plain Python while it is on."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import autograph as ag


def clipped_sum(x, limit):
    total = np.float64(0.0)
    for v in x:
        if v > limit:            # a traced `if` when converted; Python's when eager
            break
        total += v
    print("total", total)
    return total


@pytest.fixture(autouse=True)
def graph_mode():
    yield
    ag.run_functions_eagerly(False)


def test_a_converted_function_runs_its_python_while_on(capsys):
    f = ag.convert(clipped_sum)
    x = np.array([1.0, 2.0, 5.0, 1.0])
    ag.run_functions_eagerly(True)
    assert ag.functions_run_eagerly()
    assert f(x, 3.0) == clipped_sum(x, 3.0) == 3.0
    assert f.trace_count == 0                     # nothing traced
    assert type(f(x, 3.0)) is np.float64          # eager code's own NumPy scalar
    assert capsys.readouterr().out == "total 3.0\n" * 3
    ag.run_functions_eagerly(False)
    assert f(x, 3.0) == 3.0 and f.trace_count == 1


def test_the_context_manager_restores_the_setting():
    f = ag.convert(clipped_sum)
    x = np.arange(3.0)
    with ag.run_functions_eagerly(True):
        f(x, 10.0)
        with ag.run_functions_eagerly(False):
            f(x, 10.0)                            # traced here
            assert f.trace_count == 1
        assert ag.functions_run_eagerly()
        f(x, 10.0)
    assert not ag.functions_run_eagerly()
    assert f.trace_count == 1


def test_breakpoints_stop_in_the_users_lines():
    seen = []

    def step(x):
        seen.append(sys._getframe().f_code.co_filename)   # the frame pdb would show
        return x * 2

    f = ag.convert(step)
    with ag.run_functions_eagerly(True):
        f(np.ones(2))
    assert seen == [__file__]


def test_methods_run_on_their_instance_unconverted():
    class Model:
        def __init__(self):
            self.scale = 3.0

        @ag.convert
        def __call__(self, x):
            if x.sum() > 0:
                return x * self.scale
            return -x

    model = Model()
    with ag.run_functions_eagerly(True):
        np.testing.assert_array_equal(model(np.ones(2)), np.full(2, 3.0))
    assert Model.__call__.trace_count == 0


def test_gradients_and_variables_still_work():
    v = ag.Variable(np.array([1.0, 2.0]))

    @ag.convert
    def loss(x):
        v.assign_add(np.ones(2))
        return np.sum(x ** 2)

    x = np.array([1.0, -3.0])
    with ag.run_functions_eagerly(True):
        assert loss(x) == 10.0
        np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])
        np.testing.assert_allclose(ag.grad(loss)(x), 2 * x)


def test_a_callee_inside_a_trace_is_traced_as_always():
    inner = ag.convert(lambda x: x + 1)

    @ag.convert
    def outer(x):
        return inner(x) * 2

    g = ag.grad(lambda x: np.sum(outer(x)))
    with ag.run_functions_eagerly(True):
        np.testing.assert_allclose(g(np.ones(3)), np.full(3, 2.0))


def test_the_environment_variable_turns_it_on():
    code = ("import numpy as np, autograph as ag\n"
            "f = ag.convert(lambda x: x + 1)\n"
            "print(ag.functions_run_eagerly(), f(np.ones(2)).tolist(), f.trace_count)\n")
    env = {**os.environ, "AUTOGRAPH_RUN_EAGERLY": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == ["True", "[2.0,", "2.0]", "0"]
