"""Each message a review found wrong (issue 15, "right hints") says the right thing for
what the user wrote, and names the user's line: one test per message."""
import inspect

import numpy as np
import pytest

import autograph as ag

UNKNOWN = ag.TensorSpec((None,), np.float64)


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return f"{__file__}:{first + next(i for i, line in enumerate(lines) if text in line)}"


def error_of(fn, *specs):
    with pytest.raises(Exception) as caught:
        ag.convert(fn).get_concrete_function(*specs)
    error = caught.value
    return error, str(error), getattr(error, "__notes__", [])


# -- bool(traced) ---------------------------------------------------------------------

def positives_total(x):
    return sum([v for v in [x[0], x[-1]] if v > 0])   # a Python list filtered: not staged


@ag.do_not_convert
def relu_as_is(x):
    if x.sum() > 0:
        return x
    return -x


def calls_relu_as_is(x):
    return relu_as_is(x)


def test_bool_in_converted_code_names_what_is_not_converted():
    error, message, _ = error_of(positives_total, ag.TensorSpec((3,), np.float64))
    assert isinstance(error, ag.TracingError)
    assert f"(at {line_of(positives_total, 'return sum')} in <listcomp>)" in message or \
        f"(at {line_of(positives_total, 'return sum')} in positives_total)" in message
    assert "not the `if` of a comprehension over a Python list" in message
    assert "np.where" in message
    assert "ag.convert" not in message        # it is converted already


def test_bool_in_code_called_as_it_is_says_so():
    error, message, _ = error_of(calls_relu_as_is, ag.TensorSpec((3,), np.float64))
    assert isinstance(error, ag.TracingError)
    assert f"(at {line_of(relu_as_is, 'if x.sum()')} in relu_as_is)" in message
    assert "relu_as_is is called as it is (marked @ag.do_not_convert" in message
    assert "let autograph convert it, or write the choice with np.where" in message


# -- len(x) and x.shape[0] on an unknown dimension ---------------------------------------

def scaled_by_length(x):
    return x * len(x)


def doubled_if_long(x):
    if x.shape[0] > 1:
        return x * 2
    return x


@ag.do_not_convert
def length_as_is(x):
    return x * len(x)


@ag.do_not_convert
def shape_as_is(x):
    if x.shape[0] > 1:
        return x * 2
    return x


def calls_length_as_is(x):
    return length_as_is(x)


def calls_shape_as_is(x):
    return shape_as_is(x)


@pytest.mark.parametrize("fn", [scaled_by_length, doubled_if_long])
def test_len_and_shape_of_an_unknown_dimension_are_staged_in_converted_code(fn):
    converted = ag.convert(fn, input_signature=[UNKNOWN])
    for n in (1, 3):
        np.testing.assert_array_equal(converted(np.arange(float(n))), fn(np.arange(float(n))))
    assert converted.trace_count == 1


def test_len_of_an_unknown_dimension_as_it_is_names_ag_shape():
    error, message, _ = error_of(calls_length_as_is, UNKNOWN)
    assert isinstance(error, ag.TracingError)
    assert f"(at {line_of(length_as_is, 'len(x)')} in length_as_is)" in message
    assert message.endswith("; ag.shape(x)[0] is its size when the graph runs")
    assert "dynamic_shape" not in message and "runtime." not in message


def test_comparing_an_unknown_dimension_as_it_is_is_explained():
    error, message, notes = error_of(calls_shape_as_is, UNKNOWN)
    assert isinstance(error, TypeError) and "NoneType" in message   # Python's own error
    hint = [n for n in notes if "ag.shape(x)[0]" in n]
    assert len(hint) == 1
    assert f"is None in x.shape (at {line_of(shape_as_is, 'x.shape[0] > 1')} in shape_as_is)" \
        in hint[0]


# -- return None on one path ------------------------------------------------------------

def positive_or_none(x):
    if x.sum() > 0:
        return x
    return None


def test_return_none_on_one_path_names_that_return():
    converted = ag.convert(positive_or_none)
    converted(np.ones(2))
    with pytest.raises(TypeError) as caught:
        converted(-np.ones(2))
    message = str(caught.value)
    assert message.startswith(f"the function returns None on this path (at "
                              f"{line_of(positive_or_none, 'return None')} in positive_or_none)"
                              f" and a value on another")
    assert "NoneType as an array" not in message


# -- np.full((k,), traced) --------------------------------------------------------------

def filled_with_total(x, k):
    return np.full((k,), x.sum())


@ag.do_not_convert
def filled_as_is(x, k):
    return np.full((k,), x.sum())


def calls_filled_as_is(x, k):
    return filled_as_is(x, k)


def test_full_with_a_traced_fill_value_is_staged():
    x = np.array([1.0, 2.0])
    np.testing.assert_array_equal(ag.convert(filled_with_total)(x, 3), filled_with_total(x, 3))


def test_full_as_it_is_names_np_full_and_the_way_out():
    error, message, _ = error_of(calls_filled_as_is, ag.TensorSpec((2,), np.float64), 3)
    assert isinstance(error, ag.TracingError)
    assert f"(at {line_of(filled_as_is, 'np.full')} in filled_as_is)" in message
    assert "np.full converts its arguments with np.asarray" in message
    assert "let autograph convert it" in message and "ag.py_function" in message
    assert "use NumPy functions" not in message


# -- duplicate notes ----------------------------------------------------------------------

def picks_by_total(x):
    return [1.0, 2.0, 3.0][x.sum().astype(int)]


def test_the_location_is_said_once():
    error, message, notes = error_of(picks_by_total, ag.TensorSpec((3,), np.float64))
    where = line_of(picks_by_total, "return [1.0")
    assert f"(at {where} in picks_by_total)" in message
    assert not any(where in note for note in notes), notes
    assert len(set(notes)) == len(notes)


# -- recursion on a traced condition ------------------------------------------------------

def count_down(n):
    if n > 0:
        return count_down(n - 1) + 1
    return n


def test_recursion_on_a_traced_condition_is_explained():
    assert ag.convert(count_down)(3) == 3          # on a Python int: Python recursion
    error, message, _ = error_of(count_down, ag.TensorSpec((), np.int64))
    assert isinstance(error, ag.TracingError) and not isinstance(error, RecursionError)
    assert message.startswith("count_down recursed past Python's recursion limit while it "
                              f"was traced (at {line_of(count_down, 'return count_down')} "
                              f"in count_down)")
    assert "write it as a while loop" in message
