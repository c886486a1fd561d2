"""Exceptions around and inside converted code, against the eager oracle (issue #12).

- `try`/`except`/`finally` around converted control flow: where it runs as
  Python the handler sees the values Python would; where it stages, errors
  raised while tracing are caught while tracing; an `except` that would have to
  catch an error raised inside the running graph is refused at the user's line.
- `raise` under a staged `if` raises an exception equal to eager's when the
  graph runs that branch, never while tracing.

Functions with a staged `if` run through ONE trace for several value sets.
PYTEST_DONT_REWRITE: the eager `assert`s must keep Python's own messages.
"""
import warnings

import numpy as np
import pytest

import autograph as ag
from autograph_runtime import TracingError

LOG = []


def _outcome(fn, *args):
    """What a call gives: its value, or its exception's type, args and attributes."""
    LOG.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            result = fn(*args)
        except Exception as error:  # noqa: BLE001 - compared with eager's
            attributes = {k: v for k, v in vars(error).items() if not k.startswith("__")}
            return type(error), error.args, attributes, list(LOG)
    return np.asarray(result).tolist(), list(LOG)


# -- try around converted control flow, run as Python ------------------------------

def handler_reads_branch_value(x):
    y = 0
    try:
        if x > 0:
            y = 5
            y = y + 10 // (x - 1)  # raises after the branch bound y
        else:
            y = 7
    except ZeroDivisionError:
        y = y + 100
    return y


def handler_reads_loop_state(x):
    total, i = 0, 0
    try:
        for i in range(6):
            total = total + 10 // (x - i)
    except ZeroDivisionError:
        total = total * 1000 + i
    return total


def handler_reads_while_state(x):
    n, steps = x, 0
    try:
        while n > 1:  # x up to 13: n falls each step, or n == 3 divides by zero
            steps = steps + 1
            n = n // 2 if n % 2 == 0 else n - 10 // (n - 3)
    except ZeroDivisionError:
        steps = -steps
    return steps * 100 + n


def nested_branches_in_try(x):
    a, b = 1, 2
    try:
        if x > 0:
            a = 10
            if x > 2:
                b = 20
                b = b // (x - 3)
            a = a // (x - 1)
    except ZeroDivisionError as error:
        LOG.append(str(error))
        a, b = a + 1, b + 1
    return a * 1000 + b


def finally_reads_branch_value(x):
    y = 1
    try:
        try:
            if x > 0:
                y = 3
                y = y // (x - 2)
        finally:
            LOG.append(y)
    except ZeroDivisionError:
        y = -1
    return y


def callee_raises(x):
    if x > 1:
        x = x * 10
        raise KeyError(x)
    return x


def caller_catches(x):  # the callee's locals never leak into the caller's names
    x = x + 1
    try:
        if x > 0:
            x = callee_raises(x)
    except KeyError as error:
        x = x + error.args[0]
    return x


PYTHON_FUNCTIONS = [handler_reads_branch_value, handler_reads_loop_state,
                    handler_reads_while_state, nested_branches_in_try,
                    finally_reads_branch_value, caller_catches]


@pytest.mark.parametrize("fn", PYTHON_FUNCTIONS, ids=lambda fn: fn.__name__)
@pytest.mark.parametrize("x", [-2, 0, 1, 2, 3, 4, 9])
def test_try_around_python_control_flow(fn, x):
    assert _outcome(ag.convert(fn), x) == _outcome(fn, x)


# -- try around staged control flow -------------------------------------------------

def reshape_after_staged_if(x):  # the error is raised while tracing, at every call
    try:
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        y = y.reshape(4)
    except ValueError:
        y = y + 100
    return y


def staged_if_in_handler(x):
    try:
        y = x.reshape(4)
    except ValueError:
        if x.sum() > 0:
            y = x * 2
        else:
            y = -x
    return y


@pytest.mark.parametrize("fn", [reshape_after_staged_if, staged_if_in_handler],
                         ids=lambda fn: fn.__name__)
def test_errors_raised_while_tracing_are_caught_while_tracing(fn):
    converted = ag.convert(fn)
    for x in ([1, 2, 3], [-1, -2, -3], [0, 0, 0]):
        x = np.array(x)
        assert _outcome(converted, x) == _outcome(fn, x)
    assert converted.trace_count == 1


def staged_assert_not_caught(x):  # the handler catches another type: nothing to refuse
    try:
        assert x > 0, "x must be positive"
        y = x * 2
    except KeyError:
        y = x
    return y


def test_staged_error_of_a_type_no_handler_catches_is_raised_by_the_graph():
    converted = ag.convert(staged_assert_not_caught)
    for x in (3, -3, 5):
        assert _outcome(converted, np.int64(x)) == _outcome(staged_assert_not_caught, np.int64(x))
    assert converted.trace_count == 1


def raise_in_staged_branch_caught(x):
    try:
        if x > 0:
            raise ValueError("positive")
        y = x
    except ValueError:
        y = -x
    return y


def deferred_error_of_callee(x):
    try:
        return callee_raises(x)
    except KeyError:
        return -1


def staged_assert_caught(x):
    try:
        assert x > 0, "x must be positive"
        y = x
    except Exception:  # noqa: BLE001
        y = -1
    return y


def staged_loop_error_caught(x):
    i = 0
    try:
        while i < x:
            i = i + 1
            if i > 3:
                raise OverflowError("too many")
    except OverflowError:
        i = -1
    return i


@pytest.mark.parametrize("fn", [raise_in_staged_branch_caught, staged_assert_caught,
                                staged_loop_error_caught], ids=["raise", "assert", "loop"])
def test_an_except_that_catches_an_error_of_the_running_graph_runs_as_python(fn):
    """The handler catches a type the graph may raise: the statement runs as Python when
    the graph runs (operators/staged_tries.py), so the handler runs when the branch does."""
    converted = ag.convert(fn)
    for x in (-3, 2, 5):
        assert _outcome(converted, np.int64(x)) == _outcome(fn, np.int64(x))
    assert converted.trace_count == 1


@pytest.mark.parametrize("fn, raise_line, except_line", [
    (deferred_error_of_callee, None, 3),
], ids=["callee"])
def test_an_except_that_would_catch_an_error_of_the_running_graph_is_refused(
        fn, raise_line, except_line):
    """A handler of a type no kernel raises (`KeyError`) keeps the statement traced as
    it is: the graph cannot run the handler, refused."""
    for x in (-3, 5):  # the oracle: Python values run as Python
        assert _outcome(ag.convert(fn), x) == _outcome(fn, x)
    with pytest.raises(TracingError, match="raised inside the running graph") as info:
        ag.convert(fn)(np.int64(2))
    first = fn.__code__.co_firstlineno
    assert f"test_staged_exceptions.py:{first + except_line}" in str(info.value)
    if raise_line is not None:
        assert f"test_staged_exceptions.py:{first + raise_line}" in str(info.value)


def test_the_projects_errors_pass_a_users_except_exception():
    def f(x):
        try:
            if x > 0:
                y = x
            else:
                y = x.astype(np.float32)  # a dtype the other branch does not have
        except Exception:  # noqa: BLE001 - eagerly it never runs
            y = x * 0
        return y
    with pytest.raises(TracingError, match="dtype"):
        ag.convert(f)(np.int64(1))


# -- raise under a staged `if` ------------------------------------------------------

class BadValue(Exception):
    def __init__(self, value):
        super().__init__(f"bad value {value}")
        self.value = value


def raises_by_branch(x):
    if x > 5:
        raise KeyError(3)
    if x < -5:
        raise BadValue(7)
    if x == 0:
        raise ValueError("zero", 2)
    if x == 1:
        raise IndexError
    return x * 2


def test_staged_raise_is_eagers_exception():
    converted = ag.convert(raises_by_branch)
    for x in (6, -6, 0, 1, 3, 6):
        assert _outcome(converted, np.int64(x)) == _outcome(raises_by_branch, np.int64(x))
    assert converted.trace_count == 1


COUNT = ag.Variable(np.int64(0), name="count")


def raise_then_error_while_tracing(x):
    COUNT.assign_add(1)
    if x.sum() > 0:
        raise KeyError("positive", 1)
    return x + np.ones(4)          # NumPy's broadcast error, while tracing


def test_an_error_raised_while_tracing_after_a_staged_raise_waits_for_it():
    # eagerly the staged raise comes first where its branch runs; the error after it
    # is raised when the graph reaches it, after the effects before it, as eagerly
    converted = ag.convert(raise_then_error_while_tracing)
    for x in (np.ones(3), -np.ones(3), np.ones(3)):
        before = COUNT.numpy()
        expected = _outcome(raise_then_error_while_tracing, x)
        assert COUNT.numpy() == before + 1
        assert _outcome(converted, x) == expected
        assert COUNT.numpy() == before + 2
    assert converted.trace_count == 1


# -- a variable bound in one branch of a staged `if` --------------------------------

def read_after_branch(x):
    if x > 0:
        y = x * 2
    return y + 1


def read_under_same_test(x):  # never read unbound: never raises
    if x > 0:
        y = x * 2
    if x > 1:
        return y
    return x


def rebound_in_later_branch(x):
    if x > 0:
        y = x * 2
    if x > 5:
        y = y + 1
    elif x < -5:
        y = x
    return y


def returned_unbound(x):
    if x > 0:
        y = x
    return y


def try_finally_after_staged_return(x):
    try:
        if x > 0:
            return x
        y = x * 2
    finally:
        z = x + 1  # noqa: F841 - (a Python side effect here would run while tracing only)
    return y


def python_number_in_one_branch(x):
    if x > 0:
        y = 1          # a Python number (not traced): the graph returned 1 for x <= 0 too
    return y


def numpy_scalar_in_one_branch(x):
    if x > 0:
        y = np.float32(2.5)
    return y * 2


@pytest.mark.parametrize("fn", [read_after_branch, read_under_same_test, rebound_in_later_branch,
                                returned_unbound, try_finally_after_staged_return,
                                python_number_in_one_branch, numpy_scalar_in_one_branch],
                         ids=lambda fn: fn.__name__)
def test_unbound_in_one_branch_raises_in_the_graph_when_read(fn):
    """Eagerly `UnboundLocalError` is raised only where the other branch ran and the
    variable is read; the graph does the same, for every value, from one trace."""
    converted = ag.convert(fn)
    for x in (3, -1, 1, 7, -7, 0):
        assert _outcome(converted, np.int64(x)) == _outcome(fn, np.int64(x))
    assert converted.trace_count == 1


def test_a_python_object_bound_in_one_branch_is_refused():
    def f(x):
        if x > 0:
            y = [1]
        return y
    with pytest.raises(TracingError, match="'y' is bound only in one branch.*list"):
        ag.convert(f)(np.int64(1))


def test_unbound_read_inside_a_try_that_catches_it_is_refused():
    def f(x):
        if x > 0:
            y = x
        try:
            z = y + 1
        except UnboundLocalError:
            z = 0
        return z
    with pytest.raises(TracingError, match="UnboundLocalError.*running graph"):
        ag.convert(f)(np.int64(1))


# -- np.errstate at run time ---------------------------------------------------------

def divide_raises(x):
    with np.errstate(divide="raise"):
        y = 1.0 / x
    return y + 1


def staged_branches_raise(x):
    with np.errstate(all="raise"):
        if x.sum() > 0:
            y = np.log(x)
        else:
            y = np.sqrt(x)
    return y * 2


def ignored_inside_raise_outside(x):
    with np.errstate(all="raise"):
        with np.errstate(divide="ignore"):
            y = 1.0 / x
        z = np.sqrt(x)
    return y + z


@pytest.mark.parametrize("fn, values", [
    (divide_raises, [2.0, 0.0, -4.0]),
    (staged_branches_raise, [[1.0, 2.0], [-1.0, -2.0], [-1.0, 0.0]]),
    (ignored_inside_raise_outside, [[1.0, 4.0], [0.0, 4.0], [-1.0, 4.0]]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_errstate_is_honoured_by_the_graph(fn, values):
    """Eagerly `FloatingPointError`; the graph (one trace) raises it too, never merely warns."""
    converted = ag.convert(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for x in values:
            x = np.asarray(x, dtype=np.float64)
            assert _outcome(converted, x) == _outcome(fn, x)
    assert converted.trace_count == 1


def test_errstate_keeps_gradients_and_saving(tmp_path):
    converted = ag.convert(divide_raises)
    assert ag.grad(converted)(np.float64(2.0)) == pytest.approx(-0.25)
    ag.save(converted, tmp_path / "saved", ag.TensorSpec((), np.float64))
    loaded = ag.load(tmp_path / "saved")
    assert loaded(np.float64(4.0)) == pytest.approx(1.25)
    with pytest.raises(FloatingPointError):
        loaded(np.float64(0.0))


@ag.convert
def _graph_callee(y):
    return y * 3


def passed_to_graph_function(x):
    if x > 0:
        y = x
    return _graph_callee(y)


def test_passing_a_variable_unbound_in_one_branch_to_a_graph_function_reads_it():
    converted = ag.convert(passed_to_graph_function)
    for x in (2, -2):
        assert _outcome(converted, np.int64(x)) == _outcome(passed_to_graph_function, np.int64(x))


def test_a_staged_loop_that_would_carry_it_is_refused():
    def f(x, n):
        if x > 0:
            y = x
        i = 0
        while i < n:
            y = y + 1
            i += 1
        return y
    with pytest.raises(TracingError, match="'y' is bound only in one branch.*staged loop"):
        ag.convert(f)(np.int64(1), np.int64(3))


def test_staged_raise_names_the_raise_line():
    converted = ag.convert(raises_by_branch)
    with pytest.raises(KeyError) as info:
        converted(np.int64(9))
    line = raises_by_branch.__code__.co_firstlineno + 2
    assert any(f"test_staged_exceptions.py:{line} " in note for note in info.value.__notes__)


@ag.convert
def _graph_raising(x):
    if x > 1:
        raise KeyError(int(7))
    return x


def graph_function_in_try(x):
    try:
        return _graph_raising(x)
    except KeyError:
        return -1


def test_a_graph_functions_staged_raise_traced_before_is_refused_in_a_try():
    assert _graph_raising(np.int64(0)) == 0  # its graph is traced here, outside any `try`
    for x in (-3, 5):
        assert _outcome(ag.convert(graph_function_in_try), x) == _outcome(graph_function_in_try, x)
    with pytest.raises(TracingError, match="KeyError.*running graph"):
        ag.convert(graph_function_in_try)(np.int64(2))
