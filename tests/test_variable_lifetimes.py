"""Creating variables on the first call only, and graphs that hold variables weakly."""
import gc
import weakref

import numpy as np
import pytest

import autograph as ag


class Dense:
    """A lazily built layer: its variables are made on the first call, sized by the input."""

    def __init__(self, units):
        self.units = units
        self.w = None

    @ag.convert
    def __call__(self, x):
        if self.w is None:
            self.w = ag.Variable(np.full((x.shape[-1], self.units), 0.5, x.dtype), name="w")
            self.b = ag.Variable(x.mean(axis=0)[:self.units], name="b")  # from the argument
            self.scale = ag.Variable(self.b * 2, name="scale")             # from another one
        return np.tanh(x @ self.w + self.b) * self.scale


def eager_dense(x, units):
    w = np.full((x.shape[-1], units), 0.5, x.dtype)
    b = x.mean(axis=0)[:units]
    return np.tanh(x @ w + b) * (b * 2)


def test_first_call_creates_variables_from_the_arguments():
    layer = Dense(2)
    x = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
    out = layer(x)
    np.testing.assert_allclose(out, eager_dense(x, 2), rtol=1e-6)
    assert out.dtype == np.float32
    assert layer.__call__.trace_count == 1
    np.testing.assert_allclose(layer.b.numpy(), x.mean(axis=0)[:2])
    np.testing.assert_allclose(layer(x + 1), np.tanh((x + 1) @ layer.w.numpy() + layer.b.numpy())
                               * layer.scale.numpy(), rtol=1e-6)
    assert layer.__call__.trace_count == 1
    assert [v.name for v in layer.__call__.variables] == ["w", "b", "scale"]


def test_the_graph_does_not_recompute_initial_values():
    layer = Dense(2)
    x = np.ones((2, 3), np.float32)
    layer(x)
    graph = layer.__call__.get_concrete_function(x).graph
    assert [e.primitive.name for e in graph.eqns].count("mean") == 0


def test_a_function_that_creates_variables_on_every_call_fails_on_the_first():
    @ag.convert
    def counter(x):
        total = ag.Variable(0.0)
        total.assign_add(x)
        return total.read_value()

    with pytest.raises(ag.TracingError) as error:
        counter(np.float64(1.0))
    message = str(error.value)
    assert "creates a new Variable each time it is traced" in message
    assert f"{__file__}:{counter.python_function.__code__.co_firstlineno + 2}" in message
    assert counter.trace_count == 0


def test_creating_variables_on_a_later_trace_fails():
    made = {}

    @ag.convert
    def f(x):
        if x.shape not in made:        # one variable per shape: made anew for a new signature
            made[x.shape] = ag.Variable(np.zeros_like(x))
        return x + made[x.shape]

    f(np.ones(2))
    with pytest.raises(ag.TracingError, match="creates a new Variable each time"):
        f(np.ones(3))                  # a new signature: a second trace that creates one


def test_variables_inside_a_staged_body_are_refused():
    @ag.convert
    def f(n):
        i = 0
        while i < n:
            ag.Variable(0.0)
            i += 1
        return i

    with pytest.raises(ag.TracingError, match="inside a staged if/while/for body"):
        f(np.int64(3))


def test_initial_values_from_unknown_arguments_are_refused():
    class Normalize:
        def __init__(self):
            self.mean = None

        @ag.convert
        def __call__(self, x):
            if self.mean is None:
                self.mean = ag.Variable(x.mean(axis=0))
            return x - self.mean

    layer = Normalize()
    with pytest.raises(ag.TracingError, match="argument x of .*values are unknown"):
        layer.__call__.get_concrete_function(ag.TensorSpec((None, 3), np.float32))
    assert layer.mean is None and layer.__call__.trace_count == 0
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(layer(x), x - x.mean(axis=0))   # a call with arrays works


def test_initial_values_with_effects_are_refused():
    @ag.convert
    def f(x):
        ag.py_function(print, x, out=())
        v = ag.Variable(ag.py_function(lambda a: a * 2, x, out=ag.TensorSpec((), np.float64)))
        return v.read_value()

    with pytest.raises(ag.TracingError, match="py_function, which has side effects"):
        f(np.float64(1.0))


def test_each_instance_has_its_own_first_call():
    a, b = Dense(1), Dense(1)
    x = np.ones((1, 2), np.float32)
    a(x)
    b(x * 2)
    assert a.w is not b.w
    np.testing.assert_allclose(b.b.numpy(), [2.0])


# -- lifetimes ------------------------------------------------------------------

def live(cls):
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is cls)


def test_a_dropped_model_is_freed_with_its_variables():
    layer = Dense(2)
    layer(np.ones((2, 3), np.float32))
    model_ref, var_ref = weakref.ref(layer), weakref.ref(layer.w)
    del layer
    gc.collect()
    assert model_ref() is None and var_ref() is None


@pytest.mark.filterwarnings("ignore::autograph.RetracingWarning")  # a trace per model
def test_memory_stays_bounded_when_models_come_and_go():
    @ag.convert
    def step(model, x):                       # the model is a Python argument: keyed weakly
        return model(x) + model.w.read_value().sum()

    before = live(Dense)
    for i in range(30):
        step(Dense(2), np.full((2, 3), i, np.float32))
    assert live(Dense) == before
    assert len(step._traces.entries) == 0 and len(step._fast) == 0


def test_a_graph_whose_variable_was_deleted_says_so():
    holder = {"v": ag.Variable(np.ones(2), name="weights")}
    f = ag.convert(lambda x: x * holder["v"])
    f(np.ones(2))
    del holder["v"]
    gc.collect()
    with pytest.raises(ReferenceError, match="'weights'"):
        f(np.ones(2))


def test_a_function_keyed_by_an_object_that_died_retraces_for_a_new_one():
    class Config:
        def __init__(self, k):
            self.k = k

    f = ag.convert(lambda c, x: x * c.k)
    np.testing.assert_array_equal(f(Config(2), np.ones(2)), [2, 2])
    gc.collect()
    np.testing.assert_array_equal(f(Config(3), np.ones(2)), [3, 3])  # never a stale graph
