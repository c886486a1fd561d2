"""In-place writes of arrays made in the function, inside staged blocks (issue #12).

While tracing, `np.zeros(3)` is a concrete array; a staged body is traced once,
so an in-place write in it must become loop or branch state, not one write.
Each function runs eagerly and converted for several values on one trace.
"""
import numpy as np
import pytest

import autograph as ag


def count(n):
    t = np.zeros(3)
    for i in range(n):
        t += 1
    return t


def while_sub(n):
    t = np.full(3, 10.0)
    i = 0
    while i < n:
        t -= i
        i += 1
    return t


def if_mul(n):
    t = np.arange(3.0)
    if n > 2:
        t *= 3
    return t


def fill_if(n):
    t = np.zeros(3)
    if n > 2:
        t.fill(5.0)
    return t


def fill_for(n):
    t = np.zeros(2)
    for i in range(n):
        t.fill(i)
    return t


def out_while(n):
    t = np.zeros(3)
    i = 0
    while i < n:
        np.add(t, 1, out=t)
        i += 1
    return t


def out_if(n):
    t = np.ones(3)
    if n > 2:
        np.multiply(t, n, out=t)
    return t


def sort_if(n):
    t = np.array([3.0, 1.0, 2.0])
    if n > 2:
        t.sort()
    return t


def sort_for(n):
    t = np.array([3, 1, 2])
    for i in range(n):
        t.sort()
        t = t * -1
    return t


def int_keeps_dtype(n):
    t = np.zeros(3, np.int8)
    for i in range(n):
        t += 100
    return t


def nested(n):
    t = np.zeros(2)
    for i in range(n):
        if i % 2 == 0:
            t += i
    return t


CASES = [count, while_sub, if_mul, fill_if, fill_for, out_while, out_if, sort_if, sort_for,
         int_keeps_dtype, nested]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_in_place_in_staged_block_matches_eager(fn):
    converted = ag.convert(fn)
    for n in [0, 1, 3, 4]:
        eager = fn(np.int64(n))
        with np.errstate(over="ignore"):
            graph = converted(np.int64(n))
        assert graph.dtype == eager.dtype, (fn.__name__, n)
        np.testing.assert_array_equal(graph, eager, err_msg=f"{fn.__name__}({n})")
    assert converted.trace_count == 1


def test_issue_count_example():
    assert ag.convert(count)(np.int64(4)).tolist() == [4.0, 4.0, 4.0]


def acc(x):
    s = x[0]
    s += np.int64(300)
    return s


def acc_sum(x):
    s = x.sum()
    s *= 2.5
    return s


def acc_scalar_arg(v):
    v += 1.5
    return v


@pytest.mark.parametrize("fn, arg", [
    (acc, np.array([1, 2], np.int8)),
    (acc_sum, np.array([1, 2], np.int16)),
    (acc_scalar_arg, np.int32(3)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_op_assign_on_numpy_scalar_rebinds_with_promotion(fn, arg):
    eager = fn(arg.copy())
    graph = ag.convert(fn)(arg)
    assert graph.dtype == eager.dtype
    assert graph == eager


def test_op_assign_on_numpy_scalar_in_staged_loop():
    def f(x, n):
        s = x[0]
        for i in range(n):
            s = s + np.int8(1)
        s += np.int64(300)
        return s
    x = np.array([1, 2], np.int8)
    for n in [0, 2]:
        eager, graph = f(x, np.int64(n)), ag.convert(f)(x, np.int64(n))
        assert graph.dtype == eager.dtype and graph == eager


def test_aliased_array_written_in_place_is_refused_naming_both():
    def f(n):
        t = np.zeros(3)
        u = t
        for i in range(n):
            t += 1
        return u
    with pytest.raises(ag.TracingError, match=r"'t'.*'u' shares its memory"):
        ag.convert(f)(np.int64(4))


def test_view_written_in_place_is_refused_naming_both():
    def f(n):
        t = np.zeros(3)
        v = t[1:]
        if n > 2:
            t.fill(1.0)
        return v
    with pytest.raises(ag.TracingError, match=r"'t'.*'v' shares its memory"):
        ag.convert(f)(np.int64(4))


def test_two_names_of_one_array_both_written_are_refused():
    def f(n):
        t = np.zeros(3)
        u = t
        for i in range(n):
            u += 1
            t += 1
        return u + t
    with pytest.raises(ag.TracingError, match=r"'u'.*'t' shares its memory"):
        ag.convert(f)(np.int64(3))


def test_copy_is_not_an_alias():
    def f(n):
        t = np.zeros(3)
        u = t.copy()
        for i in range(n):
            t += 1
        return u + t
    for n in [0, 3]:
        np.testing.assert_array_equal(ag.convert(f)(np.int64(n)), f(np.int64(n)))


def test_array_made_in_the_function_is_not_changed_by_tracing():
    made = []

    def f(n):
        t = np.zeros(3)
        made.append(t)
        for i in range(n):
            t += 1
        return t
    ag.convert(f)(np.int64(4))
    np.testing.assert_array_equal(made[0], np.zeros(3))
    assert made[0].flags.writeable


def test_in_place_cast_error_inside_staged_block_is_numpys():
    def f(n):
        t = np.zeros(3, np.int32)
        for i in range(n):
            t += 1.5
        return t
    with pytest.raises(TypeError) as eager:
        f(np.int64(2))
    with pytest.raises(type(eager.value)):
        ag.convert(f)(np.int64(2))


def test_array_written_by_a_called_function_in_a_staged_block_is_refused():
    def f(n):
        t = np.zeros(2)

        def g():
            t.fill(3.0)
        if n > 1:
            g()
        return t
    with pytest.raises(ag.TracingError, match=r"outside an `if` or loop.*'t'.*written in place"):
        ag.convert(f)(np.int64(3))


def test_list_sorted_in_staged_loop_matches_eager():
    def f(n):
        xs = [3, 1, 2]
        for i in range(n):
            xs.sort()
        return np.array(xs)
    converted = ag.convert(f)
    for n in [0, 2]:
        np.testing.assert_array_equal(converted(np.int64(n)), f(np.int64(n)))


def in_place_or_raise(x):
    out = np.zeros(3)
    if x > 0:
        out += x
    else:
        raise ValueError("x must be positive")
    return out


def test_an_error_in_the_branch_not_taken_is_deferred_while_a_local_array_is_written():
    """The in-place probe's read-only writes reach it; the branch's own error is staged."""
    f = ag.convert(in_place_or_raise)
    np.testing.assert_array_equal(f(np.float64(2.0)), in_place_or_raise(np.float64(2.0)))
    with pytest.raises(ValueError, match="x must be positive"):
        f(np.float64(-1.0))
    assert f.trace_count == 1


def add_300(a):
    a += np.int64(300)
    return a


@pytest.mark.parametrize("arg", [np.array(1, np.int8), np.int8(1)], ids=["0-d array", "scalar"])
def test_op_assign_casts_a_0d_array_and_promotes_a_scalar(arg):
    """They share dtype and shape, but not a graph: the array keeps int8 (45), the scalar
    becomes int64 (301), as eager NumPy does."""
    f = ag.convert(add_300)
    eager = add_300(arg.copy() if isinstance(arg, np.ndarray) else arg)
    graph = f(arg)
    assert graph.dtype == eager.dtype and graph == eager


def test_a_0d_array_and_a_scalar_of_one_dtype_trace_apart():
    f = ag.convert(add_300)
    assert f(np.array(1, np.int8)) == 45 and f(np.int8(1)) == 301
    assert f.trace_count == 2


def test_op_assign_on_a_0d_array_keeps_numpys_cast_error():
    def f(a):
        a += 0.5
        return a
    with pytest.raises(TypeError, match="Cannot cast"):
        ag.convert(f)(np.array(3))
