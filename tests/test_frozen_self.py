"""Attributes of `self` a converted method read while tracing, rebound later: the call
traces again with the new value (never runs the old graph), and warns once
(`FrozenValueWarning`) naming the attribute, the user's line and how to keep one graph."""
import inspect
import warnings

import numpy as np
import pytest

import autograph as ag


class Layer:
    def __init__(self):
        self.scale = 2.0
        self.w = np.ones(3)
        self.mode = "add"
        self.calls = 0
        self.bias = ag.Variable(np.zeros(3))

    def apply(self, x):
        y = x * self.w * self.scale
        if self.mode == "add":
            y = y + 1.0
        return y + self.bias

    def helper_user(self, x):
        return self._shifted(x) * 2.0

    def _shifted(self, x):
        return x + self.scale

    @ag.convert
    def decorated(self, x):
        return x * self.scale


def line_of(method, text):
    lines, first = inspect.getsourcelines(method)
    return first + next(i for i, line in enumerate(lines) if text in line)


def frozen_warnings(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(w.message) for w in caught if w.category is ag.FrozenValueWarning]


@pytest.fixture(autouse=True)
def fresh_warning_registry(monkeypatch):
    from autograph import frozen_bindings
    monkeypatch.setattr(frozen_bindings, "_warned", set())


def test_a_changed_number_traces_again_and_warns_once():
    layer, x = Layer(), np.arange(3.0)
    apply = ag.convert(layer.apply)
    np.testing.assert_allclose(apply(x), layer.apply(x))
    layer.scale = 5.0
    result, messages = frozen_warnings(lambda: apply(x))    # the short path
    np.testing.assert_allclose(result, layer.apply(x))      # traced again with 5.0
    assert apply.trace_count == 2
    assert len(messages) == 1
    where = f"{__file__}:{line_of(Layer.apply, 'self.scale')}"
    assert messages[0] == (
        f"Layer.apply read self.scale while it was traced (at {where}): it held 2.0 then "
        f"and holds 5.0 now, so the call traced it again; to keep one graph, pass it to the "
        f"function as an argument, or make it an ag.Variable (v.assign(...) to change it)")
    assert frozen_warnings(lambda: apply(x))[1] == []       # once
    assert apply.trace_count == 2                           # the new graph, checked again
    layer.scale = 6.0
    result, messages = frozen_warnings(lambda: apply(x))
    assert messages == []                                   # once per attribute and line
    np.testing.assert_allclose(result, layer.apply(x))
    assert apply.trace_count == 3


@pytest.mark.parametrize("name, new, shown", [
    ("mode", "sub", "'sub'"),
    ("w", np.full(3, 2.0), "another array float64[3]"),
])
def test_strings_and_arrays_assigned_anew_trace_again(name, new, shown):
    layer, x = Layer(), np.arange(3.0)
    apply = ag.convert(layer.apply)
    apply(x)
    setattr(layer, name, new)
    result, messages = frozen_warnings(lambda: apply(x))
    np.testing.assert_allclose(result, layer.apply(x))
    assert len(messages) == 1 and f"holds {shown} now" in messages[0]


def test_equal_values_unread_attributes_and_variables_do_not_warn():
    layer, x = Layer(), np.arange(3.0)
    apply = ag.convert(layer.apply)
    apply(x)
    layer.scale = float("2.0")          # a new object, the same value
    layer.w = np.ones(3)                # likewise, an array
    layer.calls += 1                    # not read by apply
    layer.bias.assign(np.ones(3))       # a Variable: read by the graph each call
    result, messages = frozen_warnings(lambda: apply(x))
    assert messages == [] and apply.trace_count == 1
    np.testing.assert_allclose(result, layer.apply(x))


def test_a_helper_method_of_self_names_its_own_line():
    layer, x = Layer(), np.arange(3.0)
    run = ag.convert(layer.helper_user)
    run(x)
    layer.scale = 1.0
    result, messages = frozen_warnings(lambda: run(x))
    np.testing.assert_allclose(result, layer.helper_user(x))
    assert len(messages) == 1
    assert f"{__file__}:{line_of(Layer._shifted, 'self.scale')}" in messages[0]
    assert messages[0].startswith("Layer.helper_user read self.scale")


def test_a_method_decorated_with_convert():
    layer, x = Layer(), np.arange(3.0)
    layer.decorated(x)
    layer.scale = 3.0
    result, messages = frozen_warnings(lambda: layer.decorated(x))
    np.testing.assert_allclose(result, x * 3.0)
    assert len(messages) == 1 and "Layer.decorated read self.scale" in messages[0]


def test_the_full_call_path_checks_too():
    class Table:
        def __init__(self):
            self.offset = 1.0

        def total(self, items):
            return items["a"] + self.offset

    table = Table()
    total = ag.convert(table.total)
    items = {"a": np.ones(2)}           # a dict: not keyed by the short path
    total(items)
    table.offset = 4.0
    result, messages = frozen_warnings(lambda: total(items))
    np.testing.assert_allclose(result, table.total(items))
    assert total.trace_count == 2
    assert len(messages) == 1 and "it held 1.0 then and holds 4.0 now" in messages[0]


def test_a_retrace_reads_the_new_value():
    layer = Layer()
    apply = ag.convert(layer.apply)
    apply(np.arange(3.0))
    layer.scale = 10.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FrozenValueWarning)
        x = np.arange(3, dtype=np.float32)    # a new signature: traced now, with 10.0
        np.testing.assert_allclose(apply(x), layer.apply(x))


def test_an_attribute_the_trace_itself_changes_is_not_reported():
    class Counted:
        def __init__(self):
            self.traces = 0
            self.scale = 2.0

        def apply(self, x):
            self.traces += 1            # runs while tracing only, as in tf.function
            return x * self.scale

    counted, x = Counted(), np.ones(2)
    apply = ag.convert(counted.apply)
    apply(x)
    result, messages = frozen_warnings(lambda: apply(x))
    assert messages == [] and counted.traces == 1
    np.testing.assert_allclose(result, x * 2.0)
