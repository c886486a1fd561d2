"""The CuPy backend: the same graphs on a GPU, where one exists."""
import numpy as np
import pytest

import autograph as ag
import autograph_runtime as runtime
from autograph_runtime.backend import gpu_available

needs_gpu = pytest.mark.skipif(not gpu_available(),
                               reason="CuPy cannot see a GPU on this machine")


def mlp(x, w1, w2):
    hidden = np.maximum(x @ w1, 0)
    return np.tanh(hidden @ w2).sum(axis=1)


def loop_sum(x, n):
    return runtime.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] + x[s[0]]),
                              (0, x[0] * 0))[1]


@pytest.mark.skipif(gpu_available(), reason="this machine has a GPU")
def test_asking_for_a_gpu_without_one_is_a_clear_error():
    with pytest.raises(RuntimeError, match="GPU"):
        with ag.device("gpu"):
            pass


def test_unknown_device_names_are_rejected():
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        with ag.device("tpu"):
            pass


@needs_gpu
def test_graph_on_gpu_matches_numpy():
    import cupy
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s).astype(np.float32) for s in [(8, 5), (5, 16), (16, 3)]]
    f = ag.convert(mlp)
    with ag.device("gpu"):
        out = f(*args)
    assert isinstance(out, cupy.ndarray)
    np.testing.assert_allclose(out.get(), mlp(*args), rtol=1e-5)
    assert f.trace_count == 1
    f(*args)  # the CPU is another cache key
    assert f.trace_count == 2


@needs_gpu
def test_staged_loop_on_gpu_matches_numpy():
    x = np.arange(6.0)
    f = ag.convert(loop_sum)
    with ag.device("gpu"):
        out = f(x, np.int64(4))
    assert float(out) == x[:4].sum()


@needs_gpu
def test_cupy_inputs_run_on_their_gpu():
    import cupy
    x = cupy.arange(4, dtype=cupy.float32)
    f = ag.convert(lambda v: v * 2 + 1)
    out = f(x)
    assert isinstance(out, cupy.ndarray)
    np.testing.assert_array_equal(out.get(), np.arange(4, dtype=np.float32) * 2 + 1)


@needs_gpu
def test_variables_on_gpu_keep_program_order_and_come_back_to_the_host():
    v = ag.Variable(np.zeros(3, np.float32), name="v")

    @ag.convert
    def step(x):
        v.assign_add(x)
        return v.read_value() * 2

    with ag.device("gpu"):
        out = step(np.ones(3, np.float32))
        out = step(np.ones(3, np.float32))
    np.testing.assert_array_equal(out.get(), [4, 4, 4])
    np.testing.assert_array_equal(v.numpy(), [2, 2, 2])       # read back on the host
    np.testing.assert_array_equal(step(np.ones(3, np.float32)), [6, 6, 6])  # then on the CPU
