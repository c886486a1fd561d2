"""In-place operators on traced values: NumPy's dtype rules, names that alias, views."""
import numpy as np
import pytest

import autograph as ag


def aliased_name(x):
    y = x.copy()
    z = y
    y *= 2
    return z


def keeps_dtype(x):
    y = x.astype(np.float32)
    y += np.arange(3.0)
    return y


def in_loop(x, n):
    total = np.zeros_like(x)
    for _ in range(n):
        total += x
    return total


@pytest.mark.parametrize("fn, args", [
    (aliased_name, (np.arange(3.0),)),
    (keeps_dtype, (np.arange(3.0),)),
    (in_loop, (np.arange(3.0), np.int64(4))),
])
def test_in_place_matches_eager(fn, args):
    eager = fn(*[a.copy() for a in args])
    graph = ag.convert(fn)(*args)
    assert graph.dtype == eager.dtype
    np.testing.assert_array_equal(graph, eager)


def test_in_place_on_a_view_writes_its_base():
    def f(x):
        y = x[1:]
        y += 1
        return x
    np.testing.assert_array_equal(ag.convert(f)(np.zeros(3)), f(np.zeros(3)))


def test_in_place_cast_error_is_numpys():
    def f(x):
        y = x.astype(np.int32)
        y += 1.5
        return y
    with pytest.raises(TypeError) as eager:
        f(np.zeros(3))
    with pytest.raises(type(eager.value)):
        ag.convert(f)(np.zeros(3))
