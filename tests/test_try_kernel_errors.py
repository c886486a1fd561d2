"""`try`/`except` around errors NumPy's kernels raise when the graph runs, and
`contextlib.suppress` around control flow: the statement runs as Python in the
graph (autograph/operators/staged_tries.py), checked against eager NumPy on
inputs that take each path."""
from __future__ import annotations

import contextlib
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph as ag
from autograph_runtime import native

SINGULAR = np.ones((3, 3))
REGULAR = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])


def _outcome(fn, *args):
    """What a call gives: its value, or its exception's type and text."""
    try:
        return fn(*args)
    except Exception as error:  # noqa: BLE001 - compared with eager's
        return type(error), str(error)


def _same(got, want):
    if isinstance(want, tuple) and want and isinstance(want[0], type):
        assert got == want
        return
    if isinstance(want, tuple):  # a graph returns arrays where eager code has numbers
        for g, w in zip(got, want, strict=True):
            _same(g, w)
        return
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)   # NaN where eager has NaN


def _check(fn, *argument_tuples):
    converted = ag.convert(fn)
    for args in argument_tuples:
        _same(_outcome(converted, *args), _outcome(fn, *args))
    return converted


def _refused_then_eager(fn, match, *argument_tuples):
    """Tracing `fn` on the first arguments is refused (paths that do not join); with the
    eager fallback each call gives eager's outcome, never a `TypeError` from the graph."""
    with pytest.raises(ag.PathTypeError, match=match):
        ag.convert(fn)(*argument_tuples[0])
    converted = ag.convert(fn, eager_fallback=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FallbackWarning)
        for args in argument_tuples:
            _same(_outcome(converted, *args), _outcome(fn, *args))


def _graph_text(converted, *args) -> str:
    return str(converted.get_concrete_function(*args).graph)


# -- LinAlgError --------------------------------------------------------------------

def try_inverse(m):
    try:
        inv = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        inv = np.full_like(m, np.nan)
    return inv


def test_a_singular_matrix_takes_the_handler_as_eagerly():
    converted = _check(try_inverse, (SINGULAR,), (REGULAR,), (2 * np.eye(3),))
    assert converted.trace_count == 1
    assert "python_block" in _graph_text(converted, REGULAR)


def cholesky_or_diagonal(a):
    try:
        factor = np.linalg.cholesky(a)
    except ValueError:  # LinAlgError is a ValueError
        factor = np.diag(np.sqrt(np.abs(np.diag(a))))
    return factor @ factor.T


def test_a_handler_of_a_base_class_catches_linalg_errors():
    _check(cholesky_or_diagonal, (REGULAR,), (-REGULAR,))


def inverses_in_a_loop(ms, n):
    total = np.zeros((3, 3))
    failures = 0
    for k in range(n):
        try:
            total = total + np.linalg.inv(ms[k])
        except np.linalg.LinAlgError:
            failures += 1
    return total, failures


def test_a_try_inside_a_staged_loop():
    ms = np.stack([REGULAR, SINGULAR, 2 * np.eye(3), SINGULAR])
    converted = ag.convert(inverses_in_a_loop)
    for n in (0, 1, 2, 4):
        got, want = converted(ms, np.int64(n)), inverses_in_a_loop(ms, n)
        np.testing.assert_allclose(got[0], want[0])
        assert got[1] == want[1]
    assert converted.trace_count == 1


# -- IndexError of a traced index ---------------------------------------------------

def partial_sums(x, i):
    out = np.zeros(3)
    try:
        out[0] = x[i]
        for j in range(3):
            out[j] = out[j] + x[i + j]
    except IndexError:
        out = out - 1      # reads what the body wrote before the raise
    return out


def test_a_staged_loop_inside_a_try_leaves_the_values_at_the_raise():
    x = np.arange(5.0)
    converted = _check(partial_sums, *[(x, np.int64(i)) for i in (0, 1, 2, 3, 4, 5, -9)])
    assert converted.trace_count == 1


def reads_the_exception(x, i):
    count = 0
    try:
        y = x[i]
    except IndexError as e:
        count = len(e.args)
        y = x[0] * 0
    return y, count


def test_except_as_e_reads_the_exception():
    _check(reads_the_exception, (np.arange(4.0), np.int64(2)), (np.arange(4.0), np.int64(7)))


def reraises(x, i):
    try:
        y = x[i]
    except IndexError:
        y = -1.0
        raise
    return y


def test_a_bare_raise_in_a_handler_raises_the_kernels_error():
    converted = _check(reraises, (np.arange(3.0), np.int64(1)), (np.arange(3.0), np.int64(5)))
    with pytest.raises(IndexError, match="out of bounds"):
        converted(np.arange(3.0), np.int64(5))


def else_and_finally(x, i):
    steps = 0
    try:
        y = x[i]
    except IndexError:
        y = x[-1]
        steps = steps + 10
    else:
        steps = steps + 1
    finally:
        steps = steps * 2
    return y, steps


def test_else_and_finally_clauses():
    _check(else_and_finally, (np.arange(3.0), np.int64(1)), (np.arange(3.0), np.int64(3)))


def nested(ms, i):
    try:
        m = ms[i]
        try:
            inv = np.linalg.inv(m)
        except np.linalg.LinAlgError:
            inv = np.zeros_like(m)
    except IndexError:
        inv = np.full((3, 3), -1.0)
    return inv


def test_nested_tries_each_catch_their_own():
    ms = np.stack([REGULAR, SINGULAR])
    _check(nested, *[(ms, np.int64(i)) for i in (0, 1, 2)])


# -- Python numbers, errstate -------------------------------------------------------

def reciprocal(x):
    v = float(x.sum())
    try:
        r = 1.0 / v
    except ZeroDivisionError:
        r = float("inf")
    return r


def test_zero_division_of_python_numbers():
    _check(reciprocal, (np.array([1.0, 3.0]),), (np.array([1.0, -1.0]),))


def log_or_zero(x):
    with np.errstate(all="raise"):
        try:
            y = np.log(x)
        except FloatingPointError:
            y = np.zeros_like(x)
    return y


def test_floating_point_errors_under_errstate_raise():
    _check(log_or_zero, (np.array([1.0, 2.0]),), (np.array([0.0, 2.0]),))


def divide_or_zero(x, y):
    try:
        z = x / y
    except FloatingPointError:
        z = np.zeros_like(x)
    return z


def test_the_callers_errstate_reaches_the_statement():
    converted = ag.convert(divide_or_zero)
    x, y0, y1 = np.ones(2), np.zeros(2), np.full(2, 2.0)
    with np.errstate(all="raise"):
        for y in (y0, y1):
            _same(_outcome(converted, x, y), _outcome(divide_or_zero, x, y))


# -- what stays as it was -----------------------------------------------------------

def key_error_handler(x, table):
    try:
        y = x * table["scale"]
    except KeyError:
        y = x
    return y


def test_a_handler_no_kernel_error_reaches_keeps_the_traced_statement():
    converted = _check(key_error_handler, (np.ones(2), {"scale": 2.0}), (np.ones(2), {}))
    assert "python_block" not in _graph_text(converted, np.ones(2), {"scale": 2.0})


def cannot_raise_here(x):
    try:
        y = x + 1.0
    except IndexError:
        y = x
    return y


def test_a_body_whose_kernels_cannot_raise_the_type_stays_traced():
    converted = _check(cannot_raise_here, (np.ones(2),))
    assert "python_block" not in _graph_text(converted, np.ones(2))


# -- what a graph cannot do with it: clear errors -----------------------------------

def handler_of_another_dtype(m):
    try:
        inv = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        inv = np.zeros((3, 3), np.float32)
    return inv


def test_a_handler_binding_another_dtype_is_refused_while_tracing_naming_the_line():
    line = handler_of_another_dtype.__code__.co_firstlineno + 3
    with pytest.raises(ag.PathTypeError, match=rf"'inv' is float64\[3, 3\] on one path .*"
                                               rf"test_try_kernel_errors.py:{line} and "
                                               rf"float32\[3, 3\] on another"):
        ag.convert(handler_of_another_dtype)(REGULAR)
    converted = ag.convert(handler_of_another_dtype, eager_fallback=True)
    with pytest.warns(ag.FallbackWarning):
        assert converted(REGULAR).dtype == np.float64
    for m in (REGULAR, SINGULAR):   # eager's, never a TypeError when the handler runs
        _same(converted(m), handler_of_another_dtype(m))


def loss(m):
    return try_inverse(m).sum()


def test_no_gradient_through_the_statement_a_clear_error():
    line = try_inverse.__code__.co_firstlineno + 3
    with pytest.raises(ag.TracingError, match=rf"try_kernel_errors.py:{line} has no gradient"):
        ag.grad(loss)(REGULAR)


@pytest.mark.skipif(not native.available(), reason="Numba is not installed (the native extra)")
def test_the_native_tier_says_why_it_keeps_the_numpy_tier():
    concrete = ag.convert(try_inverse, tier="native").get_concrete_function(REGULAR)
    assert concrete.tier != "native"
    assert "python_block" in concrete.tier_reason
    np.testing.assert_allclose(concrete(REGULAR), try_inverse(REGULAR))


def test_onnx_export_is_refused_naming_the_try(tmp_path):
    pytest.importorskip("onnx", reason="the onnx extra is not installed")
    line = try_inverse.__code__.co_firstlineno + 3
    with pytest.raises(ag.ExportError, match=rf"try_kernel_errors.py:{line} runs as Python"):
        ag.export_onnx(ag.convert(try_inverse), tmp_path / "m.onnx", REGULAR)


# -- contextlib.suppress ------------------------------------------------------------

def suppress_ctx(x):
    out = np.zeros(3)
    with contextlib.suppress(IndexError):
        for i in range(5):
            out[i] = x[i] * 2
    return out


def suppress_traced_count(x, n):
    out = np.zeros(3)
    with contextlib.suppress(IndexError):
        for i in range(n):
            out[i % 3] = out[i % 3] + x[i]
    return out


def suppress_linalg(ms, n):
    total = np.zeros((3, 3))
    for k in range(n):
        with contextlib.suppress(np.linalg.LinAlgError):
            total = total + np.linalg.inv(ms[k])
    return total


def test_suppress_around_a_loop():
    _check(suppress_ctx, (np.arange(2.0),), (np.arange(3.0),), (np.arange(6.0),))


def test_suppress_around_a_staged_loop_with_a_traced_index():
    converted = _check(suppress_traced_count, *[(np.arange(6.0), np.int64(n))
                                                for n in (0, 2, 5, 6, 7, 9)])
    assert converted.trace_count == 1


def test_suppress_inside_a_staged_loop():
    ms = np.stack([REGULAR, SINGULAR, 2 * np.eye(3)])
    _check(suppress_linalg, *[(ms, np.int64(n)) for n in (0, 2, 3)])


def test_suppress_of_a_type_no_kernel_raises_stays_traced():
    def f(x, d):
        with contextlib.suppress(KeyError):
            for i in range(2):
                x = x + d["k"]
        return x
    converted = _check(f, (np.ones(2), {"k": 1.0}), (np.ones(2), {}))
    assert "python_block" not in _graph_text(converted, np.ones(2), {"k": 1.0})


def bound_only_by_the_handler(m):
    try:
        inv = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        inv = m
        failed = True
    return inv, failed


def test_a_variable_only_a_handler_binds_is_unbound_where_the_body_ran():
    converted = _check(bound_only_by_the_handler, (SINGULAR,), (REGULAR,))
    with pytest.raises(UnboundLocalError, match="'failed'"):
        converted(REGULAR)


def test_a_try_in_a_staged_branch():
    def f(m, flag):
        if flag > 0:
            try:
                r = np.linalg.inv(m)
            except np.linalg.LinAlgError:
                r = m * 0
        else:
            r = m
        return r
    _check(f, *[(m, np.int64(s)) for m in (REGULAR, SINGULAR) for s in (1, -1)])


def test_on_dask_arrays():
    pytest.importorskip("dask.array", reason="the dask extra is not installed")
    ms = np.stack([REGULAR, SINGULAR])
    with ag.device("dask"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dask's OneChunkWarning of np.linalg
        _check(partial_sums, *[(np.arange(5.0), np.int64(i)) for i in (1, 3, 5)])
        _check(suppress_linalg, *[(ms, np.int64(n)) for n in (1, 2)])


def status_of(m, status="ok"):
    try:
        inv = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        inv = m
        status = "singular"
    return inv, status


def test_a_value_a_graph_cannot_hold_must_be_the_traced_one():
    converted = ag.convert(status_of)
    for m in (REGULAR, SINGULAR):   # texts it holds: 'ok' or 'singular', as eagerly
        _same(_outcome(converted, m), _outcome(status_of, m))
    # None on one path, a text on another: refused while tracing, so eager's
    _refused_then_eager(status_of, "'status' is None on one path .* and a str on another",
                        (REGULAR, None), (SINGULAR, None))


def test_a_gradient_through_a_try_that_stays_traced():
    def f(x, table):
        try:
            y = np.sum(np.sin(x) * table["scale"])
        except KeyError:
            y = np.sum(x)
        return y
    x = np.array([0.1, 0.2])
    np.testing.assert_allclose(ag.grad(f)(x, {"scale": 2.0}), 2 * np.cos(x))


def guarded_loss(x):
    try:
        y = np.sum(np.sin(x) * 2.0)   # float arithmetic: raises only under errstate "raise"
    except Exception:
        y = np.sum(x)
    return y


def test_except_exception_around_float_arithmetic_stays_traced_and_differentiable():
    x = np.array([0.1, 0.2])
    converted = _check(guarded_loss, (x,))
    assert "python_block" not in _graph_text(converted, x)
    np.testing.assert_allclose(ag.grad(guarded_loss)(x), 2 * np.cos(x))


def test_traced_under_a_raising_errstate_it_runs_as_python():
    with np.errstate(divide="raise"):
        converted = ag.convert(divide_or_zero)
        x, y0, y1 = np.ones(2), np.zeros(2), np.full(2, 2.0)
        for y in (y0, y1):
            _same(_outcome(converted, x, y), _outcome(divide_or_zero, x, y))
        assert "python_block" in _graph_text(converted, x, y0)


# -- handler types named otherwise: an alias, a tuple in a variable, a starred suppress -------

LAE = np.linalg.LinAlgError
LOOKUPS = (IndexError, KeyError)
MORE = (KeyError,)


def aliased_handler(m):
    try:
        inv = np.linalg.inv(m)
    except LAE:
        inv = np.zeros_like(m)
    return inv


def tuple_in_a_variable(x, i):
    try:
        y = x[i]
    except LOOKUPS:
        y = -1.0
    return y


def starred_suppress(x, i):
    y = 0.0
    with contextlib.suppress(*MORE, IndexError):
        y = x[i]
    return y


def test_an_aliased_handler_type_catches_the_kernels_error():
    _check(aliased_handler, (SINGULAR,), (REGULAR,))


def test_a_tuple_of_handler_types_in_a_variable():
    _check(tuple_in_a_variable, (np.ones(3), np.int64(5)), (np.arange(3.0), np.int64(1)))


def test_a_starred_suppress():
    _check(starred_suppress, (np.ones(3), np.int64(7)), (np.arange(3.0), np.int64(2)))


# -- `return`, `break` and `continue` in a try run as Python ---------------------------

def first_invertible_sum(a, n):
    i = 0
    while i < n:
        try:
            inv = np.linalg.inv(a * i)
            return inv.sum()
        except np.linalg.LinAlgError:
            pass
        i += 1
    return np.float64(-1.0)


def test_a_return_in_the_body_in_a_python_and_in_a_staged_loop():
    for n in (3, np.int64(3), np.int64(1)):
        _check(first_invertible_sum, (np.eye(2), n), (np.zeros((2, 2)), n))


def returns_from_body_or_handler(xs):
    out = 0.0
    for x in xs:
        try:
            v = np.linalg.inv(x)
            if v[0, 0] > 1:
                return v[0, 0]
        except np.linalg.LinAlgError:
            return -1.0
        out += v.sum()
    return out


def test_returns_in_the_body_and_in_the_handler_in_a_staged_loop():
    half, zero, two = 0.5 * np.eye(2), np.zeros((2, 2)), 2 * np.eye(2)
    _check(returns_from_body_or_handler, (np.stack([half, zero]),), (np.stack([two, zero]),),
           (np.stack([two, two]),), (np.stack([zero, half]),))


def handler_returns_what_the_loop_summed(ms):
    acc = 0.0
    for m in ms:
        try:
            v = np.linalg.inv(m)
        except np.linalg.LinAlgError:
            return acc
        acc += v.sum()
    return acc


def test_a_return_in_the_handler_only():
    _check(handler_returns_what_the_loop_summed, (np.stack([REGULAR, SINGULAR, REGULAR]),),
           (np.stack([REGULAR, REGULAR]),), (np.stack([SINGULAR, REGULAR]),))


def returns_in_a_staged_branch(a):
    if a.sum() > 0:
        try:
            return np.linalg.inv(a).sum()
        except np.linalg.LinAlgError:
            return np.float64(0.0)
    return a.sum()


def returns_in_else(m):
    try:
        v = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        v = m
    else:
        return v.sum() * 2
    return v.sum()


def test_a_try_in_a_staged_branch_and_a_return_in_else():
    _check(returns_in_a_staged_branch, (np.zeros((3, 3)),), (SINGULAR,), (REGULAR,))
    _check(returns_in_else, (SINGULAR,), (REGULAR,))


def returns_on_some_paths(m, t):
    try:
        v = np.linalg.inv(m)
        if t > 0:
            return v.sum()
    except np.linalg.LinAlgError:
        if t > 1:
            return -t * 1.0
        v = m
    return v.max()


def test_returns_on_some_paths_under_traced_and_python_conditions():
    for t in (0, 1, 2):
        _check(returns_on_some_paths, *[(m, t) for m in (SINGULAR, REGULAR)])
        _check(returns_on_some_paths, *[(m, np.float64(t)) for m in (SINGULAR, REGULAR)])


def breaks_and_continues(ms):
    acc = 0.0
    k = 0
    while k < ms.shape[0]:
        k += 1
        try:
            if np.linalg.inv(ms[k - 1])[0, 0] > 10:
                break
        except np.linalg.LinAlgError:
            continue
        acc += k
    return acc


def first_invertible_count(m, n):
    i = 0
    r = 0.0
    while i < n:
        i += 1
        try:
            r = np.linalg.inv(m * (i - 1)).sum()
            break
        except np.linalg.LinAlgError:
            continue
    return r, i


def test_break_and_continue_in_the_body_and_the_handler():
    _check(breaks_and_continues, (np.stack([REGULAR, SINGULAR, REGULAR / 100, REGULAR]),),
           (np.stack([SINGULAR, SINGULAR]),), (np.stack([REGULAR, SINGULAR]),))
    for n in (3, np.int64(3)):
        _check(first_invertible_count, (REGULAR, n), (SINGULAR, n))


def returns_a_tuple(m):
    try:
        v = np.linalg.inv(m)
        return v, v.sum()
    except np.linalg.LinAlgError:
        return m, -1.0


def returns_at_a_traced_index(xs, i):
    try:
        return xs[i] * 2
    except IndexError:
        return xs[0]


def test_a_returned_tuple_and_a_returned_item_of_a_traced_index():
    _check(returns_a_tuple, (SINGULAR,), (REGULAR,))
    _check(returns_at_a_traced_index, *[(np.arange(3.0), np.int64(i)) for i in (1, 5, -4)])


@given(st.lists(st.sampled_from(["regular", "singular", "large"]), min_size=1, max_size=3),
       st.integers(0, 5), st.integers(-1, 3), st.booleans())
def test_mixed_paths_in_a_python_or_a_staged_loop_match_eager(kinds, n, t, staged):
    chosen = {"regular": REGULAR, "singular": SINGULAR, "large": REGULAR / 100}
    ms = np.stack([chosen[k] for k in kinds])
    args = (ms, np.int64(n) if staged else n, np.int64(t))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.RetracingWarning)  # a trace per Python n, shape
        _same(_outcome(_MIXED, *args), _outcome(mixed_paths, *args))


def mixed_paths(ms, n, t):
    k = 0
    total = 0.0
    while k < n:
        m = ms[k % ms.shape[0]]
        k += 1
        try:
            v = np.linalg.inv(m)
            if v.max() > 10 * t:
                return v.sum() + k
            if k == t:
                break
        except np.linalg.LinAlgError:
            if t > k:
                return -total
            continue
        else:
            total += 1.0
        total += v.trace()
    return total


_MIXED = ag.convert(mixed_paths)


# -- variables bound on some paths ---------------------------------------------------

def may_stay_unbound(m):
    try:
        inv = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        pass
    return inv


def reads_one_bound_in_one_branch(m, t, in_body):
    if t > 0:
        y = 2.0
    try:
        r = np.linalg.inv(m) * (y if in_body else 1.0)
    except np.linalg.LinAlgError:
        r = m * y
    return r


def test_a_variable_left_unbound_on_a_path_raises_as_eagerly():
    _check(may_stay_unbound, (SINGULAR,), (REGULAR,))
    for in_body in (True, False):
        _check(reads_one_bound_in_one_branch,
               *[(m, np.float64(t), in_body) for m in (SINGULAR, REGULAR) for t in (1, -1)])


# -- types joined as a staged `if` joins them -------------------------------------------

def an_int_or_a_float(m):
    try:
        y = np.linalg.inv(m).sum()
        k = 1.5
    except np.linalg.LinAlgError:
        y = 0
        k = 2
    return y, k


def test_a_handler_binding_an_int_where_the_body_binds_a_float_joins_as_an_if():
    converted = ag.convert(an_int_or_a_float)
    for m in (SINGULAR, REGULAR):
        got, want = converted(m), an_int_or_a_float(m)
        assert [float(g) for g in got] == [float(w) for w in want]
        assert [np.asarray(g).dtype for g in got] == [np.float64, np.float64]  # as an `if`


def python_zero_or_a_sum(m, x32):
    total = 0.0
    try:
        total = np.linalg.inv(m).sum()
    except np.linalg.LinAlgError:
        pass
    return total * x32


def test_a_join_nep50_would_tell_apart_later_is_refused_while_tracing():
    # eagerly float32 where the inverse fails, float64 where it does not
    with pytest.raises(ag.PathTypeError, match="'total' is a Python float"):
        ag.convert(python_zero_or_a_sum)(SINGULAR, np.ones(2, np.float32))


def float32_or_a_tenth(m):
    try:
        y = np.linalg.inv(m.astype(np.float32)).sum()
    except np.linalg.LinAlgError:
        y = 0.1
    return y


def test_a_number_the_joined_type_cannot_hold_exactly_is_a_type_error_when_it_runs():
    converted = _check(float32_or_a_tenth, (REGULAR,))
    with pytest.raises(TypeError, match="bound 'y' to a Python float"):
        converted(SINGULAR)


# -- `suppress` bound with `as`, or among several managers ---------------------------

def suppress_as(x, i):
    y = 0.0
    with contextlib.suppress(IndexError) as s:
        y = x[i]
    return y, s is None


def suppress_with_errstate(x, i):
    y = 0.0
    with np.errstate(divide="ignore"), contextlib.suppress(IndexError):
        y = x[i] / 0.0
    return y


def two_suppresses(x, i, m):
    y = 0.0
    with contextlib.suppress(IndexError), contextlib.suppress(np.linalg.LinAlgError):
        y = x[i] + np.linalg.inv(m).sum()
    return y


def test_suppress_bound_with_as_or_among_several_managers_suppresses_as_eagerly():
    x = np.arange(3.0)
    for fn in (suppress_as, suppress_with_errstate):
        _check(fn, *[(x, np.int64(i)) for i in (1, 5)])
    _check(two_suppresses, *[(x, np.int64(i), m) for i in (1, 5) for m in (REGULAR, SINGULAR)])


def suppress(*types):
    """A manager named as `contextlib.suppress`, which it is not."""
    return contextlib.nullcontext(len(types))


def not_suppress_as(x, i):
    with suppress(IndexError) as s:
        y = x[i]
    return y, s


def test_a_manager_named_suppress_that_is_not_bound_with_as_is_refused():
    with pytest.raises(TypeError, match="as `contextlib.suppress`, which it is not"):
        ag.convert(not_suppress_as)(np.arange(3.0), np.int64(1))


# -- what only a handler does ------------------------------------------------------

def handler_writes_its_argument(m, x):
    try:
        y = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        x[0] = 7.0
        y = m
    return y


def test_an_argument_only_a_handler_writes_in_place_is_written_back():
    converted = ag.convert(handler_writes_its_argument)
    for m in (REGULAR, SINGULAR):
        x, want = np.ones(2), np.ones(2)
        _same(converted(m, x), handler_writes_its_argument(m, want))
        np.testing.assert_array_equal(x, want)


def returns_from_a_nested_try(m, i, xs):
    try:
        y = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        try:
            return xs[i]
        except IndexError:
            return -1.0
    return y.sum()


def test_returns_from_a_try_nested_in_a_handler():
    converted = _check(returns_from_a_nested_try, *[(m, np.int64(i), np.arange(3.0))
                                                    for m in (SINGULAR, REGULAR) for i in (1, 7)])
    assert converted.trace_count == 1


def errstate_and_suppress_around_a_loop(x, n):
    total = 0.0
    with np.errstate(all="ignore"), contextlib.suppress(IndexError):
        for k in range(n):
            total += x[k]
    return total


def returns_inside_suppress_as(x, i):
    with contextlib.suppress(IndexError) as s, np.errstate(divide="ignore"):
        return x[i] / 0.0, s
    return -1.0, None


def test_suppress_among_several_managers_around_a_loop_and_a_return():
    x = np.arange(3.0)
    _check(errstate_and_suppress_around_a_loop, *[(x, n) for n in (2, 5, np.int64(2),
                                                                   np.int64(5))])
    _check(returns_inside_suppress_as, (x, np.int64(1)), (x, np.int64(7)))


def body_writes_handler_rebinds(m, x):
    x = x * 1
    alias = x
    try:
        x[0] = 5.0
        y = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        x = np.zeros(2)
        y = m
    return x, y, alias


def test_an_array_the_body_writes_and_a_handler_rebinds():
    _check(body_writes_handler_rebinds, (REGULAR, np.ones(2)), (SINGULAR, np.ones(2)))


def returns_none_from_the_handler(m):
    try:
        return np.linalg.inv(m).sum()
    except np.linalg.LinAlgError:
        return


def writes_or_returns_none(m, out):
    try:
        out[...] = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        return
    out += 1


def test_a_handler_returning_none_where_the_body_returns_a_value_is_refused():
    _refused_then_eager(returns_none_from_the_handler, "on one path .* and None on another",
                        (REGULAR,), (SINGULAR,))
    converted = ag.convert(writes_or_returns_none)
    for m in (REGULAR, SINGULAR):
        got, want = np.zeros((3, 3)), np.zeros((3, 3))
        assert converted(m, got) is writes_or_returns_none(m, want) is None
        np.testing.assert_array_equal(got, want)


def appends_in_body_and_handler(m):
    log = []
    marks = {"a": 0}
    try:
        log.append(1)
        marks["a"] = 1
        x = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        log.append(2)
        marks["a"] = 2
        x = m
    return x, len(log), marks["a"]


def test_a_list_the_handler_appends_to_again_is_refused_while_tracing():
    # the handler's path needs the list one longer: a graph's lists have one length
    _refused_then_eager(appends_in_body_and_handler,
                        "'log' is a list of length 1 on one path .* list of length 2",
                        (REGULAR,), (SINGULAR,))


# -- a variable a loop's earlier trip bound ------------------------------------------

def last_invertible(ms, n):
    for k in range(n):
        try:
            v = np.linalg.inv(ms[k])
        except np.linalg.LinAlgError:
            pass
    return v


def last_positive(xs, t):
    for x in xs:
        if x > t:
            v = x
    return v


def test_a_python_loop_keeps_what_an_earlier_trip_bound():
    # the handler's path (and the `if`'s other branch) leaves v as the trip before bound it
    for ms in (np.stack([REGULAR, SINGULAR]), np.stack([SINGULAR, REGULAR])):
        _check(last_invertible, (ms, 2), (ms, 1))
    _check(last_positive, ([1.0, -1.0], np.float64(0.0)), ([-1.0, -2.0], np.float64(0.0)))


def test_a_staged_loop_carrying_a_variable_some_paths_leave_unbound_is_refused():
    ms = np.stack([REGULAR, SINGULAR])
    with pytest.raises(ag.TracingError, match="'v' is bound only .* a staged loop carries it"):
        ag.convert(last_invertible)(ms, np.int64(2))
    with pytest.raises(ag.TracingError, match="'v' is bound only .* a staged loop carries it"):
        ag.convert(last_positive)(np.array([1.0, -1.0]), np.float64(0.0))


def solved_by(a, b):
    try:
        return np.linalg.solve(a, b), "solve"
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(a, b, rcond=None)[0], "lstsq"


def status(a):
    try:
        np.linalg.cholesky(a)
        msg = "pd"
    except np.linalg.LinAlgError:
        msg = "not pd"
    return msg, msg == "pd", f"[{msg}]", msg + "!"


def test_texts_a_try_binds_on_each_path_are_eager_s():
    # once a TypeError when the graph ran the handler: 'lstsq' where tracing gave 'solve'
    solve, check = ag.convert(solved_by), ag.convert(status)
    for a in (np.eye(2), np.ones((2, 2)), -np.eye(2)):
        want, got = solved_by(a, np.ones(2)), solve(a, np.ones(2))
        np.testing.assert_allclose(got[0], want[0])
        assert got[1] == want[1] and type(got[1]) is str
        assert [bool(g) if i == 1 else g for i, g in enumerate(check(a))] == list(status(a))
    assert solve.trace_count == check.trace_count == 1
