"""Random numbers in graphs: drawn anew at every call, in eager order, bit for bit.

Each check seeds, calls the plain function, seeds again, calls the converted one
and compares exactly (`same_draws`). The table of draws against NumPy over dtypes
is `RANDOM` in `test_ops_table_sizes.py`.
"""
from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import autograph as ag
from autograph_runtime.ops.random import FrozenRandomWarning


def same_draws(fn, *args, calls=3, seed=0, make_rng=None):
    """`fn` eagerly and converted, each after `np.random.seed(seed)` (and with a fresh
    `make_rng()` appended to the arguments): `calls` calls agree exactly, dtypes too."""
    results = []
    for run in (fn, ag.convert(fn)):
        np.random.seed(seed)
        extra = (make_rng(),) if make_rng else ()
        results.append([run(*args, *extra) for _ in range(calls)])
    for eager, graph in zip(*results):
        eager_leaves = eager if isinstance(eager, tuple) else (eager,)
        graph_leaves = graph if isinstance(graph, tuple) else (graph,)
        for e, g in zip(eager_leaves, graph_leaves, strict=True):
            np.testing.assert_array_equal(g, e)
            assert np.asarray(g).dtype == np.asarray(e).dtype, (g, e)
    return results[1]


X = np.arange(1.0, 7.0).reshape(2, 3)

GLOBAL = {
    "rand": lambda x: x + np.random.rand(2, 3),
    "rand()": lambda x: x * np.random.rand(),
    "randn": lambda x: x + np.random.randn(3),
    "random": lambda x: np.random.random((2, 3)) * x,
    "random_sample": lambda x: np.random.random_sample(x.shape),
    "uniform": lambda x: np.random.uniform(x, x + 1),
    "uniform(size)": lambda x: np.random.uniform(-1, 1, size=(4,)),
    "normal": lambda x: np.random.normal(x, 0.5),
    "normal(size)": lambda x: np.random.normal(size=x.shape) + x,
    "standard_normal": lambda x: np.random.standard_normal(5),
    "randint": lambda x: np.random.randint(0, 10, size=x.shape),
    "randint()": lambda x: x + np.random.randint(5),
    "choice(n)": lambda x: np.random.choice(10, 4),
    "choice(x,p)": lambda x: np.random.choice(x.ravel(), 3, p=[0.1, 0.1, 0.2, 0.2, 0.2, 0.2]),
    "choice(no replace)": lambda x: np.random.choice(x.ravel(), 3, replace=False),
    "permutation(n)": lambda x: np.random.permutation(6),
    "permutation(x)": lambda x: np.random.permutation(x),
    "shuffle": lambda x: (y := x * 1, np.random.shuffle(y), y)[2],
    "exponential": lambda x: np.random.exponential(x),
    "poisson": lambda x: np.random.poisson(x),
    "binomial": lambda x: np.random.binomial(10, 0.3, size=3),
}


@pytest.mark.parametrize("name", GLOBAL)
def test_global_generator_draws_as_eager(name):
    same_draws(GLOBAL[name], X)


GENERATOR = {
    "random": lambda x, rng: rng.random(x.shape) * x,
    "random(float32)": lambda x, rng: rng.random(3, dtype=np.float32),
    "normal": lambda x, rng: rng.normal(x, 2.0),
    "uniform": lambda x, rng: rng.uniform(size=(2, 2)),
    "integers": lambda x, rng: rng.integers(0, 100, size=4),
    "integers()": lambda x, rng: x + rng.integers(3),
    "standard_normal": lambda x, rng: rng.standard_normal((3,), dtype=np.float32),
    "choice": lambda x, rng: rng.choice(x, 2, axis=1),
    "permutation": lambda x, rng: rng.permutation(x, axis=1),
    "shuffle": lambda x, rng: (y := x * 1, rng.shuffle(y), y)[2],
    "gamma": lambda x, rng: rng.gamma(x),
}


@pytest.mark.parametrize("name", GENERATOR)
def test_generator_argument_draws_as_eager(name):
    same_draws(GENERATOR[name], X, make_rng=lambda: np.random.default_rng(11))


def test_random_state_argument_draws_as_eager():
    same_draws(lambda x, rs: x + rs.normal(size=x.shape) + rs.randint(3),
               X, make_rng=lambda: np.random.RandomState(5))


def test_closed_over_generator_draws_as_eager():
    state = np.random.default_rng(3).bit_generator.state
    rng = np.random.default_rng()

    def f(x):
        return x + rng.normal(size=x.shape)

    rng.bit_generator.state = state
    eager = [f(X) for _ in range(3)]
    g = ag.convert(f)
    rng.bit_generator.state = state
    for e in eager:
        np.testing.assert_array_equal(g(X), e)


def test_generator_made_in_the_function_starts_again_at_every_call():
    def f(x):
        rng = np.random.default_rng(42)
        return x + rng.normal(size=x.shape), rng.integers(9)

    first, second, _ = same_draws(f, X)
    np.testing.assert_array_equal(first[0], second[0])


def test_generator_made_without_a_seed_draws_fresh_numbers():
    g = ag.convert(lambda x: x + np.random.default_rng().random(3))
    assert not np.array_equal(g(np.zeros(3)), g(np.zeros(3)))


def test_seed_in_the_function_runs_with_the_graph():
    def f(x):
        np.random.seed(4)
        return x + np.random.rand(3)

    results = same_draws(f, np.zeros(3))
    np.random.rand(5)  # moving the generator on does not change what the next call draws
    np.testing.assert_array_equal(ag.convert(f)(np.zeros(3)), results[0])


def test_two_generators_interleave_as_eager():
    def f(x, rng):
        a = np.random.rand(2)
        b = rng.random(2)
        c = np.random.rand(2)
        return x + a, x + b, x + c

    same_draws(f, np.zeros(2), make_rng=lambda: np.random.default_rng(1))


def test_an_unused_draw_still_advances_the_generator():
    def f(x):
        np.random.rand(4)  # eager advances the generator; the graph keeps the draw
        unused = np.random.normal(size=3)  # noqa: F841
        return x + np.random.rand(2)

    same_draws(f, np.zeros(2))
    graph = ag.convert(f).get_concrete_function(np.zeros(2)).graph
    assert sum(e.primitive.name == "random_draw" for e in graph.eqns) == 3


def test_draws_in_a_staged_if_happen_only_on_the_taken_path():
    def f(x):
        if x.sum() > 0:
            x = x + np.random.rand(*x.shape)
        else:
            x = x - 1.0
        return x * np.random.rand()

    for x in (np.ones(3), -np.ones(3)):
        same_draws(f, x)


def test_draws_in_a_staged_while_happen_once_per_trip():
    def f(x, n):
        i = 0
        while i < n:
            x = x + np.random.normal(size=x.shape)
            i += 1
        return x

    for n in (0, 1, 4):
        same_draws(f, np.zeros(3), np.int64(n))


def test_draws_with_prints_keep_program_order(capsys):
    def f(x):
        a = np.random.rand()
        print("drew", a)
        return x + np.random.rand()

    same_draws(f, np.zeros(()), calls=2)
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == out[2:]


def test_a_python_float_draw_stays_weak():
    g = ag.convert(lambda x: x + np.random.rand())
    assert g(np.zeros(3, np.float32)).dtype == np.float32
    graph = g.get_concrete_function(np.zeros(3, np.float32)).graph
    assert "random_draw" in str(graph) and "f64[]~weak" in str(graph)


def test_graph_text_names_the_generator():
    graph = ag.convert(lambda x: x + np.random.rand(3)).get_concrete_function(X[0]).graph
    assert "random_draw[generator='global', method='random_sample'" in str(graph)


def test_a_draw_is_a_constant_of_the_gradient():
    def loss(x):
        return np.sum(x * np.random.rand(3))

    x = np.array([1.0, 2.0, 3.0])
    np.random.seed(2)
    got = ag.grad(loss)(x)
    np.random.seed(2)
    np.testing.assert_array_equal(got, np.random.rand(3))


def test_a_gradient_through_a_draws_parameters_is_refused():
    # finite differences under one seed give 1 for `loc`, a constant draw 0: neither silently
    def loss(x):
        return np.sum(np.random.normal(loc=x))

    with pytest.raises(ag.TracingError, match=r"gradient reaches the parameters of a random "
                                              r"draw \(normal\)"):
        ag.grad(loss)(np.array([1.0, 2.0, 3.0]))


def test_a_generator_argument_is_keyed_by_identity():
    g = ag.convert(lambda x, rng: x + rng.random(2))
    a, b = np.random.default_rng(1), np.random.default_rng(2)
    ga, gb = g(np.zeros(2), a), g(np.zeros(2), b)
    np.testing.assert_array_equal(ga, np.random.default_rng(1).random(2))
    np.testing.assert_array_equal(gb, np.random.default_rng(2).random(2))


def test_shuffle_of_a_constant_array_is_refused_with_the_way_out():
    g = ag.convert(lambda x: (np.random.shuffle(np.arange(3)), x)[1])
    with pytest.raises(ag.TracingError, match="permutation"):
        g(np.zeros(2))


def test_a_draw_frozen_while_tracing_warns():
    @ag.do_not_convert
    def library(n):
        return np.random.rand(n)

    g = ag.convert(lambda x: x + library(2))
    with pytest.warns(FrozenRandomWarning, match="frozen into the graph"):
        g(np.zeros(2))
    with warnings.catch_warnings():
        warnings.simplefilter("error", FrozenRandomWarning)
        ag.convert(lambda x: x + np.random.rand(2))(np.zeros(2))


def test_a_generator_method_that_is_not_staged_warns():
    g = ag.convert(lambda x, rng: x + rng.multivariate_normal([0.0, 0.0], np.eye(2)))
    with pytest.warns(FrozenRandomWarning, match="multivariate_normal is not staged"):
        g(np.zeros(2), np.random.default_rng(0))


def test_saved_graph_draws_from_the_loading_process_global_generator(tmp_path):
    g = ag.convert(lambda x: x + np.random.rand(3))
    ag.save(g, tmp_path / "f", np.zeros(3))
    loaded = ag.load(tmp_path / "f")
    np.random.seed(9)
    eager = [np.random.rand(3) for _ in range(2)]
    np.random.seed(9)
    for e in eager:
        np.testing.assert_array_equal(loaded(np.zeros(3)), e)


def test_saving_a_graph_that_draws_from_a_generator_object_is_refused(tmp_path):
    rng = np.random.default_rng(0)
    g = ag.convert(lambda x: x + rng.random(3))  # closed over: frozen into the graph
    g(np.zeros(3))
    with pytest.raises(ValueError, match="draws from a Generator object, which cannot be "
                                         "saved; draw from NumPy's global generator"):
        ag.save(g, tmp_path / "f")
    made = ag.convert(lambda x: x + np.random.default_rng(1).random(3))
    made(np.zeros(3))
    with pytest.raises(ValueError, match="makes a random generator, which cannot be saved"):
        ag.save(made, tmp_path / "g")
    passed = ag.convert(lambda x, rng: x + rng.random(3))
    passed(np.zeros(3), rng)
    with pytest.raises(ValueError, match="argument 'rng' is a Generator object"):
        ag.save(passed, tmp_path / "h")


def test_threads_draw_from_the_global_generator_without_losing_draws():
    g = ag.convert(lambda x: x + np.random.rand(100))
    g(np.zeros(100))
    out = []
    threads = [threading.Thread(target=lambda: out.append(g(np.zeros(100)))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({a.tobytes() for a in out}) == 4
