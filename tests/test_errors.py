"""Errors: what tracing and running report, and that the function survives them."""
import logging
import re
import warnings

import numpy as np
import pytest
from locations import line_of

import autograph as ag



def scaled(x, n):
    return x * n


def names_variable(message, name):
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", message) is not None


# -- traced values used as Python values ---------------------------------------------------

def as_bool(x):
    positive = x.sum() > 0
    if positive:
        return x
    return -x


def as_int(x):
    count = x.sum()
    return np.ones(int(count))


def as_float(x):
    mean = x.mean()
    return x * float(mean)


def as_index(x):
    first = x.argmax()
    return [1.0, 2.0, 3.0][first]


def as_array(x):
    doubled = x * 2
    return np.asarray(doubled) + 1


@pytest.mark.parametrize("fn, name, marker", [
    (as_bool, "positive", "if positive"),
    (as_int, "count", "int(count)"),
    (as_float, "mean", "float(mean)"),
    (as_index, "first", "[first]"),
    (as_array, "doubled", "np.asarray(doubled)"),
])
def test_traced_value_used_as_python_value_names_variable_and_line(fn, name, marker):
    f = ag.convert(fn, autograph=False)
    with pytest.raises(ag.TracingError) as info:
        f(np.arange(3.0))
    message = str(info.value)
    assert isinstance(info.value, ag.AutographError)
    assert names_variable(message, name), message
    assert line_of(fn, marker) in message, message
    assert f.trace_count == 0


def test_unsupported_numpy_function_is_named():
    def f(x):
        return np.einsum_path("i,i", x, x)[0]   # a list and a str: not NumPy's own
    g = ag.convert(f)
    with pytest.raises(ag.TracingError, match=r"numpy\.einsum_path") as info:
        g(np.arange(3.0))
    assert line_of(f, "np.einsum_path") in str(info.value)


def test_unsupported_submodule_function_is_named_with_its_module():
    g = ag.convert(lambda x: np.linalg.diagonal(x) * 2)   # a view of x: refused
    with pytest.raises(ag.TracingError, match=r"numpy\.linalg\.diagonal .*a view"):
        g(np.eye(3))


def test_unsupported_ufunc_method_is_named():
    concat = np.frompyfunc(lambda a, b: a + b, 2, 1)   # not one of NumPy's: its `at` refused

    def f(x):
        concat.at(x, [0], 1.0)
        return x
    with pytest.raises(ag.TracingError, match=r"ufunc '<lambda> \(vectorized\)'\.at is not"):
        ag.convert(f)(np.arange(3.0))


def test_item_assignment_on_a_traced_value_with_an_unfollowed_view_is_a_tracing_error():
    def f(x):
        tail = x[::2].reshape(-1)  # a reshape of a strided view: not followed (runtime/views.py)
        x[1] = 1.0
        return tail
    g = ag.convert(f)
    with pytest.raises(ag.TracingError) as info:
        g(np.zeros(3))
    assert line_of(f, "x[1] = 1.0") in str(info.value)
    assert "'x'" in str(info.value) and "'tail'" in str(info.value)


# -- kernel errors at run time ---------------------------------------------------------------

def reshape_rows(x):
    rows = np.reshape(x, (2, -1))
    return rows.sum(axis=0)


def test_kernel_error_keeps_its_type_and_notes_the_users_line():
    f = ag.convert(reshape_rows, input_signature=[ag.TensorSpec((None,), np.float64)])
    with pytest.raises(ValueError) as info:
        f(np.arange(5.0))
    with pytest.raises(ValueError):
        reshape_rows(np.arange(5.0))  # the oracle fails the same way
    notes = " ".join(getattr(info.value, "__notes__", ()))
    assert line_of(reshape_rows, "np.reshape") in notes, notes
    assert f.trace_count == 1
    np.testing.assert_array_equal(f(np.arange(6.0)), reshape_rows(np.arange(6.0)))
    assert f.trace_count == 1


def test_kernel_error_in_a_called_graph_function_notes_both_lines():
    inner = ag.convert(reshape_rows)

    def outer(x):
        return inner(x) + 1
    g = ag.convert(outer, input_signature=[ag.TensorSpec((None,), np.float64)])
    with pytest.raises(ValueError) as info:
        g(np.arange(5.0))
    notes = " ".join(getattr(info.value, "__notes__", ()))
    assert line_of(reshape_rows, "np.reshape") in notes, notes
    assert line_of(outer, "inner(x)") in notes, notes
    np.testing.assert_array_equal(g(np.arange(4.0)), reshape_rows(np.arange(4.0)) + 1)


def take_at(x, i):
    picked = np.take(x, i)
    return picked * 2


def test_index_error_at_run_time_keeps_its_type_and_notes_the_users_line():
    f = ag.convert(take_at)
    x = np.arange(3.0)
    with pytest.raises(IndexError) as info:
        f(x, np.int64(5))
    with pytest.raises(IndexError):
        take_at(x, np.int64(5))
    notes = " ".join(getattr(info.value, "__notes__", ()))
    assert line_of(take_at, "np.take") in notes, notes
    assert f(x, np.int64(2)) == take_at(x, np.int64(2))
    assert f.trace_count == 1


def test_error_notes_are_not_repeated_on_a_second_failure():
    f = ag.convert(take_at)
    for _ in range(2):
        with pytest.raises(IndexError) as info:
            f(np.arange(2.0), np.int64(9))
        notes = getattr(info.value, "__notes__", [])
        assert len(notes) == len(set(notes)) >= 1


# -- failed traces leave the function usable ---------------------------------------------------

def by_mode(x, mode):
    total = x.sum()
    if mode == "bad":
        return "abc"[total]  # a str index must be a Python int
    return total * 2


def test_failed_trace_does_not_count_and_function_still_works():
    f = ag.convert(by_mode)
    x = np.arange(4.0)
    assert f(x, "good") == by_mode(x, "good")
    for _ in range(2):
        with pytest.raises(ag.TracingError, match="total"):
            f(x, "bad")
    assert f.trace_count == 1
    assert f(x * 3, "good") == by_mode(x * 3, "good")
    assert f(np.ones(2), "good") == by_mode(np.ones(2), "good")
    assert f.trace_count == 2


def test_failed_first_trace_then_success():
    f = ag.convert(by_mode)
    with pytest.raises(ag.TracingError):
        f(np.ones(3), "bad")
    assert f.trace_count == 0
    assert f(np.ones(3), "good") == 6.0
    assert f.trace_count == 1


def test_failed_inner_trace_inside_outer_trace_leaves_both_usable():
    inner = ag.convert(by_mode)
    outer = ag.convert(lambda x, mode: inner(x, mode) + 1)
    with pytest.raises(ag.TracingError) as info:
        outer(np.ones(3), "bad")
    assert line_of(by_mode, '"abc"[total]') in str(info.value)
    assert (inner.trace_count, outer.trace_count) == (0, 0)
    assert outer(np.ones(3), "good") == 7.0
    assert inner(np.ones(3), "good") == 6.0
    assert (inner.trace_count, outer.trace_count) == (1, 1)


def test_python_exception_while_tracing_propagates_unchanged():
    def f(x, table):
        return x * table["missing"]
    g = ag.convert(f)
    with pytest.raises(KeyError):
        g(np.ones(2), {"present": 1})
    assert g.trace_count == 0
    np.testing.assert_array_equal(g(np.ones(2), {"missing": 3}), np.full(2, 3.0))


def test_wrong_arguments_are_a_type_error_like_python():
    g = ag.convert(lambda x, y: x + y)
    with pytest.raises(TypeError):
        g(np.ones(2))
    with pytest.raises(TypeError):
        g(np.ones(2), np.ones(2), np.ones(2))
    with pytest.raises(TypeError):
        g(np.ones(2), z=np.ones(2))
    assert g.trace_count == 0


# -- the retracing warning (a cache diagnostic; the cache is in test_cache.py) -------------

def test_no_warning_for_five_traces():
    f = ag.convert(scaled)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.RetracingWarning)
        for n in range(5):
            f(np.ones(1), n)
    assert f.trace_count == 5


def test_warning_names_the_array_argument_and_its_shapes():
    f = ag.convert(scaled)
    with pytest.warns(ag.RetracingWarning) as record:
        for n in range(1, 7):
            f(np.ones(n, np.float32), 2)
    assert len(record) == 1
    assert "argument 'x' changed from float32[5] to float32[6]" in str(record[0].message)


def test_warning_names_the_python_argument_and_its_values():
    f = ag.convert(scaled)
    with pytest.warns(ag.RetracingWarning) as record:
        for n in range(1, 7):
            f(np.ones(2, np.float32), n)
    message = str(record[-1].message)
    assert "Python argument 'n' changed value from 5 to 6" in message
    assert "'x'" not in message


def test_warning_names_a_dtype_change():
    f = ag.convert(scaled)
    dtypes = [np.int8, np.int16, np.int32, np.int64, np.float32, np.float64]
    with pytest.warns(ag.RetracingWarning) as record:
        for dtype in dtypes:
            f(np.ones(2, dtype), 1)
    assert "argument 'x' changed from float32[2] to float64[2]" in str(record[-1].message)


def test_warning_points_at_the_callers_line():
    f = ag.convert(scaled)
    with pytest.warns(ag.RetracingWarning) as record:
        for n in range(7):
            f(np.ones(1), n)
    assert record[0].filename == __file__


def test_warning_comes_once_per_argument_and_the_log_counts_the_traces(caplog):
    f = ag.convert(scaled)
    with pytest.warns(ag.RetracingWarning) as record, \
            caplog.at_level(logging.INFO, logger="autograph"):
        for n in range(20):
            f(np.ones(2, np.float32), n)
        f(np.ones(3, np.float32), 19)   # another argument: one more warning
        f(np.ones(4, np.float32), 19)
    assert [str(w.message).split("because ")[1].split(".")[0] for w in record] == [
        "Python argument 'n' changed value from 4 to 5",
        "argument 'x' changed from float32[2] to float32[3]",
    ]
    assert f.trace_count == 22
    assert "trace 22" in caplog.records[-1].getMessage()


def test_warning_text_holds_no_count_so_pythons_filter_collapses_repeats():
    def make():
        return ag.convert(scaled)
    with pytest.warns(ag.RetracingWarning) as record:
        for f in (make(), make()):
            for n in range(7):
                f(np.ones(1), n)
    assert len(record) == 2 and str(record[0].message) == str(record[1].message)
    assert not re.search(r"traced \d+ times", str(record[0].message))
