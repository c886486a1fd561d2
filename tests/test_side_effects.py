"""Side effects: Python ones happen while tracing only; `ag.py_function` at every run."""
import numpy as np
import pytest

import autograph as ag


def test_appending_to_an_outside_list_happens_at_trace_time_only():
    log = []

    def f(x):
        log.append(x.shape)
        return x * 2
    g = ag.convert(f)
    for _ in range(3):
        np.testing.assert_array_equal(g(np.ones(3)), np.full(3, 2.0))
    assert log == [(3,)]
    g(np.ones(4))
    assert log == [(3,), (4,)]


def test_print_of_python_values_happens_at_trace_time_only_without_autograph(capsys):
    def f(x, label):
        print("tracing", label, x.ndim)
        return x + 1
    g = ag.convert(f, autograph=False)
    g(np.zeros(2), "a")
    g(np.ones(2), "a")
    assert capsys.readouterr().out == "tracing a 1\n"
    g(np.ones(2), "b")
    assert capsys.readouterr().out == "tracing b 1\n"
    g(np.ones(2), "b")
    assert capsys.readouterr().out == ""


def test_converted_print_of_python_values_prints_at_every_call_like_eager(capsys):
    def f(x, label):
        print("calling", label, x.ndim)
        return x + 1
    g = ag.convert(f)
    for _ in range(3):
        g(np.zeros(2), "a")
    graph_output = capsys.readouterr().out
    for _ in range(3):
        f(np.zeros(2), "a")
    assert graph_output == capsys.readouterr().out == "calling a 1\n" * 3


def test_plain_python_calls_on_python_values_are_frozen():
    counter = {"n": 0}

    def next_id():
        counter["n"] += 1
        return counter["n"]

    g = ag.convert(lambda x: x * next_id())
    first = g(np.ones(2))
    second = g(np.ones(2))
    np.testing.assert_array_equal(first, second)
    assert counter["n"] == 1


# -- ag.py_function ----------------------------------------------------------------------

def test_py_function_runs_at_every_call_with_the_runtime_values():
    seen = []

    def record(a):
        assert isinstance(a, np.ndarray)
        seen.append(a.copy())
        return a * 2.5

    @ag.convert
    def f(x):
        y = ag.py_function(record, x + 1, out=ag.TensorSpec((3,), np.float32))
        return y - 1

    for k in range(3):
        x = np.full(3, k, np.float32)
        out = f(x)
        assert out.dtype == np.float32
        np.testing.assert_allclose(out, (x + 1) * 2.5 - 1)
    assert f.trace_count == 1
    assert len(seen) == 3
    np.testing.assert_array_equal(seen[2], np.full(3, 3, np.float32))


def test_py_function_casts_to_the_declared_dtype():
    @ag.convert
    def f(x):
        return ag.py_function(lambda a: a.astype(np.float64) / 3, x,
                              out=ag.TensorSpec((None,), np.float32))
    out = f(np.arange(4, dtype=np.int32))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.arange(4) / 3, rtol=1e-6)
    out = f(np.arange(2, dtype=np.int32))  # unknown dims in `out` accept any size
    np.testing.assert_allclose(out, np.arange(2) / 3, rtol=1e-6)


def test_py_function_with_python_int_results_and_structured_out():
    def stats(a, b):
        return int(a.sum()), (a * b, b.max())

    @ag.convert
    def f(a, b):
        n, (prod, top) = ag.py_function(
            stats, a, b,
            out=(ag.TensorSpec((), np.int64),
                 (ag.TensorSpec((2,), np.float64), ag.TensorSpec((), np.float64))))
        return n + 1, prod, top

    a, b = np.array([1.0, 2.0]), np.array([3.0, -4.0])
    n, prod, top = f(a, b)
    assert n.dtype == np.int64 and n == 4
    np.testing.assert_array_equal(prod, a * b)
    assert top == 3.0


def test_py_functions_run_in_program_order():
    order = []

    def tag(name):
        def fn(a):
            order.append(name)
            return a
        fn.__name__ = name
        return fn

    @ag.convert
    def f(x):
        spec = ag.TensorSpec((2,), np.float64)
        a = ag.py_function(tag("first"), x, out=spec)
        b = ag.py_function(tag("second"), x * 2, out=spec)
        c = ag.py_function(tag("third"), x * 3, out=spec)
        return c + b + a

    for _ in range(3):
        np.testing.assert_array_equal(f(np.ones(2)), np.full(2, 6.0))
    assert order == ["first", "second", "third"] * 3


def test_py_function_outside_a_graph_runs_at_once():
    out = ag.py_function(lambda a: a + 1, np.arange(3), out=ag.TensorSpec((3,), np.float32))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [1, 2, 3])


def test_py_function_wrong_output_shape_is_a_value_error_naming_the_function():
    def wrong_size(a):
        return np.ones(a.shape[0] + 1)

    @ag.convert
    def f(x):
        return ag.py_function(wrong_size, x, out=ag.TensorSpec((3,), np.float64))

    with pytest.raises(ValueError, match="wrong_size") as info:
        f(np.ones(3))
    assert any(__file__ in note for note in getattr(info.value, "__notes__", ()))
    assert f.trace_count == 1


def test_py_function_error_keeps_its_type_and_the_graph_still_works():
    def maybe_fail(a):
        if a.sum() < 0:
            raise KeyError("negative")
        return np.sqrt(a)

    @ag.convert
    def f(x):
        return ag.py_function(maybe_fail, x, out=ag.TensorSpec((2,), np.float64)) * 2

    with pytest.raises(KeyError, match="negative"):
        f(np.array([-1.0, -2.0]))
    np.testing.assert_allclose(f(np.array([4.0, 9.0])), [4.0, 6.0])
    assert f.trace_count == 1


# -- asserts in staged bodies fail only when the body runs (issue #12) -----------------

def _same_as_eager(fn, *args, message=None):
    """`ag.convert(fn)` returns what `fn` returns, or raises the same type of error
    (with text `message`: pytest rewrites this file's asserts, so eagerly they say more)."""
    try:
        expected = fn(*args)
    except Exception as e:  # noqa: BLE001 - the oracle's error is the expectation
        with pytest.raises(type(e)) as got:
            ag.convert(fn)(*args)
        assert message is None or str(got.value) == message
        return
    np.testing.assert_array_equal(ag.convert(fn)(*args), expected)


def _while_assert(n):
    i = 0
    while i < n:
        assert False
        i += 1
    return i


def _while_assert_message(n):
    i = 0
    while i < n:
        assert i > 5, "the loop ran"
        i += 1
    return i


def _for_assert(x, n):
    for _ in range(n):
        assert False, "body"
    return x


def _else_assert(x):
    if x > 0:
        y = x
    else:
        assert x.shape == (5,), f"else branch ran with {x.shape}"
        y = -x
    return y


@pytest.mark.parametrize("n", [0, 2])
def test_assert_false_in_a_staged_while_body_fails_only_if_it_runs(n):
    _same_as_eager(_while_assert, np.int64(n), message="")
    _same_as_eager(_while_assert_message, np.int64(n), message="the loop ran")


@pytest.mark.parametrize("n", [0, 3])
def test_assert_false_in_a_staged_for_body_fails_only_if_it_runs(n):
    _same_as_eager(_for_assert, np.float64(1.0), np.int64(n), message="body")


@pytest.mark.parametrize("x", [1.0, -1.0])
def test_concrete_assert_in_an_else_branch_fails_only_if_it_is_taken(x):
    _same_as_eager(_else_assert, np.float64(x), message="else branch ran with ()")


def test_staged_assert_in_a_body_is_traced_once():
    g = ag.convert(_while_assert)
    np.testing.assert_array_equal(g(np.int64(0)), 0)
    with pytest.raises(AssertionError):
        g(np.int64(1))
    assert g.trace_count == 1


def test_concrete_assert_at_the_top_level_still_fails_while_tracing():
    def f(x):
        assert x.ndim == 2, "need a matrix"
        return x
    with pytest.raises(AssertionError, match="need a matrix"):
        ag.convert(f)(np.ones(3))


def test_staged_assert_without_a_message_has_an_empty_message_as_eagerly():
    def f(x):
        assert x > 0
        return x
    _same_as_eager(f, np.float64(-1.0), message="")


# -- any error raised while tracing a staged body is raised only if the body runs -------

def _while_raise(n):
    i = 0
    while i < n:
        raise ValueError("the loop ran")
    return i


def _while_linalg(n, a):
    i = 0
    while i < n:
        a = np.linalg.inv(np.zeros((2, 2))) + a  # singular: LinAlgError when it runs
        i += 1
    return a


def _else_raise(x):
    if x > 0:
        y = x * 2
    else:
        raise KeyError("negative")
    return y


def _nested(x, n):
    i = 0
    while i < n:
        if x > 0:
            x = x - 1
        else:
            raise ZeroDivisionError("inner else")
        i += 1
    return x


@pytest.mark.parametrize("n", [0, 2])
def test_raise_in_a_staged_while_body_is_raised_only_if_it_runs(n):
    _same_as_eager(_while_raise, np.int64(n), message="the loop ran")


@pytest.mark.parametrize("n", [0, 1])
def test_linalg_error_in_a_staged_loop_body_is_raised_only_if_it_runs(n):
    _same_as_eager(_while_linalg, np.int64(n), np.ones((2, 2)), message="Singular matrix")


@pytest.mark.parametrize("x", [1.5, -1.5])
def test_raise_in_the_else_branch_of_a_staged_if_is_raised_only_if_taken(x):
    _same_as_eager(_else_raise, np.float64(x), message="'negative'")
    g = ag.convert(_else_raise)
    if x > 0:  # the same trace serves both
        with pytest.raises(KeyError):
            g(np.float64(-x))
        assert g.trace_count == 1


@pytest.mark.parametrize("x, n", [(3.0, 2), (0.5, 0), (0.5, 2)])
def test_raise_in_a_branch_inside_a_staged_loop(x, n):
    _same_as_eager(_nested, np.float64(x), np.int64(n), message="inner else")


def test_an_error_in_a_loop_condition_is_still_raised_while_tracing():
    def f(n):
        i = 0
        while i < n + {}["missing"]:
            i += 1
        return i
    with pytest.raises(KeyError):
        ag.convert(f)(np.int64(0))


def test_tracing_errors_in_a_staged_body_are_not_deferred():
    def f(x):
        if x > 0:
            y = x
        else:
            y = np.linalg.cond(x)  # not supported on traced values: a TracingError now
        return y
    with pytest.raises(ag.TracingError, match="not supported on traced values"):
        ag.convert(f)(np.ones((2, 2)).sum())


def test_gradient_through_a_branch_that_raises_only_if_taken():
    def f(x):
        if x > 0:
            y = x * x
        else:
            raise ValueError("negative")
        return y
    np.testing.assert_allclose(ag.grad(f)(np.float64(3.0)), 6.0)
    with pytest.raises(ValueError, match="negative"):
        ag.grad(f)(np.float64(-3.0))


def test_an_error_whose_type_needs_more_than_its_text_is_staged_with_its_args():
    class TwoArgs(Exception):
        def __init__(self, a, b):
            super().__init__(a, b)

    def f(x):
        if x > 0:
            y = x
        else:
            raise TwoArgs(1, 2)
        return y
    converted = ag.convert(f)
    assert converted(np.float64(1.0)) == 1.0  # the branch not taken raises nothing
    with pytest.raises(TwoArgs) as info:
        converted(np.float64(-1.0))
    assert info.value.args == (1, 2) and converted.trace_count == 1
