"""What converted code refuses, and how it says so: the error type, the variable or
construct it names, and the user's `file:line`."""
import inspect
import re
import warnings

import numpy as np
import pytest
from locations import line_of

import autograph as ag
from autograph.conversion import ConversionWarning, convert_function


def names(message, word):
    return re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", message) is not None


# -- a variable bound in only one branch of a traced `if` ----------------------------------

def bound_in_if_only(x_scalar):
    if x_scalar > 0:
        doubled = x_scalar * 2
    return doubled


def bound_in_else_only(x_vec):
    if x_vec.sum() > 0:
        pass
    else:
        shifted = x_vec - 1
    return shifted


@pytest.mark.parametrize("fn, bound, unbound, name", [
    (bound_in_if_only, np.float64(1.0), np.float64(-1.0), "doubled"),
    (bound_in_else_only, -np.ones(3), np.ones(3), "shifted"),
], ids=["if", "else"])
def test_variable_bound_in_one_branch(fn, bound, unbound, name):
    """The graph raises Python's `UnboundLocalError` where the other branch ran (one trace)."""
    converted = ag.convert(fn)
    np.testing.assert_array_equal(converted(bound), fn(bound))
    with pytest.raises(UnboundLocalError) as info:
        converted(unbound)
    message = str(info.value) + "".join(getattr(info.value, "__notes__", ()))
    assert names(message, name), message
    assert line_of(fn, "return ") in message, message
    assert converted.trace_count == 1


def test_variable_bound_in_one_branch_is_fine_untraced():
    """Untraced, the converted code is Python: the path that binds it works."""
    assert convert_function(bound_in_if_only)(np.float64(1.0)) == 2.0


def last_of_first_n(x_vec, n_int):
    for i in range(n_int):
        last = x_vec[i]
    return last


@pytest.mark.parametrize("fn, args", [
    pytest.param(bound_in_if_only, (np.float64(-1.0),), id="if"),
    pytest.param(last_of_first_n, (np.ones(3), np.int64(0)), id="for"),
])
def test_unbound_variable_untraced_raises_like_python(fn, args):
    with pytest.raises(UnboundLocalError):
        fn(*args)
    with pytest.raises(UnboundLocalError):
        convert_function(fn)(*args)


def test_variable_first_bound_in_staged_loop_that_runs_zero_times():
    """As a graph, a loop that binds the variable but runs no step raises when it runs."""
    g = ag.convert(last_of_first_n)
    assert g(np.array([1.0, 2.0, 3.0]), np.int64(2)) == 2.0
    with pytest.raises(UnboundLocalError):
        g(np.array([1.0, 2.0, 3.0]), np.int64(0))
    assert g.trace_count == 1


# -- a loop variable that changes dtype in a staged loop ------------------------------------

def int_accumulator_turns_float(n_int):
    acc = np.int64(1)
    for i in range(n_int):
        acc = acc * 0.5
    return acc


def float32_turns_float64_in_while(x_scalar32):
    while x_scalar32 < 100:
        x_scalar32 = x_scalar32 * np.float64(3.0)
    return x_scalar32


@pytest.mark.parametrize("fn, args, name, before, after", [
    (int_accumulator_turns_float, (np.int64(3),), "acc", "int64", "float64"),
    (float32_turns_float64_in_while, (np.float32(2.0),), "x_scalar32", "float32", "float64"),
], ids=["for", "while"])
def test_loop_variable_changes_dtype(fn, args, name, before, after):
    with pytest.raises(ag.TracingError) as info:
        ag.convert(fn)(*args)
    message = str(info.value)
    assert names(message, name), message
    assert before in message and after in message, message
    assert f"{inspect.getsourcefile(fn)}:" in message, message


def test_weak_python_scalar_is_not_a_dtype_change():
    """`total = 0` then `total += 0.5`: a Python int takes the loop's float dtype."""
    def halves(n_int):
        total = 0
        i = 0
        while i < n_int:
            total = total + 0.5
            i += 1
        return total
    g = ag.convert(halves)
    assert g(np.int64(3)) == 1.5 and g(np.int64(3)).dtype == np.float64
    assert g(np.int64(0)) == 0 and g.trace_count == 1


# -- unsupported constructs -------------------------------------------------------------------

def generator_of_multiples(x_scalar):
    for i in range(3):
        yield x_scalar * i


def yield_from_generator(x_scalar):
    yield from generator_of_multiples(x_scalar)


@pytest.mark.parametrize("fn, construct, text", [
    (generator_of_multiples, "`yield`", "yield x_scalar"),
    (yield_from_generator, "`yield from`", "yield from"),
], ids=["yield", "yield-from"])
def test_generator_is_a_conversion_error(fn, construct, text):
    for convert in (lambda: ag.convert(fn)(np.float64(2.0)),
                    lambda: convert_function(fn), lambda: ag.to_code(fn)):
        with pytest.raises(ag.ConversionError) as info:
            convert()
        message = str(info.value)
        assert construct in message, message
        assert line_of(fn, text) in message, message


def copy_first_n(x_vec, n_int):
    out = np.zeros(3)
    for i in range(n_int):
        out[i] = x_vec[i]
    return out


def set_item_in_staged_branch(x_vec):
    out = np.zeros(3)
    if x_vec.sum() > 0:
        out[0] = 1.0
    return out


@pytest.mark.parametrize("fn, args", [
    (copy_first_n, (np.ones(3), np.int64(2))),
    (set_item_in_staged_branch, (np.ones(3),)),
], ids=["loop", "branch"])
def test_item_assignment_in_staged_block_stages(fn, args):
    """Once refused (issue #12): the write is a functional update carried as block state."""
    g = ag.convert(fn)
    np.testing.assert_array_equal(g(*args), fn(*args))
    other = tuple(-a if a.ndim else a + 1 for a in args)
    np.testing.assert_array_equal(g(*other), fn(*other))
    assert g.trace_count == 1


def test_item_assignment_untraced_is_python():
    """Converted but untraced, the same loop is a Python loop and writes as Python does."""
    x = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(convert_function(copy_first_n)(x, np.int64(2)),
                                  copy_first_n(x, np.int64(2)))
    np.testing.assert_array_equal(convert_function(copy_first_n)(x, 3), [1.0, 2.0, 3.0])


# -- a function whose source cannot be read ---------------------------------------------------

def _exec_function(source, name):
    namespace = {"np": np}
    exec(source, namespace)
    return namespace[name]


def test_function_defined_by_exec_is_traced_unconverted_with_one_warning():
    fn = _exec_function("def made_by_exec(x):\n    return np.tanh(x) * 2\n", "made_by_exec")
    g = ag.convert(fn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = g(np.float64(0.5))
        second = g(np.float64(-1.5))
        ag.convert(fn)(np.float64(2.0))   # another graph function of the same Python function
    conversion = [w for w in caught if issubclass(w.category, ConversionWarning)]
    assert len(conversion) == 1, [str(w.message) for w in caught]
    assert "made_by_exec" in str(conversion[0].message)
    assert first == fn(np.float64(0.5)) and second == fn(np.float64(-1.5))
    assert g.trace_count == 1


def test_function_defined_by_exec_keeps_python_control_flow():
    """Unconverted, its `if` on a traced value is not staged: TracingError, after the warning."""
    fn = _exec_function("def branchy_exec(x):\n    if x > 0:\n        return x\n    return -x\n",
                        "branchy_exec")
    with pytest.warns(ConversionWarning, match="branchy_exec"):
        with pytest.raises(ag.TracingError):
            ag.convert(fn)(np.float64(1.0))


def test_a_warning_of_a_function_decorated_but_never_called_reaches_its_first_caller():
    """`ag.convert` converts ahead only where that is quiet: the warning is not used up."""
    helper = _exec_function("def helper_exec(x):\n    return x * 3\n", "helper_exec")
    ag.convert(helper)                               # decorated, never called

    @ag.convert
    def outer(x):
        return helper(x) + 1

    with pytest.warns(ConversionWarning, match="helper_exec"):
        assert outer(np.float64(1.0)) == 4.0


# -- conversion ahead of the first call -------------------------------------------------------

def _branchy(x):
    if x > 0:
        return x * 2
    return x - 1


def test_autograph_switched_off_after_decoration_is_honoured():
    g = ag.convert(_branchy)
    assert g(np.float64(3.0)) == 6.0
    h = ag.convert(_branchy)
    h.autograph = False
    with pytest.raises(ag.TracingError):             # an `if` on a traced value, unconverted
        h(np.float64(3.0))


def test_code_replaced_after_decoration_is_converted_again():
    def body(x):
        return x * 2
    g = ag.convert(body)
    body.__code__ = (lambda x: x * 7).__code__
    np.testing.assert_array_equal(g(np.ones(2)), np.full(2, 7.0))
