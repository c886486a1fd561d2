"""Arguments a graph function writes in place are written back to the caller's arrays.

Each case runs the function eagerly on copies of the inputs (the oracle) and
as a graph, and compares the results and the arguments after each call.
"""
import json

import numpy as np
import pytest

import autograph as ag
from autograph_runtime import TracingError


def copies(args):
    return [{k: v.copy() for k, v in a.items()} if isinstance(a, dict)
            else [v.copy() for v in a] if isinstance(a, list)
            else a.copy() if isinstance(a, np.ndarray) else a for a in args]


def assert_same(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            assert_same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    else:
        assert np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_array_equal(a, b)


def check(fn, *args, calls=2):
    """`fn` eagerly and converted, on the same inputs `calls` times: results and arguments."""
    graph_fn = ag.convert(fn)
    for _ in range(calls):
        eager_args, graph_args = copies(args), copies(args)
        expected = fn(*eager_args)
        got = graph_fn(*graph_args)
        assert_same(expected, got)
        assert_same(eager_args, graph_args)
    return graph_fn


def add_one(x):
    x += 1
    return x.sum()


def test_in_place_operator_writes_the_callers_array():
    a = np.ones(3)
    f = ag.convert(add_one)
    assert f(a) == 6.0
    np.testing.assert_array_equal(a, [2.0, 2.0, 2.0])
    f(a)                                   # the short path writes back too
    np.testing.assert_array_equal(a, [3.0, 3.0, 3.0])
    assert f.trace_count == 1
    assert f.get_concrete_function(a).writes_arguments == {0: 1}


def test_the_write_happens_when_the_result_is_discarded():
    a = np.zeros(2, np.int32)
    ag.convert(add_one)(a)
    np.testing.assert_array_equal(a, [1, 1])
    assert a.dtype == np.int32


@pytest.mark.parametrize("fn", [
    lambda x: x.fill(7.0),
    lambda x: x.sort(),
    lambda x: np.add(x, 1, out=x),
    lambda x: [np.multiply(x, x, out=x)] and None,
], ids=["fill", "sort", "out", "out-discarded"])
def test_in_place_methods_and_out(fn):
    def f(x):
        fn(x)
        return x * 2
    check(f, np.array([3.0, 1.0, 2.0]))


def test_only_written_arguments_are_outputs():
    def f(x, y):
        y *= x
        return x.sum()
    f_graph = check(f, np.arange(3.0), np.full(3, 2.0))
    concrete = f_graph.get_concrete_function(np.arange(3.0), np.ones(3))
    assert concrete.writes_arguments == {1: 1}


def test_functions_that_write_nothing_keep_the_compiled_graph_as_their_short_path():
    f = ag.convert(lambda x: x + 1)
    a = np.ones(3)
    f(a)
    concrete = f.get_concrete_function(a)
    assert concrete.writes_arguments == {}
    assert concrete.fast_call is concrete._fn


def test_zero_d_arrays_are_written_and_numpy_scalars_rebind():
    def f(x):
        x += 1
        return x * 2
    check(f, np.array(3.0))
    check(f, np.float64(3.0))


def test_arrays_in_argument_pytrees():
    def f(params, grads, lr):
        for k in ["w", "b"]:
            p = params[k]
            p -= lr * grads[k]
        grads["w"].fill(0.0)
        return params["w"].sum()
    check(f, {"w": np.ones(3), "b": np.ones(1)}, {"w": np.full(3, 0.5), "b": np.ones(1)},
          np.float64(0.1))

    def g(xs):
        y = xs[1]
        y *= 3
        return len(xs)
    check(g, [np.ones(2), np.ones(2)])


def test_augmented_item_writes_on_containers_write_the_array_in_place():
    def f(d, xs):
        d["w"] += 1
        xs[0] *= 2
        return d["w"].sum() + xs[0].sum()
    check(f, {"w": np.ones(3)}, [np.full(2, 3.0)])


def test_an_argument_returned_after_it_is_written():
    def f(x):
        x += 1
        return x
    a = np.ones(2)
    out = ag.convert(f)(a)
    np.testing.assert_array_equal(a, [2.0, 2.0])
    np.testing.assert_array_equal(out, [2.0, 2.0])


def test_a_view_passed_as_the_argument_writes_its_base():
    a = np.zeros(5)
    f = ag.convert(add_one)
    f(a[1:])
    f(a[::2][:2])                # a view of another shape: a second trace
    np.testing.assert_array_equal(a, [1.0, 1.0, 2.0, 1.0, 1.0])


def test_read_only_arrays_raise_numpys_error():
    a = np.ones(3)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        add_one(a)               # eager
    with pytest.raises(ValueError, match="output array is read-only"):
        ag.convert(add_one)(a)
    np.testing.assert_array_equal(a, [1.0, 1.0, 1.0])


def test_reading_a_read_only_array_is_fine():
    a = np.ones(3)
    a.flags.writeable = False
    assert ag.convert(lambda x: x.sum())(a) == 3.0


def test_a_written_argument_that_aliases_another_is_refused_not_wrong():
    def mut2(x, y):
        x += 1
        return y.sum()
    a = np.ones(3)
    assert mut2(a.copy(), a.copy()) == 3.0 and mut2(a.copy(), a) == 3.0
    b = a.copy()
    assert mut2(b, b) == 6.0                                     # eager sees the alias
    f = ag.convert(mut2)
    assert f(np.ones(3), np.ones(3)) == 3.0
    for y in [a, a[:2], a.reshape(3, 1)[:, 0]]:
        with pytest.raises(TracingError, match="'y' shares its memory"):
            f(a, y) if y.shape == a.shape else ag.convert(mut2)(a, y)
    np.testing.assert_array_equal(a, [1.0, 1.0, 1.0])
    b = np.arange(4.0)
    assert ag.convert(mut2)(b[:2], b[2:]) == 5.0     # disjoint views of one array
    np.testing.assert_array_equal(b, [1.0, 2.0, 2.0, 3.0])


def test_staged_loop_writes_the_argument():
    def loop(x, n):
        for i in range(n):
            x += 1
        return x.sum()
    check(loop, np.ones(3), np.int64(3))

    def while_loop(x, n):
        while n > 0:
            x *= 2
            n -= 1
        return n
    check(while_loop, np.ones(2), np.int64(4))


def test_staged_if_writes_the_argument():
    def branch(x):
        if x.sum() > 0:
            x *= 2
        return 0
    check(branch, np.ones(3))
    check(branch, -np.ones(3))


def test_a_loop_that_writes_the_argument_then_rebinds_it_writes_it_once():
    def f(x, n):
        for i in range(n):
            x *= 0.5
            x = np.copy(x)
        return x
    for n in [0, 1, 3]:
        check(f, np.ones(2), np.int64(n))


def test_a_name_bound_to_the_argument_before_a_staged_loop_sees_the_write():
    def loop(x, n):
        y = x
        for i in range(n):
            x += 1
        return y.sum()
    check(loop, np.ones(3), np.int64(3))


def test_nested_staged_blocks():
    def f(x, n):
        for i in range(n):
            if x[0] < 3:
                x += 1
        return x
    check(f, np.zeros(2), np.int64(5))


def test_written_in_one_branch_and_rebound_in_the_other():
    def f(x):
        if x.sum() > 0:
            x += 1
        else:
            x = x * 2
        return x
    check(f, np.ones(2))
    check(f, -np.ones(2))

    def g(x, y):
        if x.sum() > 0:
            x = np.copy(x)
            x += 1
        else:
            x *= 0.5
        return x + y
    check(g, np.ones(2), np.ones(2))
    check(g, -np.ones(2), np.ones(2))


def test_a_graph_function_calling_one_that_writes_its_argument():
    inner = ag.convert(add_one)

    def outer(x):
        s = inner(x)
        return s + x.sum()
    check(outer, np.ones(3))


def test_saved_functions_keep_the_write_back(tmp_path):
    f = ag.convert(add_one)
    ag.save(f, tmp_path / "f", np.ones(3))
    document = json.loads((tmp_path / "f" / "function.json").read_text())
    assert document["signatures"][0]["writes"] == [0]
    loaded = ag.load(tmp_path / "f")
    a = np.ones(3)
    assert loaded(a) == 6.0
    np.testing.assert_array_equal(a, [2.0, 2.0, 2.0])


def test_grad_differentiates_the_value_passed_and_leaves_the_argument():
    def f(x):
        x *= 3
        return (x * x).sum()
    a = np.array([1.0, 2.0])
    np.testing.assert_allclose(ag.grad(f)(a), 18 * np.array([1.0, 2.0]))
    np.testing.assert_array_equal(a, [1.0, 2.0])


def test_the_equivalence_check_compares_arguments():
    from autograph.testing import assert_graph_equivalent
    from autograph.testing.equivalence import Outcome, _argument_differences
    assert_graph_equivalent(add_one, np.ones(3))
    eager = Outcome(arguments=((np.full(2, 2.0), 3), {}))
    graph = Outcome(arguments=((np.ones(2), 3), {}))
    problems = _argument_differences(eager, graph, 1e-6, 0.0)
    assert problems == ["args[0] after the call: eager left [2. 2.]  (float64[2]), "
                        "the graph [1. 1.]  (float64[2])"]


def test_a_writing_graph_function_called_in_a_staged_loop():
    inner = ag.convert(add_one)

    def outer(x, n):             # x is not state of the loop: the loop carries it
        for i in range(n):       # (runtime.views.CarryNeeded), as eager writes it
            inner(x)
        return x
    for n in (0, 1, 3):
        assert check(outer, np.ones(2), np.int64(n)).trace_count == 1

    def carried(x, n):
        for i in range(n):
            inner(x)
            x = x
        return x
    check(carried, np.ones(2), np.int64(3))


def test_a_writing_graph_function_given_a_concrete_array_while_tracing_is_refused():
    inner = ag.convert(add_one)

    def outer(x):
        t = np.zeros(2)
        inner(t)
        return x + t
    with pytest.raises(TracingError, match="writes in place its argument 0"):
        ag.convert(outer)(np.ones(2))


def test_a_branch_that_raises_beside_one_that_writes():
    def f(x, k):
        if k > 0:
            x += 1
        else:
            raise ValueError("k must be positive")
        return x.sum()
    check(f, np.ones(2), np.int64(1))
    a = np.ones(2)
    with pytest.raises(ValueError, match="k must be positive"):
        ag.convert(f)(a, np.int64(-1))
    np.testing.assert_array_equal(a, [1.0, 1.0])


def test_a_writing_graph_function_given_one_traced_array_twice_is_refused():
    inner = ag.convert(lambda x, y: (x.__iadd__(1), y.sum())[1])

    def outer(x):
        return inner(x, x)
    with pytest.raises(TracingError, match="another of its arguments is the same traced array"):
        ag.convert(outer)(np.ones(2))


def test_a_loop_that_writes_an_array_then_swaps_it_with_another_is_refused():
    def f(x, y, n):
        for i in range(n):
            x += 1
            x, y = y, x
        return x - y
    with pytest.raises(TracingError, match="bound to another array of the loop's state"):
        ag.convert(f)(np.zeros(2), np.ones(2), np.int64(2))


def bump_flat(a):
    r = a.ravel()           # a view of a C array, a copy of any other
    r += 1.0
    return a.sum()


@pytest.mark.parametrize("layout", ["fortran", "transpose", "strided"])
def test_a_written_argument_not_in_c_order_is_refused_or_run_eagerly(layout):
    base = np.arange(12.0).reshape(3, 4)
    make = {"fortran": lambda: np.asfortranarray(base), "transpose": lambda: base.T.copy().T,
            "strided": lambda: base.copy()[:, ::2]}[layout]
    with pytest.raises(ag.TracingError, match="not a C-contiguous array"):
        ag.convert(bump_flat)(make())
    eager, converted = make(), make()
    with pytest.warns(ag.FallbackWarning, match="not a C-contiguous"):
        got = ag.convert(bump_flat, eager_fallback=True)(converted)
    assert got == bump_flat(eager)
    np.testing.assert_array_equal(converted, eager)   # NumPy wrote a copy: unchanged
    c_order = base.copy()                              # while a C array takes the graph
    assert ag.convert(bump_flat)(c_order) == bump_flat(base.copy()) and c_order[0, 0] == 1.0


def add_into(out, x):
    out += x[::-1]
    return out.sum()


def test_a_written_argument_sharing_memory_with_another_runs_eagerly():
    a, run = np.arange(4.0), ag.convert(add_into)
    run(a.copy(), a.copy())                       # traced for two distinct arrays
    with pytest.raises(ag.TracingError, match="shares its memory"):
        run(a, a)
    eager, converted = np.arange(4.0), np.arange(4.0)
    with pytest.warns(ag.FallbackWarning, match="shares its memory"):
        got = ag.convert(add_into, eager_fallback=True)(converted, converted)
    assert got == add_into(eager, eager)
    np.testing.assert_array_equal(converted, eager)   # NumPy's order of reads and writes
