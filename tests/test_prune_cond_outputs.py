"""Dead-code elimination drops a staged `if`'s outputs that nothing reads, from both branches."""
import numpy as np
import pytest

import autograph as ag


def _conds(graph):
    return [e for e in graph.all_eqns() if e.primitive.name == "cond"]


def keeps_x_on_one_path(x):
    if x.sum() > 0:
        x = x * 2
    return x


def computes_an_unread_value(x):
    if x.sum() > 0:
        a, b = x * 2, np.exp(x)
    else:
        a, b = x, np.log(np.abs(x) + 1)
    return a


@pytest.mark.parametrize("fn", [keeps_x_on_one_path, computes_an_unread_value])
@pytest.mark.parametrize("x", [np.arange(3.0), -np.arange(3.0) - 1])
def test_one_output_is_left_and_the_results_are_eager_numpys(fn, x):
    f = ag.convert(fn)
    np.testing.assert_array_equal(f(x), fn(x))
    [cond] = _conds(f.get_concrete_function(x).graph)
    assert len(cond.outputs) == 1
    names = [e.primitive.name for branch in ("true", "false")
             for e in cond.params[branch].eqns]
    assert "exp" not in names and "log" not in names


def test_a_branchs_effects_stay_when_its_output_goes():
    v = ag.Variable(np.zeros(2))

    def step(x):
        if x.sum() > 0:
            v.assign_add(x)
            unread = x + 1
        else:
            unread = x - 1
        return x * 3

    f = ag.convert(step)
    np.testing.assert_array_equal(f(np.ones(2)), 3 * np.ones(2))
    np.testing.assert_array_equal(v.numpy(), np.ones(2))
    f(-np.ones(2))
    np.testing.assert_array_equal(v.numpy(), np.ones(2))
    [cond] = _conds(f.get_concrete_function(np.ones(2)).graph)
    assert cond.outputs == []
    assert [e.primitive.name for e in cond.params["true"].eqns] == ["assign_variable"]
