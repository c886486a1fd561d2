"""`.real`, `.imag`, `.conjugate()` of traced complex values, against NumPy.

A Python complex carried through a staged loop is a traced value; eager code
reads its parts and conjugates it as Python does (the table in
test_ops_table.py covers the real dtypes).
"""
import numpy as np
import pytest

import autograph as ag


def parts(z):
    return z.real, z.imag, np.real(z) * 2, np.imag(z), z.conjugate(), z.conj()


@pytest.mark.parametrize("z", [np.array([1 + 2j, -3.5j]), np.complex64(2 - 1j),
                               np.array([1.5, -2.0], np.float32)])
def test_parts_match_numpy(z):
    got = ag.convert(parts)(z)
    for g, want in zip(got, parts(z)):
        assert np.asarray(g).dtype == np.asarray(want).dtype
        np.testing.assert_array_equal(g, want)


def python_complex_state(n, x):
    q = 0j
    for i in range(n):
        q = (q + 0.5j).conjugate() + x
    return q.real + q.imag, q


def test_a_python_complex_carried_through_a_staged_loop():
    converted = ag.convert(python_complex_state)
    for n in [0, 1, 4]:
        got = converted(np.int64(n), np.float64(1.5))
        want = python_complex_state(n, 1.5)
        np.testing.assert_allclose(got[0], want[0])
        np.testing.assert_allclose(got[1], want[1])
    assert converted.trace_count == 1


def test_gradient_of_real_parts_of_a_real_array():
    def loss(x):
        return (x.real * 3.0 + x.imag).sum()
    np.testing.assert_allclose(ag.grad(loss)(np.array([1.0, 2.0])), [3.0, 3.0])


def test_a_gradient_through_a_complex_intermediate_is_refused_not_zero():
    def loss(x):
        return np.abs(x * (1 + 1j)).sum()   # the gradient is sqrt(2); it used to be 0
    with pytest.raises(ag.TracingError, match="complex"):
        ag.grad(loss)(np.array([1.0]))


def test_no_complex_gradient_is_guessed():
    def loss(x):
        z = x * (1 + 1j)
        return np.real(z * z).sum()
    with pytest.raises(ag.TracingError, match="complex"):
        ag.grad(loss)(np.array([1.0]))
