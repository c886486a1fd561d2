"""NumPy functions of runtime/ops/more_functions.py and selections.py beyond the table:
views and writes through them against eager NumPy, staged checks, gradients.

Each converted function runs eagerly (the oracle) and as a graph on copies of the
same arguments; results and the arguments after the call must match.
"""
import numpy as np
import pytest
from gradcheck import check_grad
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag

X = np.arange(12.0).reshape(3, 4) - 5.5
V = np.array([0.5, -1.0, 2.0, 0.25, 3.0, -0.5])


def same(fn, *args, specs=None):
    """fn eagerly and as a graph (known dims, and `specs` if given) on copies of args."""
    eager = [a.copy() for a in args]
    want = fn(*eager)
    converted = ag.convert(fn)
    for run in [converted] + ([converted.get_concrete_function(*specs)] if specs else []):
        graph = [a.copy() for a in args]
        got = run(*graph)
        for w, g in zip(list(np.atleast_1d(*want) if isinstance(want, tuple) else [want])
                        + eager, list(got if isinstance(got, tuple) else [got]) + graph):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
            assert np.asarray(g).dtype == np.asarray(w).dtype


def unknown(*args):
    return [ag.TensorSpec((None,) * a.ndim, a.dtype) for a in args]


# -- np.diag of a matrix is NumPy's read-only view ----------------------------------------
def write_diag(m):
    d = np.diag(m)
    d[0] = 5.0
    return d


def test_diag_of_a_matrix_is_read_only_as_eagerly():
    with pytest.raises(ValueError, match="read-only"):
        write_diag(X.copy())
    with pytest.raises(ValueError, match="read-only"):
        ag.convert(write_diag)(X.copy())


def diag_follows(m):
    d = np.diag(m)
    m[0, 0] = -1.0
    return d * 1


def test_diag_of_a_matrix_follows_writes_to_it():
    same(diag_follows, X, specs=unknown(X))


# -- the parts of split and its kin are views: a write reaches the array --------------------
def write_split(x):
    a, b = np.split(x, 2)
    a[0] = 9.0
    b += 1.0
    return a * 1, b * 1


def write_array_split(x):
    a, b, c = np.array_split(x, 3, axis=1)
    c[...] = -2.0
    a[0, 0] = 7.0
    return a * 1, b * 1, c * 1


def write_hsplit(x):
    parts = np.hsplit(x, [1, 3])
    parts[1][1] = 4.0
    return parts[0] * 1, parts[1] * 1, parts[2] * 1


def write_vsplit(x):
    top, rest = np.vsplit(x, [1])
    rest[:, 0] = 0.0
    return top * 1, rest * 1


def write_dsplit(x):
    a, b = np.dsplit(x, 2)
    a += b
    return a * 1


def write_split_in_loop(x, n):
    a, b = np.split(x, 2)
    for i in range(n):
        a[i % 3] += b[i % 3]
    return b * 1


def split_of_a_view(x):
    a, b = np.split(x[1:], [2])
    x[1] = 5.0            # a sees it
    b[0] = -3.0           # x sees it
    c, d = np.vsplit(x.reshape(2, 4), 2)
    d += 1.0
    return a * 1, b * 1, c * 1


def split_in_if(x, n):
    parts = np.array_split(x, 3)
    if n > 0:
        parts[1][0] = 7.0
    else:
        x[0] = 1.0
    return parts[0] * 1, parts[1] * 1


def test_split_parts_of_views_and_in_a_staged_if():
    x = np.arange(8.0)
    same(split_of_a_view, x)
    for n in (1, -1):
        same(split_in_if, x, np.int64(n))


@pytest.mark.parametrize("fn, args, dims", [
    (write_split, (V,), True), (write_array_split, (X,), False), (write_hsplit, (X,), True),
    (write_vsplit, (X,), True), (write_dsplit, (np.arange(24.0).reshape(2, 3, 4),), True)])
def test_split_parts_are_followed_views(fn, args, dims):
    same(fn, *args, specs=unknown(*args) if dims else None)


def test_split_parts_are_written_in_a_staged_loop():
    n = np.int64(4)
    same(write_split_in_loop, V, n, specs=[ag.TensorSpec((None,), V.dtype),
                                           ag.TensorSpec((), np.int64)])


# -- broadcast_arrays: writes refused (NumPy writes the broadcast's memory) ------------------
def write_broadcast(x, v):
    a, b = np.broadcast_arrays(x, v)
    b[0, 0] = 1.0
    return a


@pytest.mark.parametrize("specs", [None, unknown(X, X[0])])
def test_broadcast_arrays_writes_are_refused(specs):
    run = ag.convert(write_broadcast)
    with pytest.raises(ag.TracingError, match="broadcast"):
        (run if specs is None else run.get_concrete_function(*specs))(X.copy(), X[0].copy())


def broadcast_same(x, y):
    a, b = np.broadcast_arrays(x, y)
    a[0, 0] = 1.0      # NumPy returns the arrays themselves where no broadcast is needed
    return a * 1


def test_broadcast_arrays_of_one_shape_are_the_arrays():
    same(broadcast_same, X, X + 1)


# -- sliding_window_view: NumPy's read-only view, gathered, following writes to its base ------
swv = np.lib.stride_tricks.sliding_window_view


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=3).flatmap(lambda shape: st.tuples(
    st.just(tuple(shape)), st.lists(st.integers(0, len(shape) - 1), min_size=1, max_size=3))),
    st.data())
def test_sliding_window_views_match_eager(shape_axes, data):
    shape, axes = shape_axes
    windows, left = [], list(shape)
    for ax in axes:             # each window fits what earlier windows left of its axis
        windows.append(data.draw(st.integers(0, left[ax]), label=f"window on {ax}"))
        left[ax] -= max(windows[-1] - 1, 0)
    x = np.arange(float(np.prod(shape))).reshape(shape) - 3.0
    same(lambda x: swv(x, tuple(windows), axis=tuple(axes)) * 1.0, x)


def windows_follow_writes(x):
    w = swv(x, 3)
    x[1] = 100.0                # eagerly, the view sees it
    return w.sum(axis=1), x


def windows_of_a_matrix(m):
    return swv(m, (2, 2)).max(axis=(-1, -2)), swv(m, 3, axis=-1).mean(axis=-1)


def test_sliding_windows_follow_writes_to_their_array():
    same(windows_follow_writes, V)
    same(windows_of_a_matrix, X)


def write_windows(x):
    w = swv(x, 2)
    w[0, 0] = 1.0
    return w


@pytest.mark.parametrize("fn, error, match", [
    (write_windows, ValueError, "read-only"),
    (lambda x: swv(x, 7), ValueError, "cannot be larger"),
    (lambda x: swv(x, -1), ValueError, "negative"),
    (lambda x: swv(x, (2, 2)), ValueError, "must provide window_shape for all"),
    (lambda x: swv(x, (2, 2), axis=0), ValueError, "matching length"),
])
def test_sliding_window_errors_are_numpy_s(fn, error, match):
    with pytest.raises(error, match=match):
        fn(V.copy())
    with pytest.raises(error, match=match):
        ag.convert(fn)(V.copy())


def test_writeable_windows_are_refused_clearly():
    with pytest.raises(ag.TracingError, match="writeable=True.*share memory"):
        ag.convert(lambda x: swv(x, 2, writeable=True) * 1)(V.copy())


def test_windows_of_unknown_lengths_are_checked_when_the_graph_runs():
    same(windows_of_a_matrix, X, specs=unknown(X))
    run = ag.convert(lambda x: swv(x, 4).sum(axis=1)).get_concrete_function(*unknown(V))
    np.testing.assert_array_equal(run(V.copy()), swv(V, 4).sum(axis=1))
    with pytest.raises(ValueError, match="cannot be larger"):
        run(V[:3].copy())


# -- nan_to_num(copy=False) writes x; asarray_chkfinite raises when the graph runs ------------
def nan_to_num_in_place(x):
    y = x.copy()
    z = np.nan_to_num(y, copy=False, nan=-1.0)
    z[0] += 100.0
    return y, z


def test_nan_to_num_in_place():
    x = np.array([np.nan, np.inf, -np.inf, 1.0, 2.0 + 0j])
    same(nan_to_num_in_place, x, specs=unknown(x))
    same(nan_to_num_in_place, x.real.copy(), specs=unknown(x.real))


def chkfinite(x):
    return np.asarray_chkfinite(x, dtype=np.float64) * 2


@pytest.mark.parametrize("x", [X, X.astype(np.int32), np.array([1.0, np.nan]),
                               np.array([np.inf, 1.0], np.float32)])
def test_asarray_chkfinite_raises_when_the_graph_runs(x):
    run = ag.convert(chkfinite).get_concrete_function(*unknown(x))
    try:
        want = chkfinite(x)
    except ValueError as error:
        with pytest.raises(ValueError, match=str(error)):
            run(x)
    else:
        np.testing.assert_array_equal(run(x), want)


def chkfinite_list(s):
    return np.asarray_chkfinite([s, s + 1.0])


def test_asarray_chkfinite_of_a_list():
    same(chkfinite_list, np.float64(2.0))
    with pytest.raises(ValueError, match="infs or NaNs"):
        ag.convert(chkfinite_list)(np.float64(np.nan))


# -- require ---------------------------------------------------------------------------------
def require_layouts(x):
    f = np.require(x.T, np.float32, "F")
    c = np.require(x.T, requirements=["C", "A"])
    o = np.require(x[1:], requirements="O")
    o[0] = 0.0            # a copy: x is unchanged
    w = np.require(np.diagonal(x), requirements="W")
    w[0] = 3.0            # a copy of the read-only view
    return f, c, o, w


def test_require():
    same(require_layouts, X, specs=unknown(X))


def require_is_x(x):
    y = np.require(x, np.float64, "A")
    y[0, 0] = 8.0         # x itself
    return y * 1


def test_require_of_a_fitting_array_is_the_array():
    same(require_is_x, X, specs=unknown(X))


def require_bad(x):
    return np.require(x, requirements="CF")


def test_require_errors():
    with pytest.raises(ValueError, match="both"):
        ag.convert(require_bad)(X)


# -- unstack: views ----------------------------------------------------------------------------
def write_unstack(x):
    a, b, c = np.unstack(x, axis=0)
    b += 1.0
    return a * 1, c * 1


def test_unstack_parts_are_views():
    same(write_unstack, X)


def flip_writes(x):
    u = np.flipud(x)
    u[0] = 0.0
    r = np.fliplr(x)
    r[:, 0] = 1.0
    return u * 1, r * 1, np.matrix_transpose(x) * 1


def test_flips_are_views():
    same(flip_writes, X, specs=unknown(X))


# -- gradients -----------------------------------------------------------------------------------
def _pieces(x):
    return np.piecewise(x, [x < 0, x > 1], [lambda v: v ** 2, lambda v: np.cumsum(v), 0.5])


GRADS = [
    pytest.param(np.flipud, (X,), id="flipud"), pytest.param(np.fliplr, (X,), id="fliplr"),
    pytest.param(lambda x: np.hsplit(x, 2)[1], (X,), id="hsplit"),
    pytest.param(lambda x, v: np.broadcast_arrays(x, v[:4])[1], (X, V), id="broadcast_arrays"),
    pytest.param(lambda x: np.nan_to_num(x / (x - 0.25)), (X,), id="nan_to_num"),
    pytest.param(lambda x: np.resize(x, (5, 7)), (X,), id="resize"),
    pytest.param(lambda x: swv(x, (2, 3)) ** 2, (X,), id="sliding_window_view"),
    pytest.param(np.matrix_transpose, (X,), id="matrix_transpose"),
    pytest.param(lambda x: np.unstack(x)[2], (X,), id="unstack"),
    pytest.param(lambda x, v: np.select([x > 0, x < -3], [x ** 2, v[:4]], -1.0), (X, V),
                 id="select"),
    pytest.param(lambda v: _pieces(v), (V,), id="piecewise"),
    pytest.param(lambda v, x: np.compress(v[:4] > 0.1, x, axis=1), (V, X), id="compress"),
    pytest.param(lambda x: np.extract(x > 0, x), (X,), id="extract"),
    pytest.param(lambda v: np.trim_zeros(v * (v > 0)), (V,), id="trim_zeros"),
    pytest.param(lambda v: np.trim_zeros(v * (v > 0), "b"), (V[::-1].copy(),), id="trim_zeros(b)"),
]


@pytest.mark.parametrize("fn, args", GRADS)
def test_gradients_match_finite_differences(fn, args):
    check_grad(fn, *args)
    if "unstack" not in repr(getattr(fn, "__code__", None) and fn.__code__.co_names):
        check_grad(fn, *args, specs=unknown(*args))  # np.unstack needs the count known


def test_piecewise_calls_functions_on_the_selected_elements():
    """NumPy calls each function on `x[cond]`, and only where it selects any: a function
    that is not elementwise sees only those elements; one that fails on none is not called."""
    f = lambda x: np.piecewise(x, [x > 0], [lambda v: v - v.mean(), np.max])  # noqa: E731
    run = ag.convert(f, autograph=False).get_concrete_function(*unknown(V))
    for x in (V, np.abs(V), -np.abs(V)):
        np.testing.assert_allclose(run(x), f(x))


# -- saving: the graphs these make round-trip (the staged check's ValueError too) ---------------
def saved_kinds(x):
    y = np.asarray_chkfinite(x)
    a, b = np.split(y * 1, 2)
    a[0] = 9.0
    return (np.select([a > 1], [b], -1.0), np.piecewise(x, [x > 0], [lambda v: v * 2, 0]),
            np.trim_zeros(x), y)


def test_save_and_load(tmp_path):
    ag.save(ag.convert(saved_kinds), tmp_path / "saved", ag.TensorSpec((None,), np.float64))
    loaded = ag.load(tmp_path / "saved")
    x = np.array([0.0, 1.0, 2.0, 0.0])
    for got, want in zip(loaded(x), saved_kinds(x.copy())):
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="infs or NaNs"):
        loaded(np.array([np.nan, 1.0]))
