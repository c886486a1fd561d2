"""A function that returns None on some paths and a value on others (#12).

A graph returns one type on every path. Converted code holds a `return` of None
as `ReturnedNone` (autograph/operators/undefined.py): where a staged `if` meets
it with another path's value, that path of the graph raises a `TypeError`
naming the user's line when it runs, and the other paths return their values,
as eager code does. Where every path returns None, the graph returns None.
"""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag


def first_positive(x):
    for i in range(x.shape[0]):
        if x[i] > 0:
            return i
    # falls off the end: None where no element is positive


def doubled_if_positive(x):
    if x[0] > 0:
        return x * 2
    return None


def logged(x):
    if x[0] > 0:
        print("positive")
        return
    print("not positive")


def test_the_paths_that_return_a_value_run_in_one_graph():
    converted = ag.convert(first_positive)
    for x in (np.array([-1.0, 2.0, 0.5]), np.array([3.0, -1.0, 0.0]), np.array([-1, -2, 5.0])):
        assert converted(x) == first_positive(x)
    np.testing.assert_array_equal(ag.convert(doubled_if_positive)(np.array([1.0, 2.0])),
                                  np.array([2.0, 4.0]))
    assert converted.trace_count == 1


@pytest.mark.parametrize("fn, line", [(first_positive, "first_positive"),
                                      (doubled_if_positive, "doubled_if_positive")])
def test_the_path_that_returns_none_raises_naming_the_line(fn, line):
    converted = ag.convert(fn)
    converted(np.array([1.0, 2.0, 3.0]))          # traced on the path with a value
    with pytest.raises(TypeError, match=rf"returns None on this path \(at .*test_none_returns"
                                        rf".py:\d+ in {line}\) and a value on another"):
        converted(np.array([-1.0, -2.0, -3.0]))
    assert converted.trace_count == 1


def test_a_function_returning_none_on_every_path_returns_none(capsys):
    converted = ag.convert(logged)
    assert converted(np.array([1.0])) is None
    assert converted(np.array([-1.0])) is None
    assert capsys.readouterr().out == "positive\nnot positive\n"


def test_a_saved_graph_raises_a_type_error_on_the_path_returning_none(tmp_path):
    ag.save(ag.convert(first_positive), str(tmp_path / "m"), ag.TensorSpec((3,), np.float64))
    loaded = ag.load(str(tmp_path / "m"))
    assert loaded(np.array([-1.0, 2.0, 1.0])) == 1
    with pytest.raises(TypeError, match="returns None on this path"):
        loaded(np.array([-1.0, -2.0, -1.0]))
