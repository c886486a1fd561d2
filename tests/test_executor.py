"""The `Executor` (the interpreter for debugging) agrees with compiled graphs on ownership."""
import numpy as np
import pytest

from autograph_runtime import AbstractValue, GraphBuilder, compile_graph, get_backend
from autograph_runtime.executor import Executor
from autograph_runtime.variables import Variable


def graph_returning_storage(variable, constant):
    with GraphBuilder("f") as builder:
        x = builder.new_input(AbstractValue((2,), np.float64), "x")
        outputs = [variable.read_value(), x + constant, constant]   # a captured constant
    return builder.build(outputs)


def test_outputs_that_are_storage_come_back_as_copies():
    v, c = Variable(np.ones(2)), np.arange(2.0)
    graph = graph_returning_storage(v, c)
    read, added, const = Executor(graph).run(np.ones(2), v)
    read[0] = const[0] = 5                      # writable copies: the graph's arrays are intact
    np.testing.assert_array_equal(v.numpy(), [1, 1])
    np.testing.assert_array_equal(Executor(graph).run(np.ones(2), v)[2], [0, 1])
    np.testing.assert_array_equal(added, [1, 2])


def test_the_executor_and_compiled_code_agree():
    v, c = Variable(np.full(2, 3.0)), np.arange(2.0)
    graph = graph_returning_storage(v, c)
    interpreted = Executor(graph).run(np.ones(2), v)
    compiled = compile_graph(graph, get_backend("cpu"))(np.ones(2), v)
    for a, b in zip(interpreted, compiled):
        np.testing.assert_array_equal(a, b)


def test_a_kernel_error_names_the_equation():
    with GraphBuilder("g") as builder:
        x = builder.new_input(AbstractValue((None,), np.float64), "x")
        y = x[3]
    with pytest.raises(IndexError) as error:
        Executor(builder.build([y])).run(np.ones(2))
    assert "getitem" in "".join(error.value.__notes__) and "graph 'g'" in "".join(
        error.value.__notes__)


class Recorder(Executor):
    """Records `(graph name, primitive)` of each equation it runs."""

    def __init__(self, graph):
        super().__init__(graph)
        self.seen = []
        self.graph_of = {id(e): g.name for g in [graph, *(s for e in graph.all_eqns()
                                                            for s in e.subgraphs())]
                         for e in g.eqns}

    def run_eqn(self, eqn, kernel, values):
        self.seen.append((self.graph_of[id(eqn)], eqn.primitive.name))
        return kernel(*values)


def loop_with_branch():
    """`while i < n: i += 1; x = exp(x) if i % 2 == 1 else -x`, with n an input."""
    from autograph_runtime import cond, while_loop
    with GraphBuilder("f") as builder:
        n = builder.new_input(AbstractValue((), np.int64), "n")
        x = builder.new_input(AbstractValue((2,), np.float64), "x")

        def body(state):
            i, x = state
            i = i + 1
            return i, cond(i % 2 == 1, lambda x: np.exp(x), lambda x: np.negative(x), x)
        _, out = while_loop(lambda s: s[0] < n, body, (np.int64(0), x))
    return builder.build([out])


def test_a_subclass_sees_each_equation_inside_loops_and_the_taken_branch():
    recorder = Recorder(loop_with_branch())
    [out] = recorder.run(np.int64(3), np.zeros(2))
    np.testing.assert_allclose(out, np.exp(-np.exp(0.0)) * np.ones(2))
    body = [("body", p) for p in ("add", "remainder", "equal", "cond")]
    expected = ([("f", "while_loop")] + [("cond", "less")] + body + [("true", "exp")]
                + [("cond", "less")] + body + [("false", "negative")]
                + [("cond", "less")] + body + [("true", "exp")] + [("cond", "less")])
    assert recorder.seen == expected
    np.testing.assert_allclose(compile_graph(loop_with_branch(), get_backend("cpu"))(
        np.int64(3), np.zeros(2))[0], out)


def test_an_error_inside_a_loop_names_the_body():
    with GraphBuilder("g") as builder:
        from autograph_runtime import while_loop
        n = builder.new_input(AbstractValue((), np.int64), "n")
        x = builder.new_input(AbstractValue((None,), np.float64), "x")
        _, y = while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] + s[1][3]), (0, x))
    with pytest.raises(IndexError) as error:
        Executor(builder.build([y])).run(np.int64(2), np.ones(2))
    notes = "".join(error.value.__notes__)
    assert "getitem" in notes and "graph 'body'" in notes and "while_loop" in notes
