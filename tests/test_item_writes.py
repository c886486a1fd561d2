"""Array item and slice writes: `x[i] = v` in converted code, everywhere (issue #12).

The eager function is the oracle. Each test runs it on fresh copies of its
arguments and compares what it returns and what it left in its arguments.
"""
from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest

import autograph as ag
from autograph.conversion import convert_function

G = np.zeros(3)


class Box:
    pass


# -- the rewrite: valid code for every subscript, the local root rebound ----------------------

def test_the_root_of_a_write_is_rebound_and_slices_become_calls():
    def f(x, o):
        x[1:, ::2] = 7
        x[..., 0] = 1
        y = x[:, None]
        x[0:1] += 2
        o.b[1] = 5
        return y

    code = ag.to_code(ag.convert(f))
    assert "x = ag__.setitem(x, (ag__.slice_(1, None, None), ag__.slice_(None, None, 2)), 7, 'x')" \
        in code
    assert "x = ag__.setitem(x, (..., 0), 1, 'x')" in code
    assert "y = x[:, None]" in code
    assert "x = ag__.setitem(x, ag__.slice_(0, 1, None), ag__.augmented(x[0:1], '+', 2), 'x')" \
        in code
    assert "o = ag__.setattr_(o, 'b', ag__.setitem(o.b, 1, 5, 'o.b'), 'o')" in code


def test_roots_that_are_not_local_names_are_written_through_not_rebound():
    def f(x):
        G[0] = 4

        def inner():
            x[0] = -1
        inner()
        return x

    code = ag.to_code(ag.convert(f))
    assert "\n    ag__.setitem(G, 0, 4, 'G')" in code
    assert "\n        ag__.setitem(x, 0, -1, 'x')" in code


def _python_forms(x, o, lst):
    x[1:, ::2] = 7
    x[..., 0] = 1
    x[0:1] += 2
    x[-1, 1:3] -= np.array([1.0, 2.0])
    o.a = 3
    o.b = np.zeros(4)
    o.b[1] = 5
    o.b[2:] += 1
    lst[0][1] = 9
    second = lst[1]
    lst[1] += [7]             # in place: `second` sees it
    a = np.arange(6)
    a[[0, 1]][0] = 100        # a copy is written: Python leaves `a` as it was
    t = np.zeros((2, 3))
    t.T[0] = 4                # a view is written: `t` changes
    t[1][2] = 8
    d = {"k": [0, 0]}
    d["k"][0] = 3
    return x, o.a, o.b, lst, a, t, d, second


def test_python_values_are_written_in_place_as_python_does():
    fn = convert_function(_python_forms)
    x, lst = np.zeros((3, 4)), [[0, 0], [1]]
    out = fn(x, Box(), lst)
    expect_x, expect_lst = np.zeros((3, 4)), [[0, 0], [1]]
    expect = _python_forms(expect_x, Box(), expect_lst)
    for got, want in zip(out, expect):
        if isinstance(want, np.ndarray):
            np.testing.assert_array_equal(got, want)
        else:
            assert got == want
    np.testing.assert_array_equal(x, expect_x)
    assert lst == expect_lst


# -- traced writes against the eager oracle ----------------------------------------------------

def _fresh(args):
    return copy.deepcopy(args)


def check(fn, *arg_sets, traces=1, rtol=1e-12):
    """`ag.convert(fn)` on each argument tuple equals `fn` (values and dtypes), and one trace
    serves them all (the control flow that depends on values was staged)."""
    graph = ag.convert(fn)
    for args in arg_sets:
        want, got = fn(*_fresh(args)), graph(*_fresh(args))
        for w, g in zip(want if isinstance(want, tuple) else (want,),
                        got if isinstance(got, tuple) else (got,)):
            assert np.asarray(g).dtype == np.asarray(w).dtype
            np.testing.assert_allclose(g, w, rtol=rtol)
    assert graph.trace_count == traces, ag.to_code(graph)
    return graph


def column_and_rows(y, v, a, i):
    y[:, 0] = v
    a[i, :] -= v
    y[..., -1] = a[i]
    y[1:, ::2] = 7.0
    return y, a


def test_slices_columns_and_rows_of_traced_arrays():
    check(column_and_rows,
          (np.zeros((3, 3)), np.arange(3.0), np.ones((4, 3)), np.int64(2)),
          (np.ones((3, 3)), -np.arange(3.0), np.zeros((4, 3)), np.int64(-1)))


def masks_indices_and_bounds(t, mask, idx, v, i, j):
    t[mask] = v[0]
    t[idx] = v              # repeated indices: the last write wins
    t[i:j] += 1.5
    t[i] *= 2
    t[np.array([True, False, True, False, True])] -= 1
    return t


def test_masks_integer_arrays_and_traced_slice_bounds():
    idx = np.array([4, 1, 4])
    check(masks_indices_and_bounds,
          (np.arange(5.0), np.arange(5) > 2, idx, np.array([1.0, 2.0, 3.0]), np.int64(1),
           np.int64(3)),
          (-np.arange(5.0), np.arange(5) < 2, idx[::-1].copy(), np.array([4.0, 5.0, 6.0]),
           np.int64(0), np.int64(5)))


def casts_and_broadcasts(ints, floats, v):
    ints[1:] = v * 1.7           # float into int: truncated, as NumPy casts on setitem
    floats[0] = ints.sum()       # int into float
    grid = np.zeros((2, 3))
    grid[:] = v[:3]              # broadcast over rows
    grid[None, 0] = np.ones((1, 1, 3))  # leading ones of the value are dropped
    return ints, floats, grid


def test_values_are_cast_and_broadcast_as_numpy_does():
    check(casts_and_broadcasts,
          (np.arange(4), np.zeros(2, np.float32), np.array([1.0, 2.0, 3.0])),
          (np.arange(4) * 3, np.ones(2, np.float32), np.array([-1.0, 0.5, 2.5])))


def nested_targets(a, i, j, v):
    a[i][j] = v                  # a[i] is a view: a changes
    box = Box()
    box.data = a * 1
    box.data[0] = -v
    rows = [a[0] * 1, a[1] * 1]
    rows[1][j] = 5 * v
    return a, box.data, rows[0], rows[1]


def test_nested_targets_write_through_to_their_root():
    check(nested_targets, (np.zeros((2, 3)), np.int64(1), np.int64(2), np.float64(4.0)),
          (np.ones((2, 3)), np.int64(0), np.int64(-1), np.float64(-1.0)))


def same_value_two_names(x, v):
    y = x * 1
    z = y                       # the same array under two names: both see the write
    y[0] = v
    return z


def test_a_name_bound_to_the_same_traced_value_sees_the_write():
    check(same_value_two_names, (np.zeros(3), np.float64(2.0)), (np.ones(3), np.float64(-2.0)))


def test_tracer_setitem_without_conversion_writes_through_write_in_place():
    def f(x, v):
        y = x.copy()
        z = y
        y[1:] = v
        return z
    x = np.arange(4.0)
    np.testing.assert_array_equal(ag.convert(f, autograph=False)(x, 7.0), f(x, 7.0))


# -- NumPy arrays the function made, written with traced values: lifted --------------------------

def lifted_straight_line(x):
    out = np.zeros(3)
    out[0] = x.sum()
    out[1:] = x[:2]
    return out


def lifted_in_staged_loop(x, m):          # the pattern over a staged loop
    out = np.zeros(5)
    for k in range(m):
        out[k] = x[k] * 2
    return out


def lifted_in_staged_while(x, n):
    y = x.copy()
    i = 0
    while i < n:
        y[i] = y[i - 1] + 1
        i += 1
    return y


def staged_if_in_python_loop(x):
    out = np.zeros(3)
    for k in range(3):
        if x[k] > 0:
            out[k] = x[k]
        else:
            out[k] -= 1
    return out


def test_an_array_made_in_the_function_is_lifted_where_a_traced_value_is_written():
    check(lifted_straight_line, (np.arange(3.0),), (-np.arange(3.0),))


@pytest.mark.parametrize("fn, arg_sets", [
    (lifted_in_staged_loop, [(np.arange(5.0), np.int64(k)) for k in (0, 3, 5)]),
    (lifted_in_staged_while, [(np.arange(5.0), np.int64(k)) for k in (0, 3, 4)]),
    (staged_if_in_python_loop, [(np.array(v),) for v in
                                ([1.0, -1.0, 2.0], [-1.0, 1.0, -2.0], [0.0, 3.0, 3.0])]),
], ids=["for-range", "while", "if-in-python-loop"])
def test_writes_inside_staged_blocks_stage_once_and_match_eager(fn, arg_sets):
    graph = check(fn, *arg_sets)
    assert "setitem" in ag.to_code(graph)


def test_out_k_in_a_staged_loop_is_one_loop_in_the_graph():
    graph = check(lifted_in_staged_loop, (np.arange(5.0), np.int64(2)))
    text = str(graph.get_concrete_function(np.arange(5.0), np.int64(2)).graph)
    assert "while_loop" in text and "index_update" in text, text


# -- gradients ---------------------------------------------------------------------------------

def test_gradient_of_writes_matches_finite_differences():
    from gradcheck import check_grad

    def f(x, v):
        y = x * 1.0
        y[np.array([0, 2, 0])] = v        # repeated: only the last write of 0 counts
        y[1:3] += v[:2] * 3
        y[None, 3] = v[2] ** 2
        return y
    check_grad(f, np.random.default_rng(0).uniform(size=4),
               np.random.default_rng(1).uniform(size=3), autograph=True)


def test_gradient_of_writes_with_unknown_dimensions_and_traced_masks():
    from gradcheck import check_grad

    def f(x, v, s):
        y = x * 1.0
        y[np.array([0, 2, 0])] = v
        y[1:3] += s                        # a scalar broadcast: its gradient is summed
        y[x > 0.5] *= 2
        return y
    rng = np.random.default_rng(2)
    check_grad(f, rng.uniform(size=5), rng.uniform(size=3), np.float64(0.3), autograph=True,
               specs=[ag.TensorSpec((None,), np.float64), ag.TensorSpec((None,), np.float64),
                      ag.TensorSpec((), np.float64)])


def test_gradient_through_a_staged_loop_of_writes():
    from gradcheck import check_grad

    def f(x, m):
        out = np.zeros(5)
        for k in range(m):
            out[k] = x[k] ** 2 + out[k - 1]
        return out
    check_grad(f, np.random.default_rng(0).uniform(size=5), np.int64(4), argnums=(0,),
               autograph=True)


# -- errors: NumPy's types, and aliasing named --------------------------------------------------

@pytest.mark.parametrize("body, error", [
    (lambda y: y.__setitem__(slice(0, 2), np.ones(3)), ValueError),
    (lambda y: y.astype(np.uint8).__setitem__(0, 300), OverflowError),
    (lambda y: y.astype(np.int64).__setitem__(0, float("nan")), ValueError),
    (lambda y: y.__setitem__(7, 1.0), IndexError),
], ids=["shape", "overflow", "nan-into-int", "out-of-bounds"])
def test_bad_writes_raise_numpys_error(body, error):
    def f(x):
        y = x * 1
        body(y)
        return y
    with pytest.raises(error):
        f(np.zeros(4))
    with pytest.raises(error):
        ag.convert(f)(np.zeros(4))


def test_augmented_write_keeps_numpys_casting_rule():
    def f(x):
        y = x.astype(np.int64)
        y[1:3] += 1.5                 # NumPy: UFuncTypeError (a TypeError)
        return y
    with pytest.raises(TypeError):
        f(np.zeros(4))
    with pytest.raises(TypeError):
        ag.convert(f)(np.zeros(4))

    def g(x):
        y = x.astype(np.int64)
        y[1] += 1.5                   # a scalar: added, then cast on the write
        return y
    check(g, (np.zeros(4),), (np.ones(4),))


def test_bad_shape_in_converted_code_is_numpys_value_error():
    def f(x):
        y = x * 1
        y[0:2] = x
        return y
    with pytest.raises(ValueError, match="could not broadcast input array from shape"):
        ag.convert(f)(np.zeros(4))


def test_a_lifted_array_with_another_name_is_a_tracing_error_naming_both():
    def f(x):
        out = np.zeros(3)
        alias = out
        out[0] = x[0]
        return alias
    with pytest.raises(ag.TracingError, match="'out'.*'alias'"):
        ag.convert(f)(np.ones(3))


def test_a_view_of_a_written_traced_array_sees_the_write():
    def f(x):
        y = x * 1
        head = y[:2]
        y[0] = 5.0
        return head
    check(f, (np.ones(3),), (np.arange(3.0),))


def test_a_dead_view_does_not_block_a_write():
    def f(x):
        y = x * 1
        y[1] = y[0] + y[1:].sum()     # y[0] and y[1:] are views, but bound to no name
        return y
    check(f, (np.arange(3.0),), (np.ones(3),))


def write_global(x):
    G[0] = x.sum()
    return x


def write_closure_array(x):
    out = np.zeros(3)

    def inner():
        out[0] = x.sum()
    inner()
    return out


@pytest.mark.parametrize("fn, name", [(write_global, "G"), (write_closure_array, "out")],
                         ids=["global", "closure"])
def test_a_traced_value_written_into_an_array_no_local_name_holds_is_a_tracing_error(fn, name):
    with pytest.raises(ag.TracingError, match=f"NumPy array '{name}'.*not a local variable"):
        ag.convert(fn)(np.ones(3))
    assert not G.any()


def test_a_local_array_a_closure_reads_is_rebound_for_it():
    def f(x):
        out = np.zeros(3)

        def inner():
            return out
        out[0] = x.sum()
        return inner()
    check(f, (np.ones(3),), (np.arange(3.0),))


def state_written_with_a_second_name(x, n):
    y = x * 1
    z = y
    for k in range(n):
        y[k] = k
    return z


def state_written_with_a_view(x, n):
    y = x * 1
    z = y[1:]
    for k in range(n):
        y[k] = k
    return z


def state_written_or_rebound_with_a_second_name(x, n):
    y = x * 1
    z = y
    if n > 0:
        y[0] = 5
    else:
        y = y + 1          # z keeps the old array on this path only
    return z, y


def test_a_second_name_for_state_a_staged_loop_writes_sees_the_writes():
    # once refused: the loop writes through the very traced value both names hold
    for dtype in (np.int64, np.float64):
        check(state_written_with_a_second_name,
              *[(np.zeros(4, dtype), np.int64(n)) for n in (0, 1, 3, 4)])


def test_a_second_name_for_state_a_staged_if_writes_on_one_path_sees_the_write():
    # once refused: the write is followed in place, the rebinding by `runtime.path_aliases`
    check(state_written_or_rebound_with_a_second_name,
          *[(np.zeros(4), np.int64(n)) for n in (0, 3)])


def test_a_view_of_state_a_staged_block_writes_sees_the_writes():
    # The loop writes `y` through to the enclosing graph; `z` views it (runtime.views).
    check(state_written_with_a_view, (np.zeros(4), np.int64(3)), (np.ones(4), np.int64(1)))


def test_a_name_rebound_inside_the_staged_block_is_not_an_alias():
    def f(x, n):
        y = x * 1
        for k in range(n):
            z = y
            y[k] = k + z[0]
        return y
    check(f, (np.zeros(4), np.int64(3)), (np.ones(4), np.int64(1)))


def nested_in_staged_loop(x, n):
    a = np.zeros((3, 3))
    b = x * 1
    for k in range(n):
        a[k][k] = x[k, 0]
        b[k][0] += 1
    return a, b


def test_nested_targets_inside_a_staged_loop():
    check(nested_in_staged_loop, (np.ones((3, 3)), np.int64(2)),
          (np.arange(9.0).reshape(3, 3), np.int64(3)))


def test_an_attribute_holding_a_traced_array_is_written_through():
    def f(x):
        box = Box()
        box.w = x * 1
        box.w[0] = 5
        box.w[1:] += x[:2]
        return box.w
    check(f, (np.arange(3.0),), (np.ones(3),))


@pytest.mark.parametrize("index", [
    (np.array([3, 1, 3, 0, 1]),),
    (slice(None), np.array([[2, 0], [2, 2]])),
    (np.array([1, 1]), np.array([0, 0])),
], ids=["1d", "2d-index", "pairs"])
def test_the_cupy_kernel_writes_the_last_of_repeated_indices_as_numpy(index):
    """Run here with NumPy as `xp`: the override must agree with NumPy's own setitem."""
    from autograph_runtime.backend import CUPY_OVERRIDES
    from autograph_runtime.ops.indexing import _template
    from autograph_runtime.ops.updates import index_update_p

    rng = np.random.default_rng(0)
    x = rng.uniform(size=(4, 3))
    template, operands = _template(index)
    want = x.copy()
    want[index] = (v := rng.uniform(size=np.shape(x[index])))
    got = CUPY_OVERRIDES[index_update_p](np, index=template)(x, v, *operands)
    np.testing.assert_array_equal(got, want)


# -- tuple targets and chained assignments -----------------------------------------------------

def swaps_and_chains(x, i, j, n):
    x[i], x[j] = x[j], x[i]
    a = np.zeros(3)
    b = a[0] = x[0]
    (a[1], c), *rest = (x[1], 5), 7, 8
    for k in range(n):
        x[k], x[k + 1] = x[k + 1], x[k]
    return x, a, b, c, rest


def test_tuple_targets_and_chained_assignments_write_items():
    code = ag.to_code(ag.convert(swaps_and_chains))
    assert "item, item_1 = (ag__.getitem(x, j), ag__.getitem(x, i))\n    x = ag__.setitem(x, i, item, 'x')" in code
    graph = ag.convert(swaps_and_chains)
    for args in [(np.arange(5.0), np.int64(0), np.int64(3), np.int64(2)),
                 (np.arange(5.0)[::-1].copy(), np.int64(1), np.int64(2), np.int64(3))]:
        want, got = swaps_and_chains(*_fresh(args)), graph(*_fresh(args))
        for w, g in zip(want, got):
            np.testing.assert_array_equal(g, w)
    assert graph.trace_count == 1
    x = [3, 1, 2]
    convert_function(swaps_and_chains)(x, 0, 2, 1)   # as Python: a list swapped in place
    assert x == [1, 2, 3]


# -- a NumPy scalar or Python number written into an integer array: NumPy's checked cast ------------

def sum_into_int8(x):
    out = np.zeros(2, np.int8)
    out[0] = x.sum()             # a NumPy scalar: NumPy raises where it does not fit
    return out


def max_into_int32(x):
    out = np.zeros(2, np.int32)
    out[1:] = x.max()
    return out


def int_into_int8(x, y):
    y[0] = int(x[0])             # a Python int: OverflowError where it does not fit
    return y


def sum_into_uint8(x):
    out = np.zeros(2, np.uint8)
    out[0] = x.sum()             # NumPy wraps here (its own rule for unsigned targets)
    return out


@pytest.mark.parametrize("fn, args", [
    (sum_into_int8, (np.array([600, 400]),)), (sum_into_int8, (np.array([6, 4]),)),
    (max_into_int32, (np.array([np.nan, 1.0]),)), (max_into_int32, (np.array([np.inf, 1.0]),)),
    (max_into_int32, (np.array([3.7, 1.0]),)),
    (int_into_int8, (np.array([1000.0]), np.zeros(2, np.int8))),
    (int_into_int8, (np.array([-7.9]), np.zeros(2, np.int8))),
    (sum_into_uint8, (np.array([600, 400]),)),
], ids=["int8-overflow", "int8", "nan", "inf", "truncates", "python-int", "python-int-fits",
        "uint8-wraps"])
def test_a_scalar_written_into_an_integer_array_is_cast_as_numpy_assigns_it(fn, args):
    # once a silent wrong answer: the graph wrapped 1000 to -24 where NumPy raises
    try:
        expected = fn(*[a.copy() for a in args])
    except (OverflowError, ValueError) as error:
        with pytest.raises(type(error), match=str(error)):
            ag.convert(fn)(*[a.copy() for a in args])
        return
    got = ag.convert(fn)(*[a.copy() for a in args])
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def column_from_an_overlapping_row(k, x):
    M = np.zeros((3, 3)) + x
    M[:, k % 3] = M[1]           # the value is a view of M that the write overlaps
    return M


def row_from_an_overlapping_column(k, x):
    M = np.zeros((3, 3)) + x
    M[k % 3, :] = M[:, 1]
    return M


def shifted_in_place(k, x):
    a = np.outer(x, x).ravel()[::2]      # a strided view of its own array
    a[1:k] = a[:k - 1]                   # equal strides: NumPy copies backwards, exactly
    return a


def column_of_a_transpose_from_a_row(k, x):
    M = (np.zeros((3, 3)) + x).T
    column = M[:, k % 3]
    column[...] = M[1]
    return M


@pytest.mark.parametrize("fn", [column_from_an_overlapping_row, row_from_an_overlapping_column,
                                shifted_in_place, column_of_a_transpose_from_a_row])
def test_a_value_overlapping_its_target_is_written_as_numpy_copies_it(fn):
    # once a silent wrong answer: NumPy copies into a 1-d target element by element, so
    # M[2, 2] read the M[1, 2] just written (eager column [-1, 2, 2]), the graph [-1, 2, -1.5]
    x = np.array([-1.0, 2.0, -1.5])
    converted = ag.convert(fn)
    for k in (5, 4, 3):
        np.testing.assert_array_equal(converted(np.int64(k), x), fn(np.int64(k), x))
    assert converted.trace_count == 1


def row_of_a_conditional_view_into_its_column(x):
    M = np.arange(9.0).reshape(3, 3) + x
    old = M
    if np.all(x >= 0.0):         # traced: M is the old array on the other path only
        M = np.arange(9.0).reshape(3, 3).T * 2
    M[:, 2] = M[1]               # overlapping in whichever array M is on the path
    return M, old


def column_of_a_conditional_view_into_its_row(x):
    M = np.arange(9.0).reshape(3, 3) + x
    old = M
    if np.all(x >= 0.0):
        M = np.arange(9.0).reshape(3, 3).T * 2
    M[2, :] = M[:, 1]
    return M, old


def row_of_a_value_that_may_be_the_target(x):
    M = np.arange(9.0).reshape(3, 3) + x
    v = M if np.all(x >= 0.0) else np.zeros((3, 3))
    M[:, 2] = v[1]               # a view of M on one path, of another array on the other
    return M


@pytest.mark.parametrize("fn", [row_of_a_conditional_view_into_its_column,
                                column_of_a_conditional_view_into_its_row,
                                row_of_a_value_that_may_be_the_target])
def test_an_overlapping_write_through_a_conditional_view_follows_the_path(fn):
    # once a silent wrong answer: a conditional view between the value and its memory
    # made the graph read the value before writing (eager M[2, 2] 3.0, the graph's 4.0)
    converted = ag.convert(fn)
    for x in (np.zeros(3), -np.ones(3), np.array([0.0, 1.0, -1.0])):
        expected, got = fn(x.copy()), converted(x.copy())
        for e, g in zip(expected if isinstance(expected, tuple) else [expected],
                        got if isinstance(got, tuple) else [got]):
            np.testing.assert_array_equal(g, e)
    assert converted.trace_count == 1


def test_an_overlapping_write_of_a_view_chosen_by_a_branch_is_refused():
    # once a crash (TypeError: 'NoneType' object is not callable): which row of M the
    # value is depends on the branch, so NumPy's element order cannot be replayed
    def f(x):
        M = np.zeros((3, 3)) + x
        M[:, 2] = M[1] if np.all(x > 1.0) else M[0]
        return M

    with pytest.raises(ag.TracingError, match=r"written into 'M' \(at .*test_item_writes.py"
                       r":\d+ in f\), shares its memory in a way that depends on the path"):
        ag.convert(f)(np.array([1.0, 2.0, 3.0]))


def test_the_gradient_flows_through_an_overlapping_write():
    def f(x):
        M = np.outer(x, x)
        M[:, 2] = M[1]                   # M[2, 2] = x[1] * x[1], written just before
        return (M * np.arange(9.0).reshape(3, 3)).sum()

    x = np.array([-1.0, 2.0, -1.5])
    step = 1e-6 * np.eye(3)
    differences = [(f(x + e) - f(x - e)) / 2e-6 for e in step]   # of the eager function
    np.testing.assert_allclose(ag.grad(ag.convert(f))(x), differences, rtol=1e-6)


_STEPS = [slice(None), slice(None, None, -1), slice(1, None), slice(None, None, 2),
          slice(None, -1), slice(-1, None, -2)]


def _lines(shape):
    """Every 1-d line of an array of `shape` that a basic index with one slice selects."""
    for axis in range(len(shape)):
        for fixed in itertools.product(*[range(n) for i, n in enumerate(shape) if i != axis]):
            for step in _STEPS:
                index = fixed[:axis] + (step,) + fixed[axis:]
                if np.empty(shape)[index].size:
                    yield index


def _line_writes():
    """(shape, target, source, layout) for every line of a small array written from another
    line of it of the same length: those where NumPy's element order shows in the result
    (16 of 11,696), and every 97th of the others."""
    cases, others = [], 0
    for shape in [(3, 3), (2, 4), (4, 3), (2, 3, 2), (5,)]:
        lines = list(_lines(shape))
        for target, source in itertools.product(lines, lines):
            if np.empty(shape)[target].size != np.empty(shape)[source].size:
                continue
            for layout in ("C", "F"):
                M, copied = (np.asarray(np.arange(np.prod(shape), dtype=float).reshape(shape),
                                        order=layout) for _ in range(2))
                M[target], copied[target] = M[source], copied[source].copy()
                others += np.array_equal(M, copied)
                if not np.array_equal(M, copied) or np.array_equal(M, copied) and others % 97 == 0:
                    cases.append((shape, target, source, layout))
    return cases


@pytest.mark.parametrize("shape, target, source, layout", _line_writes())
def test_a_line_written_from_a_line_of_its_own_array_matches_numpy(shape, target, source, layout):
    def write(x):
        M = x.T.copy().T if layout == "F" else x.copy()   # Fortran order, as NumPy lays it
        M[target] = M[source]
        return M

    x = np.arange(float(np.prod(shape))).reshape(shape)
    np.testing.assert_array_equal(ag.convert(write)(x), write(x))


def test_a_sequence_written_into_one_element_is_numpy_s_error():
    def f(d, v):
        d[1, 0] = v
        return d
    for v in (np.ones(2), np.ones((2, 2))):
        with pytest.raises(ValueError, match=r"^setting an array element with a sequence\."):
            f(np.zeros((3, 2)), v)
        with pytest.raises(ValueError, match=r"^setting an array element with a sequence\."):
            ag.convert(f)(np.zeros((3, 2)), v)


def _shrink(simplex, vals):
    simplex[1:] = simplex[0] + 0.5 * (simplex[1:] - simplex[0])
    vals[1:] = [np.sum(p ** 2) for p in simplex[1:]]
    return simplex, vals


def _mixed_row(x):
    out = np.zeros((2, 3), np.float32)
    out[0] = [x[0], 2, x.sum()]
    out[1, :2] = (x.max(), 7)
    return out


@pytest.mark.parametrize("fn, args", [
    (_shrink, (np.array([[0.0, 0], [1, 0], [0, 1]]), np.array([0.0, 1, 1]))),
    (_mixed_row, (np.array([1.5, -2.0, 4.0]),)),
    (_mixed_row, (np.array([3, 1, 2]),))])
def test_a_list_of_traced_values_written_into_an_array_is_numpys_array_of_it(fn, args):
    eager_args = [a.copy() for a in args]
    want = fn(*eager_args)
    graph_args = [a.copy() for a in args]
    got = ag.convert(fn, eager_fallback=False)(*graph_args)
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype
    for g, w in zip(graph_args, eager_args):
        np.testing.assert_array_equal(g, w)
