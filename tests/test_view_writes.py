"""In-place writes through views of traced arrays follow NumPy's shared memory.

A view (`x[1:]`, `x[:, 0]`, `x.T`, `x.reshape(...)`, `x[..., None]`, chains of
them) written in place writes its base, and every other view of that base sees
the change, in straight-line code and in staged `if`/`while`/`for` blocks
(`runtime/views.py`). Each case runs eagerly (the oracle) and converted, on
several value sets through one trace, comparing results and the arguments
after the call (an argument written through a view is written back).
"""
import numpy as np
import pytest

import autograph as ag


def fresh(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def check(fn, *arg_sets, traces=1):
    graph = ag.convert(fn)
    for args in arg_sets:
        eager_args, graph_args = fresh(args), fresh(args)
        want, got = fn(*eager_args), graph(*graph_args)
        want = want if isinstance(want, tuple) else (want,)
        got = got if isinstance(got, tuple) else (got,)
        assert len(want) == len(got)
        for w, g in zip(want + tuple(eager_args), got + tuple(graph_args)):
            assert np.asarray(g).dtype == np.asarray(w).dtype
            np.testing.assert_array_equal(g, w)
    assert graph.trace_count == traces, ag.to_code(graph)


# -- the issue's example and its loop form ----------------------------------------------------

def issue_h(x):
    y = x[1:]
    if x.sum() > 0:
        y += 1
    return x


def loop_form(x, n):
    y = x[1:]
    for i in range(n):
        y += 1
    return x


def while_form(x, n):
    y = x[:, 0]
    while n > 0:
        y *= 2
        n -= 1
    return x, y


def test_the_issues_example_writes_the_base_in_a_staged_if():
    check(issue_h, (np.array([1, 1, 1]),), (np.array([-5, 1, 1]),), (np.array([0, 0, 1]),))


def test_a_view_written_in_a_staged_loop_writes_its_base():
    check(loop_form, (np.array([1, 1, 1]), np.int64(3)), (np.array([1.0, 2, 3]), np.int64(0)),
          traces=2)
    check(loop_form, (np.array([1, 1, 1]), np.int64(3)), (np.array([4, 5, 6]), np.int64(0)),
          (np.array([0, 0, 0]), np.int64(7)))
    check(while_form, (np.arange(6.0).reshape(3, 2), np.int64(2)),
          (np.ones((3, 2)), np.int64(0)))


# -- straight-line code ------------------------------------------------------------------------

def kinds_of_views(x):
    row, col, t = x[1], x[:, 0], x.T
    flat = x.reshape(-1)
    col += 10                  # writes x[:, 0]: row, t and flat see it
    row[1:] = -1               # a view of a view
    t[0, 1] += 100             # through the transpose: x[1, 0]
    flat[-1] = 7
    x[..., None][0, 0] = 5     # a view written once, bound to no name
    return x, row, col, t, flat


def base_written(x):
    head, mid = x[:2], x[1:3]
    x *= 3                     # views of x see the write
    head.fill(1)               # and x and the other view see the views' writes
    np.add(mid, 2, out=mid)
    return x, head, mid


def chain_of_views(x):
    y = x[1:][::2]             # x[1::2]
    z = y.T[None]
    z[0] -= 1
    w = x[::-1]
    w[0] = 9
    return x, y, z, w


def views_of_a_local(x):
    a = x * 2
    b = a.reshape(2, 3)[:, 1:]
    b[:, 0] = 0
    c = a[np.array([0, 1])]    # integer indexing copies: c does not follow a
    a += 1
    return a, b, c


@pytest.mark.parametrize("fn, shape", [
    (kinds_of_views, (3, 3)), (base_written, (4,)), (chain_of_views, (5,)),
    (views_of_a_local, (6,))])
def test_straight_line_writes_follow_shared_memory(fn, shape):
    check(fn, (np.arange(np.prod(shape), dtype=np.float64).reshape(shape),),
          (np.ones(shape),))


def test_an_int_array_through_a_view_keeps_numpys_cast():
    def f(x):
        y = x[::2]
        y += np.int8(3)
        return x
    check(f, (np.arange(5, dtype=np.int16),))


def writes_through_attribute_views(x, v):
    x.T[0] = v                 # the converter's `x = setattr_(x, 'T', setitem(x.T, 0, v))`
    x[:, 1:].T[0] += v
    return x


def writes_through_views_in_a_loop(x, n):
    for i in range(n):
        x[1:].T[0] = i
        x[:, 0][1:] *= 2
    return x


def test_nested_targets_through_views_write_their_root():
    check(writes_through_attribute_views, (np.zeros((2, 3)), np.float64(2.0)),
          (np.ones((2, 3)), np.float64(-1.0)))
    check(writes_through_views_in_a_loop, (np.ones((3, 2)), np.int64(2)),
          (np.arange(6.0).reshape(3, 2), np.int64(0)))


# -- staged blocks -----------------------------------------------------------------------------

def base_written_in_a_branch(x):
    y = x[1:]
    if x[0] > 0:
        x += 1
    return x, y


def both_state_of_a_loop(x, n):
    y = x.T
    if n > 0:
        y[0] += 1              # y is state (its write is rebound)
        x[1] *= 2              # x too
    return x, y


def view_read_in_the_block_after_the_base_is_written(x):
    y = x[:2]
    if x.sum() > 0:
        x += 1
        z = y * 10             # y is read after x's write: it sees it
    else:
        z = y * 0
    return x, z


def view_made_in_the_block(x, n):
    for i in range(n):
        y = x[i:]
        y += 1
    return x


def loop_carrying_a_view_and_its_base(x, n):
    y = x.T
    for i in range(n):
        y[0] += 1
        x[1] *= 2
    return x, y


def view_read_in_a_loop_that_writes_its_base(x, n):
    y = x[:2]
    s = np.zeros(2)
    k = 0
    while k < n:
        x += 1
        s += y             # y sees x's write at every step
        k += 1
    return x, s


def view_in_a_loop_test(x):
    y = x[1:]
    while y.sum() < 20:
        x += 1
    return x


def base_rebound_in_a_loop_that_reads_a_view(x, n):
    y = x[1:]
    s = 0.0
    for i in range(n):
        s += y.sum()       # y views the first x only
        x = x * 2
    return x, s


@pytest.mark.parametrize("fn, arg_sets", [
    (loop_carrying_a_view_and_its_base, [(np.arange(4.0).reshape(2, 2), np.int64(2)),
                                         (np.ones((2, 2)), np.int64(0))]),
    (view_read_in_a_loop_that_writes_its_base, [(np.arange(3.0), np.int64(3)),
                                                (np.ones(3), np.int64(0))]),
    (view_in_a_loop_test, [(np.arange(3.0),), (np.full(3, 30.0),)]),
    (base_rebound_in_a_loop_that_reads_a_view, [(np.arange(3.0), np.int64(3)),
                                                (np.ones(3), np.int64(1))]),
], ids=["view-and-base-state", "view-read-in-loop", "view-in-test", "base-rebound"])
def test_loops_follow_shared_memory(fn, arg_sets):
    check(fn, *arg_sets)


@pytest.mark.parametrize("fn, arg_sets", [
    (base_written_in_a_branch, [(np.array([1.0, 2, 3]),), (np.array([-1.0, 2, 3]),)]),
    (both_state_of_a_loop, [(np.arange(4.0).reshape(2, 2), np.int64(2)),
                            (np.ones((2, 2)), np.int64(0))]),
    (view_read_in_the_block_after_the_base_is_written,
     [(np.array([1.0, 2, 3]),), (np.array([-9.0, 2, 3]),)]),
], ids=["base-in-branch", "both-state", "view-read-after"])
def test_staged_writes_follow_shared_memory(fn, arg_sets):
    check(fn, *arg_sets)


# -- arguments -----------------------------------------------------------------------------------

def test_a_write_through_a_view_of_an_argument_writes_the_callers_array():
    def f(x, v):
        c = x[:, 1:].T
        c[0] = v               # x[:, 1]
        y = x.reshape(-1)
        if v > 0:
            y[0] = v
    check(f, (np.zeros((2, 3)), np.float64(2.0)), (np.ones((2, 3)), np.float64(-1.0)))


def test_an_argument_written_through_a_view_in_a_staged_loop_is_written_back():
    def f(x, n):
        y = x[::2]
        for i in range(n):
            y += i
            if y.sum() > 10:
                y[0] = 0
    check(f, (np.arange(5), np.int64(4)), (np.ones(5, np.int64), np.int64(0)))


# -- gradients ---------------------------------------------------------------------------------

def test_gradient_through_writes_to_views():
    from gradcheck import check_grad

    def f(x, v):
        y = x * 1.0
        col = y.reshape(2, 2).T[0]
        col *= v[:2]
        head = y[:3]
        head += v ** 2
        return y
    rng = np.random.default_rng(0)
    check_grad(f, rng.uniform(size=4), rng.uniform(size=3), autograph=True)


def scale_a_view_in_a_branch(x, w):
    y = x * 1.0
    z = y[1:]
    if w.sum() > 0:
        z *= w
    else:
        z += w
    return y


def scale_a_view_in_a_loop(x, w, n):
    y = x * 1.0
    z = y[::-1][:2]
    for i in range(n):
        z *= w
    return y


def test_gradient_through_staged_writes_to_views():
    from gradcheck import check_grad
    rng = np.random.default_rng(1)
    check_grad(scale_a_view_in_a_branch, rng.uniform(size=3), rng.uniform(size=2),
               autograph=True)
    check_grad(scale_a_view_in_a_branch, rng.uniform(size=3), -rng.uniform(size=2),
               autograph=True)
    check_grad(scale_a_view_in_a_loop, rng.uniform(size=3), rng.uniform(size=2), np.int64(3),
               argnums=(0, 1), autograph=True)


# -- what cannot be followed ---------------------------------------------------------------------

def test_a_view_made_in_a_block_of_a_value_the_block_does_not_carry_writes_it():
    # once refused; the block now carries x (tests/test_view_writes_in_blocks.py)
    check(view_made_in_the_block, *[(np.zeros(4), np.int64(n)) for n in (0, 1, 3, 5)])


def test_a_loop_that_writes_through_a_view_and_rebinds_the_base():
    # once refused; the loop now carries x's array and whether x is still it
    def f(x, n):
        y = x[1:]
        s = 0.0
        for i in range(n):
            x += 1
            s = s + y.sum()       # y views the argument, written on the first trip only
            x = x * 2             # the next step's x is another array: y does not view it
        return x, s
    converted = ag.convert(f)
    for n in (0, 1, 2, 4):
        eager_x, graph_x = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0])
        eager, graph = f(eager_x, np.int64(n)), converted(graph_x, np.int64(n))
        np.testing.assert_array_equal(graph[0], eager[0])
        assert graph[1] == eager[1]
        np.testing.assert_array_equal(graph_x, eager_x)


def test_an_index_that_may_be_a_0d_array_is_not_followed():
    def f(x, k):
        z = x[:, None][k]      # np.int64(k): a view; np.array(k): an advanced index, a copy
        z -= 5
        return x
    check(f, (np.arange(4.0), np.int64(1)), (np.arange(4.0), np.int64(3)))
    with pytest.raises(ag.TracingError, match="'z' shares memory.*may be a 0-d array"):
        ag.convert(f)(np.arange(4.0), np.array(1))

    def g(x):
        z = x[:, None][np.array(1)]   # a copy, as in NumPy
        z -= 5
        return x, z
    check(g, (np.arange(4.0),))


def test_a_reshape_of_a_strided_view_written_is_a_tracing_error_naming_it():
    def f(x):
        y = x.T.reshape(-1)    # NumPy copies here; the graph cannot tell which, so refuses
        y += 1
        return x
    with pytest.raises(ag.TracingError, match="in-place `add` on 'y'.*cannot follow"):
        ag.convert(f)(np.zeros((2, 3)))


def loop_binds_its_range_start(n):
    a = np.int64(2)
    for j in range(n, 5):
        a = n          # the outer n, not the loop's counter that starts at n
    return a, 0 - (7 if 5 > a * 3 else 1)


def test_a_loop_body_returning_the_outer_value_its_counter_starts_from():
    # a body input stood for the outer `n` (the range's start) even though the loop
    # rebinds that input: the loop returned its counter (4) where eager returns n (0)
    converted = ag.convert(loop_binds_its_range_start)
    for n in [0, 3, 7]:
        got, want = converted(np.int64(n)), loop_binds_its_range_start(np.int64(n))
        assert [int(v) for v in got] == [int(v) for v in want]
    assert converted.trace_count == 1


def base_read_while_its_view_is_written(n, x):
    w = x[:2]
    s = 0.0
    i = np.int64(0)
    while i < n:
        i = i + 1
        s = s + x[0]   # eager reads the x that `w += 2.0` wrote on the step before
        w += 2.0
    return s, x


def base_read_in_a_branch_that_writes_its_view(c, x):
    w = x[:2]
    s = 0.0
    if c > 0:
        w += 2.0
        s = x[0] * 1.0   # eagerly the written x
    return s, x


@pytest.mark.parametrize("fn, args", [
    (base_read_while_its_view_is_written, (np.int64(3),)),
    (base_read_in_a_branch_that_writes_its_view, (np.int64(1),))])
def test_a_base_read_in_a_block_that_writes_its_view_sees_the_write(fn, args):
    # the graph read x as it was before the block (3.0 where eager gives 9.0), then
    # refused it; the block now carries x as its state too (runtime.views.CarryNeeded)
    n = args[0]
    check(fn, *[(m, np.array([1.0, 2.0, 3.0])) for m in (n, n - n, n + 2, -n)])


# -- functions and methods that return their argument, a view of it, or a copy -----------------
_RETURNS_SHARED = {   # f(x) shares x's memory in NumPy: a write to it is a write to x
    "x.ravel()": lambda x: x.ravel(),
    "np.atleast_2d": np.atleast_2d,
    "x[...]": lambda x: x[...],
    "np.real": np.real,
    "x.real": lambda x: x.real,
    "np.asarray": np.asarray,
    "np.array(copy=False)": lambda x: np.array(x, copy=False),
    "np.array(ndmin=2)": lambda x: np.array(x, copy=None, ndmin=2),
    "x.astype(copy=False)": lambda x: x.astype(x.dtype, copy=False),
    "x.view()": lambda x: x.view(),
    "x.conjugate()": lambda x: x.conjugate(),
}
_RETURNS_COPY = {
    "x.flatten()": lambda x: x.flatten(),
    "x.copy()": lambda x: x.copy(),
    "np.array": np.array,
    "x.astype(same)": lambda x: x.astype(x.dtype),
    "np.conj": np.conj,
    "np.positive": np.positive,
}


@pytest.mark.parametrize("share", [*_RETURNS_SHARED.values(), *_RETURNS_COPY.values()],
                         ids=[*_RETURNS_SHARED, *_RETURNS_COPY])
def test_a_write_to_what_a_function_returns_reaches_its_argument_as_in_numpy(share):
    # once silent wrong answers: the graph's flatten() shared memory with x, and its
    # x.real, x.astype(x.dtype, copy=False) did not
    def write(x):
        y = share(x)
        y[..., 0] = 99.0
        return x, y

    x = np.arange(3.0)
    expected = write(x.copy())
    got = ag.convert(write)(x.copy())
    for want, have in zip(expected, got):
        np.testing.assert_array_equal(have, want)


def test_a_part_of_a_complex_array_written_or_held_while_it_is_written_is_refused():
    def holds_the_real_part(z):
        r = z.real
        z *= 2                    # NumPy's r sees the write: a strided view the graph
        return r                  # does not follow

    with pytest.raises(ag.TracingError, match="'r' shares memory with 'z'.*a part of a complex"):
        ag.convert(holds_the_real_part)(np.arange(3.0) + 1j)


def test_a_view_as_another_dtype_is_refused_by_name():
    with pytest.raises(ag.TracingError, match=r"ndarray.view\(dtype\)"):
        ag.convert(lambda x: x.view(np.int64))(np.arange(3.0))


def einsum_diagonal_written(a):
    d = np.einsum("ii->i", a)     # NumPy's einsum returns a view of a here
    d += 100.0
    return a


def einsum_views_read(a):
    return np.einsum("ii->i", a) * 2, np.einsum("ij->ji", a)[0], np.einsum("ij,jk->ik", a, a)


def test_a_view_einsum_returns_is_refused_where_written_and_free_where_read():
    a = np.arange(4.0).reshape(2, 2)
    with pytest.raises(ag.TracingError):
        ag.convert(einsum_diagonal_written)(a.copy())
    eager, converted = a.copy(), a.copy()
    with pytest.warns(ag.FallbackWarning):
        got = ag.convert(einsum_diagonal_written, eager_fallback=True)(converted)
    np.testing.assert_array_equal(got, einsum_diagonal_written(eager))
    np.testing.assert_array_equal(converted, eager)
    check(einsum_views_read, (a,), (a * 3,))
