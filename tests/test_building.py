"""Array building and rearranging beyond the table (tests/test_ops_table_building.py).

NumPy's in-place functions (`fill_diagonal`, `put_along_axis`, `copyto`)
inside converted functions with staged loops and branches; views (`flip`,
`rot90` write through to their base; `diagonal` follows it and refuses writes
as NumPy does); gradients against finite differences; saving; and Hypothesis
on shapes and values for the rearranging functions.
"""
from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_grad
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from oracle import run_every_way, unknown_dims

import autograph as ag
from autograph.gradients import grad

F64 = np.float64


def run_converted(fn, *calls):
    """`fn` eagerly and converted (autograph on) for each argument tuple, on one trace."""
    f = ag.convert(fn)
    for args in calls:
        expected = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        got = f(*args)
        for g, e in zip(*(x if isinstance(x, tuple) else (x,) for x in (got, expected))):
            np.testing.assert_array_equal(g, e, strict=True)
    assert f.trace_count == 1


# -- in place, inside staged blocks -----------------------------------------------------
def fill_in_loop(x, n):
    y = x * 1.0
    for i in range(n):
        np.fill_diagonal(y, i)
    return y


def put_in_while(x, n):
    y = x + 0
    i = 0
    while i < n:
        np.put_along_axis(y, np.array([[0], [1], [2]]), y[:, :1] + 1, axis=1)
        i += 1
    return y


def copy_in_if(x, n):
    y = x * 2
    if n > 1:
        np.copyto(y, -1.0, where=y > 4)
    return y


def fill_view_in_loop(x, n):
    y = x * 1.0
    w = y[1:, 1:]          # a view: its diagonal is y's diagonal shifted
    for i in range(n):
        np.fill_diagonal(w, i + 10)
    return y


@pytest.mark.parametrize("fn", [fill_in_loop, put_in_while, copy_in_if, fill_view_in_loop])
def test_in_place_functions_in_staged_blocks(fn):
    x = np.arange(12.0).reshape(3, 4)
    run_converted(fn, (x, np.int64(0)), (x, np.int64(1)), (x, np.int64(3)))


def test_fill_diagonal_returns_none_and_writes_every_name():
    def f(x):
        y = x.copy()
        alias = y
        result = np.fill_diagonal(y, 7.0)
        return alias, result is None

    x = np.zeros((2, 2))
    got, none = ag.convert(f)(x)
    np.testing.assert_array_equal(got, [[7, 0], [0, 7]])
    assert none


def test_in_place_into_a_numpy_array_is_refused():
    with pytest.raises(ag.TracingError):  # NumPy dispatches fill_diagonal on `a` only
        ag.convert(lambda v: np.fill_diagonal(np.zeros((2, 2)), v), autograph=False)(F64(1))
    with pytest.raises(ag.TracingError, match="copyto"):
        ag.convert(lambda v: np.copyto(np.zeros(2), v), autograph=False)(np.ones(2))


# -- views ----------------------------------------------------------------------------
def test_flip_and_rot90_are_views_that_write_their_base():
    def f(x):
        y = x.copy()
        np.flip(y, 1)[0] += 100
        np.rot90(y)[0, 0] = -1
        return y

    run_every_way(f, np.arange(6.0).reshape(2, 3), specs=unknown_dims([np.ones((2, 3))]))


def test_diagonal_follows_its_base_and_refuses_writes_like_numpy():
    def reads(x):
        y = x.copy()
        d = np.diagonal(y)
        y[0, 0] = 50.0
        return d + 0

    run_every_way(reads, np.arange(6.0).reshape(2, 3))

    def writes(x):
        d = np.diagonal(x)
        d[0] = 1.0
        return d

    with pytest.raises(ValueError, match="read-only"):
        writes(np.ones((2, 2)))
    with pytest.raises(ValueError, match="read-only"):
        ag.convert(writes, autograph=False)(np.ones((2, 2)))


# -- edge cases: 0-d, empty, dtypes ----------------------------------------------------
@pytest.mark.parametrize("fn", [
    np.atleast_1d, np.atleast_3d, np.flip, lambda x: np.roll(x, 1), lambda x: np.repeat(x, 2),
    lambda x: np.tile(x, 3), lambda x: np.append(x, x), lambda x: np.hstack([x, x]),
    lambda x: np.vstack([x, x]), lambda x: np.kron(x, x), lambda x: np.block([[x], [x]]),
])
@pytest.mark.parametrize("x", [F64(2.5), np.zeros((0, 3)), np.zeros((3, 0), np.int8),
                               np.array([True, False])], ids=["0d", "empty", "empty-int8", "bool"])
def test_edge_shapes(fn, x):
    run_every_way(fn, x, specs=unknown_dims([x]))


@pytest.mark.parametrize("fn", [
    lambda x: np.pad(x, 2, "wrap"), lambda x: np.pad(x, (1, 0)), np.diag, np.triu,
    lambda x: np.delete(x, 0, 1), lambda x: np.take_along_axis(x, np.zeros((1, 1), int), 0),
])
def test_empty_known_dims(fn):
    run_every_way(fn, np.zeros((0, 2)))


def test_insert_out_of_bounds_is_numpys_index_error():
    with pytest.raises(IndexError):
        ag.convert(lambda x: np.insert(x, 4, 0.0, axis=0), autograph=False)(np.ones((3, 2)))


def test_kron_and_meshgrid_keep_numpys_result_dtype():
    a, b = np.arange(3, dtype=np.int8), np.ones(2, np.float32)
    run_every_way(np.kron, a, b)
    run_every_way(lambda a, b: np.meshgrid(a, b), a, b, specs=unknown_dims([a, b]))


def test_unsupported_options_name_the_function():
    with pytest.raises(ag.TracingError, match="numpy.pad"):
        ag.convert(lambda x: np.pad(x, 1, "maximum"), autograph=False)(np.ones(3))


# -- gradients ----------------------------------------------------------------------------
X = np.random.default_rng(0).normal(size=(3, 4))
V = np.random.default_rng(1).normal(size=3)
GRADS = [
    pytest.param(lambda x: np.diagonal(x, 1), (X,), id="diagonal"),
    pytest.param(lambda v: np.diag(v, -1), (V,), id="diag(1d)"),
    pytest.param(lambda x: np.trace(x, -1), (X,), id="trace"),
    pytest.param(lambda x: np.tril(x, 1), (X,), id="tril"),
    pytest.param(lambda x: np.rot90(x, 3), (X,), id="rot90"),
    pytest.param(lambda x: np.roll(x, 5), (X,), id="roll"),
    pytest.param(lambda x, v: np.repeat(x, [1, 0, 2], 0) * 1, (X, V), id="repeat"),
    pytest.param(lambda x: np.pad(x, ((2, 1), (3, 5)), "symmetric"), (X,), id="pad"),
    pytest.param(lambda x, v: np.kron(x, v), (X, V), id="kron"),
    pytest.param(lambda x: np.tile(x, (2, 1, 2)), (X,), id="tile"),
    pytest.param(lambda x, v: np.insert(x, [0, 3], v[None, :2], axis=1), (X, V), id="insert"),
    pytest.param(lambda x, v: np.meshgrid(v, x[0])[1], (X, V), id="meshgrid"),
]


@pytest.mark.parametrize("fn, args", GRADS)
def test_gradients_match_finite_differences(fn, args):
    check_grad(fn, *args)
    if "insert" not in fn.__code__.co_names:  # np.insert needs the axis length known
        check_grad(fn, *args, specs=[ag.TensorSpec((None,) * a.ndim, a.dtype) for a in args])


def test_in_place_gradients():
    def f(x, v):
        y = x * 2
        np.fill_diagonal(y, v[0])
        np.put_along_axis(y, np.array([[1], [2], [0]]), v[:, None] ** 2, axis=1)
        np.copyto(y, v[:, None], where=x > 0)
        return y

    check_grad(f, X, V)


def test_second_derivative_through_the_diagonal():
    f = ag.convert(lambda x: np.sum(np.diagonal(x) ** 3), autograph=False)
    hess_diag = grad(ag.convert(lambda x: np.sum(grad(f)(x)), autograph=False))(X)
    expected = np.zeros_like(X)
    np.fill_diagonal(expected, 6 * np.diagonal(X))
    np.testing.assert_allclose(hess_diag, expected, rtol=1e-10)


# -- saving ------------------------------------------------------------------------------
def test_graphs_of_the_new_primitives_save_and_load(tmp_path):
    def f(x, r):
        return np.diag(np.diagonal(x, 1)), np.repeat(x[0], r), np.pad(np.flip(x), 1, "reflect")

    spec = (ag.TensorSpec((None, None), np.float64), ag.TensorSpec((None,), np.int64))
    ag.save(ag.convert(f), tmp_path / "saved", *spec)
    loaded = ag.load(tmp_path / "saved")
    x, r = np.arange(12.0).reshape(3, 4), np.array([1, 0, 2, 3])
    for got, want in zip(loaded(x, r), f(x, r)):
        np.testing.assert_array_equal(got, want, strict=True)


# -- Hypothesis: shapes and values ------------------------------------------------------
ARRAYS = hnp.arrays(st.sampled_from([np.float64, np.int32, np.bool_]),
                    hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))


@settings(max_examples=40, deadline=None)
@given(ARRAYS, st.integers(-6, 6), st.data())
def test_rearranging_matches_numpy(x, k, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    width = data.draw(st.integers(0, 5))
    mode = data.draw(st.sampled_from(["constant", "edge", "reflect", "wrap", "symmetric"]))
    for fn in (lambda x: np.roll(x, k, axis), lambda x: np.flip(x, axis),
               lambda x: np.repeat(x, abs(k), axis), lambda x: np.pad(x, width, mode),
               lambda x: np.tile(x, (abs(k) % 3 + 1,) * x.ndim), lambda x: np.rot90(x, k),
               lambda x: np.tril(x, k), lambda x: np.diagonal(x, k) if x.ndim > 1 else x):
        if mode == "constant" or 0 not in x.shape:  # NumPy refuses to extend an empty axis;
            run_every_way(fn, x, specs=unknown_dims([x]))  # with unknown dims: IndexError


# -- np.r_ and np.c_ (converted code: autograph's index_trick) ---------------------------
def r_and_c(x, v):
    a = np.r_[x[0], 0.0, v, 1:3]
    b = np.c_[v, v * 2]
    return a, b, np.r_["0,2,0", v, v], np.r_["-1", x, x], np.r_[1, 2]


def r_in_loop(v, n):
    out = v
    for _ in range(n):
        out = np.r_[out[1:], out[:1]]
    return out


def test_r_and_c_with_traced_items():
    x, v = np.arange(6.0).reshape(2, 3), np.arange(3, dtype=np.float32)
    f = ag.convert(r_and_c)
    for got, want in zip(f(x, v), r_and_c(x, v)):
        np.testing.assert_array_equal(got, want, strict=True)
    specs = (ag.TensorSpec((None, 3), np.float64), ag.TensorSpec((None,), np.float32))
    for got, want in zip(f.get_concrete_function(*specs)(x, v), r_and_c(x, v)):
        np.testing.assert_array_equal(got, want, strict=True)
    assert "ag__.index_trick(np.r_" in ag.to_code(r_and_c)


def test_r_in_a_staged_loop():
    run_converted(r_in_loop, *[(np.arange(4.0), np.int64(n)) for n in (0, 1, 3)])


def test_r_matrix_directive_is_refused():
    with pytest.raises(ag.TracingError, match="matrix"):
        ag.convert(lambda v: np.r_["r", v, v])(np.ones(2))


def test_indices_and_empty_are_constants_of_the_graph():
    def f(x):
        rows, cols = np.indices(x.shape)
        scratch = np.empty((2, 3))
        scratch[...] = x
        return x * rows + cols, scratch

    run_converted(f, (np.arange(6.0).reshape(2, 3),), (np.ones((2, 3)),))
