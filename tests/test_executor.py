"""The `Executor` (the interpreter for debugging) agrees with compiled graphs on ownership."""
import numpy as np
import pytest

from runtime import AbstractValue, GraphBuilder, compile_graph, get_backend
from runtime.executor import Executor
from runtime.variables import Variable


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
