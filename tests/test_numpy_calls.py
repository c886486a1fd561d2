"""NumPy functions without a staged form run as NumPy's own when the graph runs
(`runtime/ops/numpy_calls.py`), each against eager NumPy; what cannot is refused clearly."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag
from autograph_runtime import AbstractValue, GraphBuilder, compile_graph, get_backend
from autograph_runtime.ops.indexing import Dyn
from autograph_runtime.ops import numpy_calls
from autograph_runtime.ops.numpy_calls import numpy_call_p


def _conditioned_solve(a, b):
    if np.linalg.cond(a) > 1e12:
        raise np.linalg.LinAlgError("ill-conditioned")
    return np.linalg.solve(a, b)


def _newton(coeffs, x):
    slope = np.polyder(coeffs)
    step = np.inf
    while abs(step) > 1e-12:
        step = np.polyval(coeffs, x) / np.polyval(slope, x)
        x = x - step
    return x


def _spectra(m):
    return np.abs(np.fft.fft2(m)), np.fft.fftshift(m, axes=0), np.trapezoid(m, dx=0.5)


def _ranked(keys_a, keys_b):
    order = np.lexsort((keys_a, keys_b))
    return order, np.vander(keys_a[:3], 4)


def _counts(x):
    found = np.unique_counts(np.round(x))
    return found.values, found.counts, found.counts.sum()


def _outer(a, b):
    return np.add.outer(a, b) * 2


CASES = [
    (_conditioned_solve, lambda r: (np.eye(3) + 0.1 * r.standard_normal((3, 3)),
                                    r.standard_normal(3))),
    (_newton, lambda r: (np.array([1.0, 0.0, -2.0]), np.float64(1.0 + r.random()))),
    (_spectra, lambda r: (r.standard_normal((4, 6)),)),
    (_ranked, lambda r: (r.integers(0, 3, 7), r.integers(0, 3, 7))),
    (_counts, lambda r: (r.standard_normal(12) * 2,)),
    (_outer, lambda r: (r.standard_normal(3), r.standard_normal(4))),
]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("fn, make", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_numpys_own_gives_eagers_answer(fn, make, seed):
    args = make(np.random.default_rng(seed))
    want = fn(*args)
    got = ag.convert(fn)(*args)
    for g, w in zip(*(x if isinstance(x, tuple) else (x,) for x in (got, want))):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(g, w)


def test_the_graph_holds_a_numpy_call_and_a_shape_that_depends_on_values_is_unknown():
    concrete = ag.convert(_counts).get_concrete_function(np.zeros(12))
    calls = [e for e in concrete.graph.all_eqns() if e.primitive is numpy_call_p]
    assert [e.params["function"] for e in calls] == ["numpy.unique_counts"]
    assert [v.aval.shape for v in calls[0].outputs] == [(None,), (None,)]


def test_a_named_tuple_result_keeps_its_fields():
    f = ag.convert(lambda x: np.unique_counts(x).counts)
    np.testing.assert_array_equal(f(np.array([3, 1, 3, 3])), [1, 3])


def test_errors_are_numpys_when_the_graph_runs():
    f = ag.convert(_conditioned_solve)
    np.testing.assert_allclose(f(np.eye(2), np.ones(2)), np.ones(2))
    with pytest.raises(np.linalg.LinAlgError, match="ill-conditioned"):
        f(np.array([[1.0, 1.0], [1.0, 1.0]]), np.ones(2))


def test_a_result_other_than_the_probes_showed_is_a_clear_error():
    with GraphBuilder("f") as builder:
        x = builder.new_input(AbstractValue((4,), np.float64), "x")
        (y,) = builder.add(numpy_call_p, [x], dict(
            function="numpy.unique", args=(Dyn(0),), kwargs=(),
            out_avals=(AbstractValue((4,), np.float64),), multiple=False))
    run = compile_graph(builder.build([y]), get_backend("cpu"))
    np.testing.assert_array_equal(run(np.array([4.0, 1.0, 2.0, 3.0]))[0], [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match=r"numpy.unique returned float64\[2\] where tracing "
                                         r"saw f64\[4\]"):
        run(np.array([1.0, 1.0, 2.0, 2.0]))


@pytest.mark.parametrize("fn, reason", [
    (lambda x: np.apply_along_axis(lambda r: r.sum(), 0, x), "calls a Python function"),
    (lambda x: np.einsum_path("ij,jk", x, x), "its result holds values that are not arrays"),
    (lambda x: np.shares_memory(x, x[1:]), ""),
    (lambda x: np.putmask(x, x > 0, 1.0), "it writes its arguments in place"),
], ids=["python-function", "a list and a str", "memory-query", "writes"])
def test_what_cannot_run_as_numpys_own_is_refused_naming_why(fn, reason):
    with pytest.raises(ag.TracingError, match=f"is not supported on traced values.*{reason}"):
        ag.convert(fn, autograph=False)(np.ones((3, 3)))


def test_a_function_that_writes_its_arguments_is_refused():
    def f(x):
        np.put(x, [0], 5.0)   # returns None, and writes x
        return x
    with pytest.raises(ag.TracingError, match="numpy.put is not supported"):
        ag.convert(f)(np.zeros(3))


def test_no_gradient_through_numpys_own():
    with pytest.raises(ag.TracingError, match=r"numpy_call.*numpy.trapezoid, run as NumPy.s own"):
        ag.grad(lambda x: np.trapezoid(x))(np.arange(3.0))


def test_saved_and_loaded(tmp_path):
    f = ag.convert(_spectra)
    x = np.random.default_rng(3).standard_normal((4, 6))
    ag.save(f, tmp_path / "spectra", ag.TensorSpec((4, 6), np.float64))
    loaded = ag.load(tmp_path / "spectra")
    for g, w in zip(loaded(x), _spectra(x)):
        np.testing.assert_array_equal(g, w)


def test_large_arguments_are_probed_once(monkeypatch):
    kinds = []
    probe = numpy_calls._probe_value
    monkeypatch.setattr(numpy_calls, "_probe_value",
                        lambda aval, kind, rng: kinds.append(kind) or probe(aval, kind, rng))

    def f(x):
        return np.polyval(np.ones(3), x)
    ag.convert(f, autograph=False).get_concrete_function(np.zeros(5))
    assert kinds == [0, 1, 2]
    kinds.clear()
    ag.convert(f, autograph=False).get_concrete_function(
        np.zeros(numpy_calls.ONE_PROBE_ELEMENTS + 1))
    assert kinds == [0]


def test_a_traced_value_as_a_dict_key_is_a_clear_type_error():
    def f(keys, vals):
        totals = {}
        for k, v in zip(keys, vals):
            totals[int(k)] = totals.get(int(k), 0.0) + v
        return totals[0]
    with pytest.raises(TypeError, match=r"unhashable type: 'Tracer' \(.*cannot be used as a "
                                        r"dict key or a set member \(at .*test_numpy_calls"):
        ag.convert(f)(np.array([0, 1, 0]), np.ones(3))


def test_a_python_number_argument_promotes_as_one():
    def f(p, t):
        return np.polyval(p, float(t) * 0.5)   # a Python float: float32 coefficients stay
    p = np.array([1.0, 2.0, 3.0], np.float32)
    want, got = f(p, np.float64(3.0)), ag.convert(f)(p, np.float64(3.0))
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


def test_another_librarys_ufunc_runs_as_its_own_and_is_not_saved(tmp_path):
    special = pytest.importorskip("scipy.special", reason="SciPy is not installed "
                                                          "(the native extra brings it)")

    def f(x):
        return special.expit(x) * 2 + special.gammaln(x + 1.0).sum()
    x = np.array([0.5, 1.0, 3.0])
    got = ag.convert(f)(x)
    np.testing.assert_array_equal(got, f(x))
    with pytest.raises(Exception, match="holds a ufunc .*expit.*cannot be saved"):
        ag.save(ag.convert(f), tmp_path / "f", ag.TensorSpec((3,), np.float64))
