"""Random programs over `ag.Variable`s: the graph must read, write and print as NumPy does.

Hypothesis draws the source of functions `f(s, n, x)` from the grammar in
`state_program_gen.py` (assignments whose results are used or not, reads in
expressions, `print`, `assert`, traced `if`, bounded `while` and `for`, a plain
and a converted helper, `break`, `continue`, early `return`s) and runs each on two or three
argument sets of one signature: eagerly on one fresh state, and as
`ag.convert(f)` on another with the same initial values. Results (dtypes and
values, floats exactly), the variables' values after each call and the printed
text must agree, and the graph function must trace once.

The traced graph's `control_dependencies` are checked too: every two accesses
that conflict (one variable, one of them a write; or I/O with any access) are
joined by a path of data and control edges, and every control edge joins two
that conflict. Last, the graph is run in another order those edges allow
(latest equation first), on a third state, and must still agree.

    AG_HYPOTHESIS_EXAMPLES=1000 python -m pytest tests/test_generated_state.py

runs a longer search (40 examples by default); with `CI` set the examples are
derandomized.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import os
import re
import sys
import types
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph.conversion import to_code
from autograph.function import RetracingWarning
from autograph_runtime.backend import CPU
from autograph_runtime.codegen import compile_graph
from autograph_runtime.effects import control_dependencies, effects_of
from autograph_runtime.ir import Eqn, Graph, Var

sys.path.insert(0, os.path.dirname(__file__))
from generated_settings import SETTINGS  # noqa: E402
from state_program_gen import arguments, programs  # noqa: E402


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("generated_state")


def load(source: str, directory):
    """Writes `source` to its own module file in `directory` and imports it."""
    name = "agstate_" + hashlib.sha1(source.encode()).hexdigest()[:16]
    if name not in sys.modules:
        path = os.path.join(str(directory), name + ".py")
        with open(path, "w") as file:
            file.write(source)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


class State:
    def __init__(self, variables):
        for name, value in variables:
            setattr(self, name, ag.Variable(value, name=name))

    def values(self):
        return {k: v.numpy() for k, v in vars(self).items()}


def eager_function(module):
    """`module.f` calling the plain Python `g_py` where it calls the converted `g`."""
    namespace = dict(vars(module))
    if "g_py" in namespace:
        namespace["g"] = namespace["g_py"]
    return types.FunctionType(module.f.__code__, namespace, "f")


def same(eager, graph, what):
    eager, graph = np.asarray(eager), np.asarray(graph)
    assert eager.dtype == graph.dtype and eager.shape == graph.shape, \
        f"{what}: graph {graph!r}, eager {eager!r}"
    assert np.array_equal(eager, graph, equal_nan=True), f"{what}: graph {graph!r}, eager {eager!r}"


def run(fn, state, args):
    """`fn(state, *args)` with its printed text, or the exception it raised."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(state, *args)
    return result, out.getvalue()


def check_call(eager, graph, what):
    """`graph` (result, text, state) equals `eager`'s."""
    (e_result, e_text, e_state), (g_result, g_text, g_state) = eager, graph
    assert isinstance(e_result, tuple) and len(e_result) == 3, "generator bug"
    assert len(g_result) == 3, f"{what}: graph returned {g_result!r}"
    for i, (e, g) in enumerate(zip(e_result, g_result)):
        same(e, g, f"{what}: result {i}")
    for name, value in e_state.items():
        same(value, g_state[name], f"{what}: variable {name} after the call")
    assert g_text == e_text, f"{what}: printed\n{g_text}\nNumPy printed\n{e_text}"


# --- control dependencies -----------------------------------------------------------

def conflict(a, b) -> bool:
    """Whether two equations' effects must keep their program order."""
    if (a.io and b.any) or (b.io and a.any):
        return True
    return bool(a.writes & (b.reads | b.writes) or b.writes & a.reads)


def predecessors(graph: Graph) -> list[set[int]]:
    """For each equation, the earlier ones it follows: data inputs and control dependencies."""
    producer = {v.id: i for i, e in enumerate(graph.eqns) for v in e.outputs}
    deps = control_dependencies(graph)
    return [deps[i] | {producer[a.id] for a in e.inputs
                       if isinstance(a, Var) and a.id in producer}
            for i, e in enumerate(graph.eqns)]


def check_control_dependencies(graph: Graph):
    """Conflicting accesses are joined by a path; control edges join conflicting ones only."""
    deps = control_dependencies(graph)
    effects = [effects_of(e) for e in graph.eqns]
    reach = []  # reach[j]: bitset of the equations with a path to j
    for j, before in enumerate(predecessors(graph)):
        assert all(i < j for i in before), f"an edge to {j} from a later equation"
        bits = 0
        for i in before:
            bits |= reach[i] | 1 << i
        reach.append(bits)
    for j, e in enumerate(graph.eqns):
        for i in deps[j]:
            assert conflict(effects[i], effects[j]), \
                f"control edge {i} -> {j} joins {effects[i]} and {effects[j]}\n{graph}"
        for i in range(j):
            if conflict(effects[i], effects[j]):
                assert reach[j] >> i & 1, f"no path from {i} to {j}\n{graph}"
        for sub in e.subgraphs():
            check_control_dependencies(sub)


def reordered(graph: Graph) -> Graph:
    """`graph` (and its subgraphs) with the equations in another order the edges allow.

    Of the equations whose predecessors have run, the latest in program order runs first.
    """
    before = predecessors(graph)
    done, order = set(), []
    while len(order) < len(graph.eqns):
        i = max(i for i in range(len(graph.eqns)) if i not in done and before[i] <= done)
        done.add(i)
        order.append(i)
    eqns = []
    for i in order:
        e = graph.eqns[i]
        params = {k: reordered(v) if isinstance(v, Graph) else v for k, v in e.params.items()}
        eqns.append(Eqn(e.primitive, e.inputs, params, e.outputs, e.source))
    return Graph(graph.name, graph.inputs, eqns, graph.outputs, graph.consts)


# --- the property -------------------------------------------------------------------

def describe(fn, source, args=None) -> str:
    try:
        converted = to_code(fn)
    except Exception as error:  # noqa: BLE001 - conversion itself may be what failed
        converted = f"<to_code failed: {type(error).__name__}: {error}>"
    return f"\n--- program ---\n{source}--- converted ---\n{converted}\narguments: {args!r}"


def check_program(program, input_sets, directory):
    module = load(program.source, directory)
    eager_fn, graph_fn = eager_function(module), ag.convert(module.f)
    eager_state, graph_state, reordered_state = (State(program.variables) for _ in range(3))
    reordered_fn = None
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", RetracingWarning)  # `g` of a program run again
        for number, args in enumerate(input_sets):
            what = f"call {number}"
            try:
                eager = run(eager_fn, eager_state, args) + (eager_state.values(),)
                graph = run(graph_fn, graph_state, args) + (graph_state.values(),)
                check_call(eager, graph, what)
                if reordered_fn is None:
                    concrete = graph_fn.get_concrete_function(graph_state, *args)
                    check_control_dependencies(concrete.graph)
                    reordered_fn = run_reordered(concrete, reordered_state)
                other = run(reordered_fn, reordered_state, args) + (reordered_state.values(),)
                check_call(eager, other, what + ", reordered graph")
            except Exception as error:
                raise AssertionError(f"{type(error).__name__}: {error}"
                                     f"{describe(module.f, program.source, args)}") from error
    assert graph_fn.trace_count == 1, \
        f"traced {graph_fn.trace_count} times{describe(module.f, program.source)}"


def run_reordered(concrete, state):
    """`concrete`'s graph, reordered, as a function of (state, n, x) using `state`'s variables."""
    compiled = compile_graph(reordered(concrete.graph), CPU)
    variables = [getattr(state, v.name) for v in concrete.variables]

    def run(state, *args):
        outputs = iter(compiled(*args, *variables))
        leaves = [next(outputs) if is_output else static  # a Python value the trace returned
                  for is_output, static in zip(concrete._is_output, concrete._static_outputs)]
        return concrete._out_tree.unflatten(leaves)
    return run


@SETTINGS
@given(program=programs(), input_sets=st.lists(arguments(), min_size=2, max_size=3))
def test_stateful_program_matches_eager(program, input_sets, program_dir):
    check_program(program, input_sets, program_dir)


GRAMMAR_CONSTRUCTS = {
    "unused write": r"\n +s\.[abcd]\.assign(_add|_sub)?\(",
    "used write": r"\n +[tuk] = .*s\.[abcd]\.assign",
    "write inside an expression": r"[(,] *s\.[ab]\.assign",
    "float32 variable": r"s\.d\.assign",
    "float32 write inside an expression": r"\+ s\.d\.assign",
    "traced index": r"s\.[ab]\[.*% 3\]",
    "print of a read": r"print\(.*read_value",
    "assert": r"\n +assert ",
    "if on a variable": r"if np\.sum\(s\.[ab]\) [<>]",
    "if on the counter": r"\n +if .*s\.c\b",
    "else": r"\n +else:",
    "while": r"while i\d+ < ",
    "while reading a variable": r"while .* and (np\.sum\(s\.a\)|s\.c) <",
    "for over a traced range": r"for i\d+ in range\(n\)",
    "plain helper call": r"h\(s, ",
    "converted helper call": r"g\(s, ",
    "early return": r"\n        +return ",
    "break or continue": r"\n +(break|continue)\n",
    "nested loops": r"\n( +)(for|while) .*\n(\1 .*\n)*\1 +(for|while) ",
    "call inside a loop": r"\n( +)(for|while) .*\n(\1 .*\n)*\1 +.*[gh]\(s, ",
}


def test_grammar_reaches_every_construct():
    """200 programs of the grammar hold each construct (nothing is run)."""
    seen = set()

    @settings(max_examples=200, database=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(programs())
    def sample(program):
        seen.update(name for name, pattern in GRAMMAR_CONSTRUCTS.items()
                    if re.search(pattern, program.source.split("def f(")[1]))
    sample()
    assert sorted(set(GRAMMAR_CONSTRUCTS) - seen) == []


# --- regression tests: minimal programs the search found -------------------------------
#
# Bugs outside the variables' runtime, found by the search or next to it (fixed in f2892a4).

def test_local_assigned_in_for_in_for(program_dir):
    """An inner `for` dropped a local that the outer loop's next trip reads (`u`): the for
    converter's liveness of the loop body missed the back edge."""
    module = load("""import numpy as np


def f(s, n, x):
    u = np.sum(x)
    for i0 in range(2):
        s.a.assign(u)
        for i1 in range(n):
            u = x[0]
    return (x, x[0], n)
""", program_dir)
    s = State((("a", np.zeros(3)),))
    ag.convert(module.f)(s, np.int64(1), np.array([0.0, 0.0, 0.5]))
    np.testing.assert_array_equal(s.a.numpy(), [0.0, 0.0, 0.0])  # NumPy's: u is x[0]


def test_read_of_a_scalar_variable_is_a_copy():
    """0-d outputs skipped the copy of storage: the graph returned the variable's own array."""
    c = ag.Variable(np.int64(2), name="c")
    result = ag.convert(lambda: c.read_value())()
    assert result.flags.writeable and not np.shares_memory(result, np.asarray(c))


def test_print_of_a_variable_shows_its_value_when_the_graph_runs(capsys):
    """`print(v)` printed the repr the variable had when the graph was traced."""
    c = ag.Variable(np.int64(0), name="c")

    def f(n):
        c.assign_add(n)
        print(c)
        return n
    graph = ag.convert(f)
    graph(np.int64(1))
    graph(np.int64(1))
    assert capsys.readouterr().out.splitlines()[-1] == \
        "<Variable 'c' shape=() dtype=int64 value=2>"
