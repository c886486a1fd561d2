"""Attributes of `self` a converted method read while tracing, changed later: the graph
still holds the old value, and the call warns once (`FrozenValueWarning`) naming the
attribute, the user's line and the fix."""
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
    from autograph import self_reads
    monkeypatch.setattr(self_reads, "_warned", set())


def test_a_changed_number_warns_once_and_the_graph_keeps_the_old_value():
    layer, x = Layer(), np.arange(3.0)
    apply = ag.convert(layer.apply)
    np.testing.assert_allclose(apply(x), layer.apply(x))
    old = layer.apply(x)
    layer.scale = 5.0
    result, messages = frozen_warnings(lambda: apply(x))    # the short path
    np.testing.assert_allclose(result, old)                 # frozen: not what eager gives now
    assert not np.allclose(result, layer.apply(x))
    assert len(messages) == 1
    where = f"{__file__}:{line_of(Layer.apply, 'self.scale')}"
    assert messages[0] == (
        f"Layer.apply read self.scale while it was traced (at {where}): its graph holds 2.0, "
        f"but self.scale is now 5.0, and the call ran the graph with 2.0; pass it to the "
        f"method as an argument, or make it an ag.Variable (v.assign(...) to change it)")
    assert frozen_warnings(lambda: apply(x))[1] == []       # once
    layer.scale = 6.0
    assert frozen_warnings(lambda: apply(x))[1] == []       # once per attribute and line


@pytest.mark.parametrize("name, new, shown", [
    ("mode", "sub", "'sub'"),
    ("w", np.full(3, 2.0), "an array float64[3]"),
])
def test_strings_and_arrays_assigned_anew_warn(name, new, shown):
    layer, x = Layer(), np.arange(3.0)
    apply = ag.convert(layer.apply)
    apply(x)
    setattr(layer, name, new)
    messages = frozen_warnings(lambda: apply(x))[1]
    assert len(messages) == 1 and f"self.{name} is now {shown}" in messages[0]


def test_equal_values_unread_attributes_and_variables_do_not_warn():
    layer, x = Layer(), np.arange(3.0)
    apply = ag.convert(layer.apply)
    apply(x)
    layer.scale = float("2.0")          # a new object, the same value
    layer.w = np.ones(3)                # likewise, an array
    layer.calls += 1                    # not read by apply
    layer.bias.assign(np.ones(3))       # a Variable: read by the graph each call
    result, messages = frozen_warnings(lambda: apply(x))
    assert messages == []
    np.testing.assert_allclose(result, layer.apply(x))


def test_a_helper_method_of_self_names_its_own_line():
    layer, x = Layer(), np.arange(3.0)
    run = ag.convert(layer.helper_user)
    run(x)
    layer.scale = 1.0
    messages = frozen_warnings(lambda: run(x))[1]
    assert len(messages) == 1
    assert f"{__file__}:{line_of(Layer._shifted, 'self.scale')}" in messages[0]
    assert messages[0].startswith("Layer.helper_user read self.scale")


def test_a_method_decorated_with_convert():
    layer, x = Layer(), np.arange(3.0)
    layer.decorated(x)
    layer.scale = 3.0
    result, messages = frozen_warnings(lambda: layer.decorated(x))
    np.testing.assert_allclose(result, x * 2.0)
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
    messages = frozen_warnings(lambda: total(items))[1]
    assert len(messages) == 1 and "self.offset is now 4.0" in messages[0]


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
