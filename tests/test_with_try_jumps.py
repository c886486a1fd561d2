"""`return`, `break` and `continue` inside `with` and `try` keep Python's meaning.

Each function runs eagerly (the oracle) and converted, on Python ints (the
converted `if`s and loops run as Python) and on NumPy integers (they are staged
into the graph); the values, and the order in which context managers are entered
and exited, must agree. What cannot keep Python's meaning is refused.
"""
import contextlib
import warnings

import numpy as np
import pytest

import autograph as ag
from autograph.pyct.errors import ConversionError

LOG = []


class Logged:
    """A context manager of the user's own, which records when it is entered and left."""

    def __init__(self, tag):
        self.tag = tag

    def __enter__(self):
        LOG.append(("enter", self.tag))
        return self

    def __exit__(self, *exc):
        LOG.append(("exit", self.tag))
        return False


def return_in_with_if(x):  # issue #12: converted returned x - 1
    with contextlib.nullcontext():
        if x > 0:
            return x * 2
    return x - 1


def return_in_errstate_loop(x):
    y = x
    with np.errstate(all="ignore"):
        j = 0
        while j < x:
            j = j + 1
            y = y + 2
            if y > 6:
                return y
    return y - 1


def break_in_with_in_loop(x):
    y = 0
    for i in range(5):
        with Logged(i):
            y = y + i
            if y > x:
                break
        y = y * 2
    return y


def continue_in_with_in_staged_loop(x):
    y, j = 0, 0
    while j < x:
        j = j + 1
        with contextlib.nullcontext():
            if j % 2 == 0:
                continue
            y = y + j
    return y


def return_in_with_after_branch(x):  # a return flag set in a staged `if`, read after it
    y = x
    if x > 2:
        with Logged(0):
            return y + 1
    with Logged(1):
        y = y * 2
        return y + 7
    return y - 1


def return_in_try_else(x):  # `else` runs only when the body did not return
    y = x
    try:
        return y + 1
    except ZeroDivisionError:
        y = y - 100
    else:
        LOG.append(("else", 0))
        y = y + 7
    return y


def return_raising_in_try(x):  # the value raises: the handler and what follows run
    y = x
    try:
        return y + 10 // (x - 1)
    except ZeroDivisionError:
        y = y - 100
    return y - 1


def return_raising_in_suppress(x):  # the manager swallows the exception
    y = x
    with contextlib.suppress(ZeroDivisionError):
        y = y * 2
        return y + 10 // x
    return y - 1


def return_in_try_finally(x):  # `finally` runs after the value is taken
    y = x
    for i in range(3):
        try:
            if_ = y + i
            return if_
        finally:
            LOG.append(("finally", i))
            y = y * 3
    return y


def break_and_continue_in_try(x):
    y = 0
    for i in range(6):
        try:
            y = y + 10 // (x - i)
            continue
        except ZeroDivisionError:
            y = y - 100
            break
        finally:
            y = y + 1
    return y


def suppress_read_after(x):  # a flag set in a `with` body that stopped early is read after it
    y = x
    if x > 2:
        y = y + 1
    with np.errstate(all="ignore"):
        with contextlib.suppress(ZeroDivisionError):
            y = y * 2
            return y + 10 // x
        with Logged(7):
            return y + 7
    return y - 1


FUNCTIONS = [return_in_with_if, return_in_errstate_loop, break_in_with_in_loop,
             continue_in_with_in_staged_loop, return_in_with_after_branch, return_in_try_else,
             return_raising_in_try, return_raising_in_suppress, return_in_try_finally,
             break_and_continue_in_try, suppress_read_after]
STAGED = [return_in_with_if, return_in_errstate_loop, break_in_with_in_loop,
          continue_in_with_in_staged_loop, return_in_with_after_branch, return_in_try_else,
          suppress_read_after]


def _run(fn, x):
    LOG.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", ag.RetracingWarning)
        try:
            result = fn(x)
        except Exception as error:  # the same exception type must come back
            return type(error), list(LOG)
    return int(np.asarray(result)), list(LOG)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
@pytest.mark.parametrize("x", [-3, 0, 1, 2, 5])
def test_python_values(fn, x):
    assert _run(ag.convert(fn), x) == _run(fn, x)


@pytest.mark.parametrize("fn", STAGED, ids=lambda fn: fn.__name__)
@pytest.mark.parametrize("x", [-3, 0, 1, 2, 5])
def test_staged_values(fn, x):
    assert _run(ag.convert(fn), np.int64(x))[0] == _run(fn, np.int64(x))[0]


def return_in_finally(x):
    try:
        y = 10 // x
    finally:
        return -1


def continue_in_finally(x):
    y = 0
    for i in range(3):
        try:
            y += 10 // (x - i)
        finally:
            continue
    return y


@pytest.mark.parametrize("fn, try_line", [(return_in_finally, 1), (continue_in_finally, 3)],
                         ids=["return", "continue"])
def test_jump_in_finally_is_refused(fn, try_line):
    """Python drops the exception in flight there; flags cannot, so it is refused."""
    with pytest.raises(ConversionError, match="in `finally`") as info:
        ag.convert(fn)(0)
    assert f"test_with_try_jumps.py:{fn.__code__.co_firstlineno + try_line}" in str(info.value)


def suppress_around_loop(x):
    y = 0
    with contextlib.suppress(ZeroDivisionError):
        for i in range(3):
            y = y + 10 // (x - i)
    return y


def try_around_jump_guard(x):
    y = x
    try:
        with contextlib.suppress(ZeroDivisionError):
            return 10 // x
        y = 1  # runs under `if not do_return:`, whose function the exception below leaves
        y = y + 10 // (x * 0)
    except ZeroDivisionError:
        y = y - 100
    return y


def try_around_handler_jump_guard(x):
    y = x
    try:
        try:
            y = 10 // x
        except ZeroDivisionError:
            return -5
        y = 1  # runs under `if not do_return:` too
        y = y + 10 // (x - 1)
    except ZeroDivisionError:
        y = y - 100
    return y


@pytest.mark.parametrize("fn", [try_around_jump_guard, try_around_handler_jump_guard],
                         ids=lambda fn: fn.__name__)
@pytest.mark.parametrize("x", [-3, 0, 1, 2, 5])
def test_exception_out_of_converted_control_flow_is_caught(fn, x):
    """A handler around converted control flow sees the values the converted `if` (the
    guard of a lowered `return`) had bound when the exception left it, as in Python."""
    assert _run(ag.convert(fn), x) == _run(fn, x)


@pytest.mark.parametrize("x", [-3, 0, 1, 2, 5])
def test_suppress_around_converted_control_flow_keeps_the_values_at_the_raise(x):
    """`contextlib.suppress` is a `try` whose handler passes: the assignments the loop
    made before the exception stand, as in Python, with x a Python or a traced value."""
    assert _run(ag.convert(suppress_around_loop), x) == _run(suppress_around_loop, x)
    assert _run(ag.convert(suppress_around_loop), np.int64(x)) == \
        _run(suppress_around_loop, np.int64(x))


def suppress_and_open(x, path):
    y = 0
    with contextlib.suppress(ZeroDivisionError), open(path) as f:
        for i in range(3):
            y = y + 10 // (x - i)
    return y, f.closed


@pytest.mark.parametrize("x", [-3, 0, 1, 2, 5])
def test_suppress_with_another_manager_around_control_flow_keeps_the_values_at_the_raise(x):
    """A `with` of several managers is the `with`s of each nested: the `suppress` a `try`
    around the other, whose loop's assignments before the exception stand."""
    path = __file__
    for value in (x, np.int64(x)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # np.int64 // 0, as eagerly
            got = ag.convert(suppress_and_open)(value, path)
            assert (int(got[0]), bool(got[1])) == suppress_and_open(value, path)


def test_to_code_threads_the_flag_through_the_with_body():
    code = ag.to_code(ag.convert(return_in_with_if))
    assert "retval_, do_return = ag__.if_stmt(x > 0" in code


def loop_in_try_that_may_not_run(x, n):
    total = 0.0
    try:
        for i in range(n):       # staged; `i` stays unbound where it runs no trip
            total = total + x[1]
    except ValueError:
        total = -1.0
    return total                 # `i` is never read


def test_a_loop_in_try_that_runs_no_trip_leaves_its_variable_unread():
    x = np.array([1.0, 2.0, 3.0])
    assert ag.convert(loop_in_try_that_may_not_run)(x, np.int64(0)) == \
        loop_in_try_that_may_not_run(x, np.int64(0))
