"""`np.linalg` beyond the table: gradients against finite differences, errors with
the user's line, the `eig` dtype choice, staged loops, and saved graphs.

Values come from table rows in `test_ops_table_linalg.py`; here each gradient
rule is checked with `gradcheck.check_grad` on well-conditioned random inputs
(known and unknown dimensions, stacks), with Hypothesis over shapes.
"""
from __future__ import annotations

import numpy as np
import pytest
from generated_settings import EXAMPLES
from gradcheck import check_grad
from hypothesis import given, settings
from hypothesis.extra import numpy as hnp
from oracle import run_every_way, unknown_dims
from hypothesis import strategies as st

import autograph as ag

rng = np.random.default_rng(7)


def well_conditioned(*shape):
    """Random matrices (a stack) near 2 I: far from singular, distinct eigenvalues likely."""
    n = shape[-1]
    return rng.uniform(-0.5, 0.5, shape) + 2 * np.eye(n) + np.diag(np.arange(n) * 0.7)


def spd(*shape):
    b = well_conditioned(*shape)
    return b @ np.swapaxes(b, -1, -2)


def spec(x):
    return ag.TensorSpec((None,) * x.ndim, x.dtype)


def _t(x):
    return np.swapaxes(x, -1, -2)


# -- gradients -----------------------------------------------------------------------------
M3, M3B, TALL, WIDE = well_conditioned(3, 3), well_conditioned(2, 3, 3), rng.uniform(
    -1, 1, (5, 3)), rng.uniform(-1, 1, (3, 5))
GRADIENTS = [
    pytest.param(np.linalg.inv, (M3,), id="inv"),
    pytest.param(np.linalg.inv, (M3B,), id="inv-stack"),
    pytest.param(np.linalg.det, (M3,), id="det"),
    pytest.param(np.linalg.det, (M3B,), id="det-stack"),
    pytest.param(lambda a: np.linalg.slogdet(a).logabsdet, (M3B,), id="slogdet"),
    pytest.param(lambda a: np.linalg.slogdet(-a)[0] * np.linalg.slogdet(a)[1], (M3,),
                 id="slogdet-sign-times-log"),
    pytest.param(np.linalg.solve, (M3, rng.uniform(-1, 1, (3, 2))), id="solve"),
    pytest.param(np.linalg.solve, (M3, rng.uniform(-1, 1, 3)), id="solve-vector"),
    pytest.param(np.linalg.solve, (M3B, rng.uniform(-1, 1, 3)), id="solve-stack-vector"),
    pytest.param(np.linalg.solve, (M3B, rng.uniform(-1, 1, (1, 3, 2))), id="solve-broadcast"),
    pytest.param(np.linalg.cholesky, (spd(3, 3),), id="cholesky"),
    pytest.param(lambda a: np.linalg.cholesky(a, upper=True), (spd(2, 3, 3),),
                 id="cholesky-upper"),
    pytest.param(lambda b: np.linalg.cholesky(b @ b.T), (M3,), id="cholesky-of-b-bT"),
    pytest.param(lambda a: np.linalg.eigh(a).eigenvalues, (spd(3, 3),), id="eigh-values"),
    pytest.param(lambda a: np.linalg.eigh(a)[1] ** 2, (spd(3, 3),), id="eigh-vectors"),
    pytest.param(lambda a: np.linalg.eigh(a, UPLO="U")[0][..., None] * np.linalg.eigh(
        a, UPLO="U")[1] ** 2, (spd(2, 3, 3),), id="eigh-U-both"),
    pytest.param(lambda a: np.linalg.eigvalsh(a, "U"), (well_conditioned(3, 3),),
                 id="eigvalsh-U"),
    pytest.param(np.linalg.eigvalsh, (spd(2, 3, 3),), id="eigvalsh-stack"),
    pytest.param(lambda a: np.linalg.svd(a, compute_uv=False), (TALL,), id="svdvals"),
    pytest.param(lambda a: np.linalg.svd(a).S, (well_conditioned(2, 3, 3),), id="svd-S"),
    pytest.param(lambda a: np.linalg.svd(a, hermitian=True).S, (well_conditioned(2, 3, 3) - 2,),
                 id="svd-S-hermitian"),
    pytest.param(lambda a: np.linalg.svd(a, compute_uv=False, hermitian=True),
                 (well_conditioned(3, 3) - 2.2,), id="svdvals-hermitian"),
    pytest.param(lambda a: np.linalg.svd(a, full_matrices=False)[0] ** 2, (TALL,),
                 id="svd-U-tall"),
    pytest.param(lambda a: np.linalg.svd(a, full_matrices=False)[2] ** 2, (WIDE,),
                 id="svd-Vh-wide"),
    pytest.param(lambda a: (lambda u, s, vh: u * s @ vh ** 2)(*np.linalg.svd(a)), (M3,),
                 id="svd-all-square"),
    pytest.param(lambda a: np.linalg.qr(a).Q, (TALL,), id="qr-Q"),
    pytest.param(lambda a: np.linalg.qr(a)[1], (well_conditioned(2, 3, 3),), id="qr-R"),
    pytest.param(lambda a: np.linalg.qr(a, mode="r"), (TALL,), id="qr-r"),
    pytest.param(lambda a: np.linalg.qr(a, mode="complete")[0] * 2, (M3,), id="qr-complete"),
    pytest.param(np.linalg.pinv, (TALL,), id="pinv-tall"),
    pytest.param(np.linalg.pinv, (WIDE,), id="pinv-wide"),
    pytest.param(np.linalg.pinv, (M3B,), id="pinv-stack"),
    pytest.param(lambda a, b: np.linalg.lstsq(a, b)[0], (TALL, rng.uniform(-1, 1, 5)),
                 id="lstsq-vector"),
    pytest.param(lambda a, b: np.linalg.lstsq(a, b, rcond=-1)[0],
                 (WIDE, rng.uniform(-1, 1, (3, 2))), id="lstsq-wide-matrix"),
    pytest.param(lambda a, b: np.linalg.lstsq(a, b)[3], (TALL, np.ones(5)), id="lstsq-s"),
    pytest.param(lambda a: np.linalg.matrix_power(a, -3), (M3,), id="matrix_power"),
    pytest.param(lambda a, b: np.linalg.multi_dot([a, b, b.T, a]), (M3, TALL.T),
                 id="multi_dot"),
]
def _no_ties():
    """Values away from 0 whose sums (and singular values) do not tie: norms differentiable."""
    signs = np.random.default_rng(3).choice([-1, 1], (4, 3))
    return signs * np.random.default_rng(4).uniform(0.5, 2.0, (4, 3))


NORMS = [None, "fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf]


@pytest.mark.parametrize("fn, args", GRADIENTS)
def test_gradient(fn, args):
    check_grad(fn, *args, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("fn, args", GRADIENTS[:12])
def test_gradient_with_unknown_dims(fn, args):
    check_grad(fn, *args, rtol=1e-4, atol=1e-6, specs=[spec(a) for a in args])


def test_lstsq_gradient_with_unknown_dims():
    a, b = TALL, rng.uniform(-1, 1, (5, 2))
    check_grad(lambda a, b: np.linalg.lstsq(a, b)[0], a, b, rtol=1e-4, atol=1e-6,
               specs=[spec(a), spec(b)])


@pytest.mark.parametrize("ord", NORMS, ids=str)
def test_matrix_norm_gradient(ord):
    x = _no_ties()
    check_grad(lambda x: np.linalg.norm(x, ord), x, rtol=1e-4)
    check_grad(lambda x: np.linalg.norm(x, ord, axis=(2, 0)), x.reshape(2, 3, 2), rtol=1e-4)


@pytest.mark.parametrize("ord", [None, 2, 1, np.inf, -np.inf, 3, 0.5, -1.5], ids=str)
def test_vector_norm_gradient(ord):
    x = _no_ties()
    check_grad(lambda x: np.linalg.norm(x, ord, axis=1, keepdims=True), x, rtol=1e-4)
    check_grad(lambda x: np.linalg.norm(x[0], ord), x, rtol=1e-4, specs=[spec(x)])
    check_grad(lambda x: np.linalg.vector_norm(x, axis=(0, 1), ord=ord or 2), x.reshape(2, 2, 3),
               rtol=1e-4)


@settings(max_examples=15, deadline=None)
@given(batch=st.lists(st.integers(1, 2), max_size=2), n=st.integers(1, 4),
       name=st.sampled_from(["inv", "det", "slogdet", "cholesky", "eigh", "solve", "qr"]))
def test_gradient_over_shapes(batch, n, name):
    a = well_conditioned(*batch, n, n)
    fns = {"inv": np.linalg.inv, "det": np.linalg.det,
           "slogdet": lambda a: np.linalg.slogdet(a)[1],
           "cholesky": lambda a: np.linalg.cholesky(a @ _t(a)),
           "eigh": lambda a: np.linalg.eigh(a + _t(a))[0],
           "solve": lambda a: np.linalg.solve(a, np.ones(n)),
           "qr": lambda a: np.linalg.qr(a)[1]}
    check_grad(fns[name], a, rtol=1e-4, atol=1e-6)


def test_float32_gradients_stay_float32():
    a = M3.astype(np.float32)
    g = ag.grad(ag.convert(lambda a: np.linalg.det(np.linalg.inv(a)), autograph=False))(a)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, -_t(np.linalg.inv(a)) / np.linalg.det(a), rtol=1e-3)


def test_refused_gradients_say_why():
    with pytest.raises(ag.TracingError, match="fewer rows than columns"):
        ag.grad(ag.convert(lambda a: np.linalg.qr(a)[1].sum(), autograph=False))(WIDE)
    with pytest.raises(ag.TracingError, match="full_matrices=False"):
        ag.grad(ag.convert(lambda a: np.linalg.svd(a)[0].sum(), autograph=False))(TALL)
    with pytest.raises(ag.TracingError, match="residuals"):
        ag.grad(ag.convert(lambda a, b: np.linalg.lstsq(a, b)[1].sum(),
                           autograph=False))(TALL, np.ones(5))


# -- values over shapes -------------------------------------------------------------------
VALUES = {
    "inv": np.linalg.inv, "det": np.linalg.det, "slogdet": np.linalg.slogdet,
    "solve": lambda a: np.linalg.solve(a, a[..., :1]), "cholesky": lambda a: np.linalg.cholesky(
        a @ _t(a) + np.linalg.matrix_power(a, 0)),
    "eigh": lambda a: np.linalg.eigh(a, UPLO="U"), "eigvalsh": np.linalg.eigvalsh,
    "svd": np.linalg.svd, "svdvals": lambda a: np.linalg.svd(a, compute_uv=False),
    "qr": np.linalg.qr, "qr-complete": lambda a: np.linalg.qr(a, mode="complete"),
    "pinv": np.linalg.pinv, "norm-2": lambda a: np.linalg.norm(a, 2, axis=(-2, -1)),
    "norm-nuc": lambda a: np.linalg.norm(a, "nuc", axis=(-1, -2), keepdims=True),
    "matrix_rank": np.linalg.matrix_rank, "matrix_power": lambda a: np.linalg.matrix_power(a, 5),
}


@settings(max_examples=EXAMPLES, deadline=None)
@given(shape=hnp.array_shapes(min_dims=2, max_dims=4, min_side=0, max_side=4),
       square=st.booleans(),
       dtype=st.sampled_from(["float32", "float64", "int64", "complex128"]),
       name=st.sampled_from(sorted(VALUES)), data=st.data())
def test_values_over_shapes(shape, square, dtype, name, data):
    """Every shape NumPy takes (stacks, empty, non-square) or refuses, known and unknown."""
    if square:
        shape = shape[:-1] + shape[-2:-1]
    a = data.draw(hnp.arrays(dtype, shape, elements=st.integers(-4, 4)))
    # NumPy's pinv of an empty int matrix is int: a graph that does not know the size, float64
    unknown = not (name == "pinv" and a.size == 0 and dtype == "int64")
    run_every_way(VALUES[name], a, specs=unknown_dims([a]) if unknown else None, rtol=1e-4,
                  atol=1e-9)


# -- errors ---------------------------------------------------------------------------------
def _line_of(fn) -> str:
    return f"{fn.__code__.co_filename}:{fn.__code__.co_firstlineno}"


def _noted(error, fn):
    notes = getattr(error, "__notes__", [])
    return any(_line_of(fn) in note for note in notes)


def test_shape_errors_are_raised_while_tracing_with_the_users_line():
    def square(a): return np.linalg.inv(a)  # noqa: E704
    with pytest.raises(np.linalg.LinAlgError, match="must be square") as info:
        ag.convert(square, autograph=False).get_concrete_function(ag.TensorSpec((2, 3), np.float64))
    assert _noted(info.value, square)


def test_singular_matrix_raises_when_the_graph_runs_with_the_users_line():
    def inverse(a): return np.linalg.inv(a)  # noqa: E704
    f = ag.convert(inverse, autograph=False)
    f(np.eye(2))
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix") as info:
        f(np.ones((2, 2)))
    assert _noted(info.value, inverse)


def test_non_square_with_unknown_dims_raises_when_the_graph_runs():
    f = ag.convert(np.linalg.det, autograph=False).get_concrete_function(
        ag.TensorSpec((None, None), np.float64))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        f(np.ones((2, 3)))
    np.testing.assert_allclose(f(np.eye(3) * 2), 8.0)


def test_float16_is_refused_as_numpy_refuses_it():
    with pytest.raises(TypeError, match="float16 is unsupported"):
        ag.convert(np.linalg.inv, autograph=False)(np.eye(2, dtype=np.float16))


# -- eig: NumPy's dtype depends on the values -------------------------------------------
def test_eig_of_a_real_matrix_is_refused_naming_the_ways_out():
    def eigenvalues(a): return np.linalg.eigvals(a)  # noqa: E704
    with pytest.raises(ag.TracingError) as info:
        ag.convert(eigenvalues, autograph=False)(M3)
    message = str(info.value)
    assert "eigvalsh" in message and "astype(complex)" in message and _line_of(
        eigenvalues) in message
    with pytest.raises(ag.TracingError, match="eigh"):
        ag.convert(np.linalg.eig, autograph=False)(M3.astype(np.float32))


def test_eig_of_a_complex_matrix_is_numpys():
    rotation = np.array([[0.0, -1.0], [1.0, 0.0]])  # eigenvalues +-1j
    f = ag.convert(lambda a: np.linalg.eig(a.astype(complex)), autograph=False)
    w, v = f(rotation)
    want = np.linalg.eig(rotation.astype(complex))
    assert w.dtype == want.eigenvalues.dtype == np.complex128
    np.testing.assert_allclose(w, want.eigenvalues)
    np.testing.assert_allclose(v, want.eigenvectors)


# -- in converted code ------------------------------------------------------------------
def newton_inverse(a, steps):
    """Refines an inverse by Newton's iteration in a staged loop (`steps` traced)."""
    x = np.linalg.inv(a + np.eye(3))
    i = 0
    while i < steps:
        x = x @ (2 * np.eye(3) - a @ x)
        i += 1
    return np.linalg.solve(a, np.ones(3)) - x @ np.ones(3)


def test_converted_function_with_a_staged_loop():
    a = M3
    f = ag.convert(newton_inverse)
    for steps in (0, 3, 8):
        np.testing.assert_allclose(f(a, np.int64(steps)), newton_inverse(a, steps), rtol=1e-9,
                                   atol=1e-12)
    g = ag.grad(ag.convert(lambda a, n: newton_inverse(a, n).sum()))(a, np.int64(8))
    assert g.shape == a.shape and np.isfinite(g).all()


def test_branch_on_a_determinant():
    def f(a):
        if np.linalg.det(a) > 0:
            y = np.linalg.inv(a)
        else:
            y = -a
        return y
    converted = ag.convert(f)
    for a in (M3, -M3):
        np.testing.assert_allclose(converted(a), f(a))


def test_saved_graph_with_decompositions_round_trips(tmp_path):
    def f(a, b):
        q, r = np.linalg.qr(a)
        u, s, vh = np.linalg.svd(a, full_matrices=False)
        w, v = np.linalg.eigh(a.T @ a, UPLO="U")
        x, residuals, rank, sv = np.linalg.lstsq(a, b, rcond=None)
        return (q @ r, s, w, np.linalg.cholesky(a.T @ a, upper=True), x, rank,
                np.linalg.pinv(a, rtol=None), np.linalg.norm(a, "nuc"))
    a, b = TALL, np.ones(5)
    ag.save(ag.convert(f), tmp_path / "f", ag.TensorSpec((None, 3), np.float64),
            ag.TensorSpec((None,), np.float64))
    got, want = ag.load(tmp_path / "f")(a, b), f(a, b)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_matrix_power_by_a_power_known_when_the_graph_runs():
    """One trace for every power: NumPy's steps (inv, 0, 3, the binary decomposition)
    staged, so each result is NumPy's bit for bit; its gradient is the constant power's."""
    power = ag.convert(np.linalg.matrix_power, autograph=False)
    a = np.random.default_rng(3).normal(size=(2, 3, 3))
    for n in (0, 1, 2, 3, 4, 5, 6, 11, -1, -2, -3, -7):
        np.testing.assert_array_equal(power(a, np.int64(n)), np.linalg.matrix_power(a, n))
    assert power.trace_count == 1
    for n in (5, -2):
        traced = ag.grad(lambda a, n: np.linalg.matrix_power(a, n).sum())(a, np.int64(n))
        constant = ag.grad(lambda a: np.linalg.matrix_power(a, n).sum())(a)
        np.testing.assert_allclose(traced, constant, rtol=1e-10)


def test_matrix_power_of_an_integer_matrix_by_a_traced_power_is_refused():
    with pytest.raises(ag.TracingError, match="negative power gives float64"):
        ag.convert(np.linalg.matrix_power, autograph=False)(np.eye(2, dtype=int), np.int64(2))
