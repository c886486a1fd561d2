"""`ag.Variable`: eagerly, in graphs, in program order, and the rules for creating them.

Stateful functions are checked against their eager run: the same Python code,
undecorated, on variables of its own with the same starting values; results
and the variables' final values must agree.
"""
import contextlib
import io

import numpy as np
import pytest

import autograph as ag
from autograph_runtime.effects import control_dependencies, prune_dead_code


def run_both(make_state, body, *calls):
    """`body(state, *args)` for each call in `calls`, eagerly and as one graph function.

    Returns (eager results, graph results, eager state, graph state, graph function).
    """
    eager_state, graph_state = make_state(), make_state()
    graph = ag.convert(body)
    eager = [body(eager_state, *args) for args in calls]
    traced = [graph(graph_state, *args) for args in calls]
    return eager, traced, eager_state, graph_state, graph


def assert_same(eager, graph):
    for a, b in zip(eager, graph):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
        assert np.asarray(a).dtype == np.asarray(b).dtype


def values(state):
    return {k: v.numpy() for k, v in vars(state).items() if isinstance(v, ag.Variable)}


class State:
    def __init__(self, **initial):
        for name, value in initial.items():
            setattr(self, name, ag.Variable(value, name=name))


# -- eager behaviour ----------------------------------------------------------

def test_eager_assignments_return_the_new_value():
    v = ag.Variable(np.zeros(3, np.float32), name="v")
    np.testing.assert_array_equal(v.assign(np.arange(3)), [0, 1, 2])
    np.testing.assert_array_equal(v.assign_add(1), [1, 2, 3])
    np.testing.assert_array_equal(v.assign_sub(np.ones(3)), [0, 1, 2])
    assert v.dtype == np.float32 and v.shape == (3,) and v.name == "v" and v.trainable
    assert v.numpy().dtype == np.float32


def test_eager_reads_behave_like_the_array():
    v = ag.Variable(np.arange(6.0).reshape(2, 3))
    a = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(v + 1, a + 1)
    np.testing.assert_array_equal(1 - v, 1 - a)
    np.testing.assert_array_equal(v @ a.T, a @ a.T)
    np.testing.assert_array_equal(a.T @ v, a.T @ a)
    np.testing.assert_array_equal(np.tanh(v), np.tanh(a))
    np.testing.assert_array_equal(np.concatenate([v, a]), np.concatenate([a, a]))
    np.testing.assert_array_equal(v.sum(axis=0), a.sum(axis=0))
    np.testing.assert_array_equal(v.T, a.T)
    np.testing.assert_array_equal(v[1, ::-1], a[1, ::-1])
    np.testing.assert_array_equal(v > 2, a > 2)
    assert len(v) == 2 and v.ndim == 2 and v.size == 6
    assert float(ag.Variable(2.5)) == 2.5


def test_eager_values_are_never_shared_with_the_caller():
    x = np.ones(3)
    v = ag.Variable(x)
    x += 1                      # the variable copied its initial value
    v.assign(x)
    x += 1                      # ... and each assigned value
    np.testing.assert_array_equal(v.numpy(), [2, 2, 2])
    copy = v.read_value()
    copy += 1                   # read_value() and numpy() are copies
    np.testing.assert_array_equal(v.numpy(), [2, 2, 2])
    with pytest.raises(ValueError, match="read-only"):
        np.asarray(v)[0] = 5    # the stored array itself is read-only


def test_assignment_follows_numpy_casting_and_broadcasting():
    v = ag.Variable(np.zeros((2, 3), np.float32))
    v.assign(np.int64(4))                       # int into float, broadcast: fine
    np.testing.assert_array_equal(v.numpy(), np.full((2, 3), 4, np.float32))
    with pytest.raises(TypeError, match="same_kind"):
        ag.Variable(np.zeros(3, np.int64)).assign(np.ones(3))
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        v.assign(np.ones(4))
    np.testing.assert_array_equal(v.numpy(), np.full((2, 3), 4, np.float32))  # unchanged


@pytest.mark.parametrize("statement", ["v += 1", "v *= 2", "v[0] = 1"])
def test_in_place_python_syntax_is_refused_with_advice(statement):
    v = ag.Variable(np.zeros(3))
    with pytest.raises(TypeError, match="assign"):
        exec(statement, {"v": v})


def test_repr_shows_name_shape_and_value():
    assert repr(ag.Variable(np.float32(1.5), name="lr")) == \
        "<Variable 'lr' shape=() dtype=float32 value=1.5>"


# -- in graphs: program order -------------------------------------------------

def test_writes_whose_results_are_unused_still_run():
    def f(s, x):
        s.v.assign(x)
        s.v.assign_add(1.0)
        s.n.assign_add(1)
        return x * 2
    eager, graph, es, gs, fn = run_both(lambda: State(v=np.zeros(3), n=np.int64(0)), f,
                                        (np.ones(3),), (np.arange(3.0),))
    assert_same(eager, graph)
    assert_same(values(es).values(), values(gs).values())
    np.testing.assert_array_equal(gs.v.numpy(), [1, 2, 3])
    assert gs.n.numpy() == 2


def test_reads_see_the_writes_before_them():
    def f(s, x):
        a = s.v.read_value()
        s.v.assign_add(x)
        b = s.v * 1
        s.v.assign(b * 2)
        return a, b, s.v + 0
    eager, graph, es, gs, _ = run_both(lambda: State(v=np.ones(2)), f,
                                       (np.array([1.0, 2.0]),), (np.array([3.0, 4.0]),))
    for e, g in zip(eager, graph):
        assert_same(e, g)
    assert_same([es.v.numpy()], [gs.v.numpy()])


def test_accesses_in_branches_and_loops_keep_program_order():
    def f(s, n, x):
        i = np.int64(0)
        while i < n:
            s.steps.assign_add(1)
            if x[i] > 0:
                s.total.assign_add(x[i])
            else:
                s.total.assign(s.total * 0.5)
            i += 1
        return s.total.read_value(), s.steps.read_value()
    calls = [(np.int64(3), np.array([1.0, -2.0, 3.0])), (np.int64(2), np.array([-1.0, 5.0, 0.0]))]
    eager, graph, es, gs, fn = run_both(lambda: State(total=0.0, steps=np.int64(0)), f, *calls)
    for e, g in zip(eager, graph):
        assert_same(e, g)
    assert values(es) == values(gs) and fn.trace_count == 1


def test_accesses_in_called_functions_keep_program_order():
    def bump(s, x):
        s.v.assign_add(x)
        return s.v.read_value()

    inner = ag.convert(bump)

    def f(s, x):
        first = bump(s, x)             # a plain function, converted with the caller
        second = inner(s, x * 10)      # a graph function: a `call` equation
        s.v.assign_sub(1.0)
        return first, second, s.v.read_value()
    eager, graph, es, gs, _ = run_both(lambda: State(v=0.0), f, (np.float64(1.0),),
                                       (np.float64(2.0),))
    for e, g in zip(eager, graph):
        assert_same(e, g)
    assert values(es) == values(gs)


def test_print_assert_and_py_function_are_ordered_with_variable_accesses():
    log = []

    def f(s, x):
        print("before", s.v.read_value())
        s.v.assign_add(x)
        ag.py_function(lambda value: log.append(float(value)) or 0.0, s.v.read_value(),
                       out=ag.TensorSpec((), np.float64))
        print("after", s.v.read_value())
        assert s.v < 100, "too big"
        s.v.assign_add(x)
        return s.v.read_value()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        eager, graph, es, gs, fn = run_both(lambda: State(v=0.0), f, (np.float64(1.0),),
                                            (np.float64(2.0),))
    assert_same(eager, graph)
    text = out.getvalue().splitlines()
    assert text[:4] == text[4:] == ["before 0.0", "after 1.0", "before 2.0", "after 4.0"]
    assert log == [1.0, 4.0, 1.0, 4.0]
    with pytest.raises(AssertionError, match="too big"):
        fn(gs, np.float64(1000.0))
    assert gs.v.numpy() == 1006.0  # the write before the failed assert happened, as eagerly


def test_accesses_to_one_variable_are_chained_and_others_left_unordered():
    a, b = ag.Variable(0.0, name="a"), ag.Variable(0.0, name="b")

    @ag.convert
    def f(x):
        a.assign(x)        # 0
        b.assign(x)        # 1
        ra = a * 2         # 2: read a
        b.assign_add(ra)   # 3: read a's value, write b
        a.assign_add(1.0)  # 4
        print(x)           # 5
        return b.read_value()

    graph = f.get_concrete_function(np.float64(1.0)).graph
    deps = control_dependencies(graph)
    accesses = [(i, e.primitive.name, e.inputs[0].name) for i, e in enumerate(graph.eqns)
                if e.primitive.state]
    assert [a[1:] for a in accesses] == [
        ("assign_variable", "a"), ("assign_variable", "b"), ("read_variable", "a"),
        ("assign_variable", "b"), ("assign_variable", "a"), ("read_variable", "b")]
    (w_a, w_b, r_a, add_b, add_a, r_b) = [a[0] for a in accesses]
    printed = next(i for i, e in enumerate(graph.eqns) if e.primitive.name == "print")
    assert deps[w_a] == deps[w_b] == set()         # a and b are independent
    assert deps[r_a] == {w_a}                      # a read follows the variable's last write
    assert deps[add_b] == {w_b}                    # (its operand comes from a by data flow)
    assert deps[add_a] == {w_a, r_a}               # a write follows every earlier access
    assert deps[printed] == {w_a, w_b, r_a, add_b, add_a}  # I/O follows the accesses before it
    assert deps[r_b] == {add_b, printed}           # ... and accesses after it follow it


def test_pruning_drops_unused_reads_but_keeps_writes():
    v = ag.Variable(np.zeros(2))

    @ag.convert
    def f(x):
        _ = v.read_value() * 3         # dropped: nothing uses it
        v.assign(x)                    # kept: a write
        return x + 1

    graph = f.get_concrete_function(np.ones(2)).graph
    assert [e.primitive.name for e in graph.eqns] == ["assign_variable", "add"]
    assert prune_dead_code(graph) is graph
    f(np.full(2, 7.0))
    np.testing.assert_array_equal(v.numpy(), [7, 7])


def test_graph_outputs_are_copies_of_the_stored_value():
    v = ag.Variable(np.ones(3))

    @ag.convert
    def f():
        return v.read_value(), v.assign_add(1.0)[::-1]

    first, second = f()
    first += 100
    second += 100
    np.testing.assert_array_equal(v.numpy(), [2, 2, 2])


def test_variables_passed_as_arguments():
    @ag.convert
    def scale(var, x):
        var.assign(var * x)
        return var.read_value()

    u, w = ag.Variable(np.ones(2), name="u"), ag.Variable(np.ones(2), name="w")
    scale(u, np.float64(2.0))
    scale(w, np.float64(3.0))
    scale(u, np.float64(2.0))
    np.testing.assert_array_equal(u.numpy(), [4, 4])
    np.testing.assert_array_equal(w.numpy(), [3, 3])


def test_graph_text_shows_resources_and_modes():
    v = ag.Variable(np.zeros(3, np.float32), name="v")

    @ag.convert
    def f(x):
        v.assign_add(x)
        return v.read_value()

    assert str(f.get_concrete_function(np.zeros(3, np.float32)).graph) == """\
graph f(x:f32[3], v:ref f32[3]) {
  t0:f32[3] = assign_variable[mode='add'] v x
  t1:f32[3] = read_variable v
  return t1
}"""


def test_bad_assignments_in_a_graph_fail_while_tracing_and_change_nothing():
    v = ag.Variable(np.zeros(3, np.int64), name="counts")

    @ag.convert
    def f(x):
        v.assign_add(1)
        v.assign(x)
        return x

    with pytest.raises(TypeError, match="float64 value in a int64 variable"):
        f(np.ones(3))
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        f(np.ones(4, np.int64))
    np.testing.assert_array_equal(v.numpy(), [0, 0, 0])
    assert f.trace_count == 0


def test_unknown_dims_are_checked_when_the_graph_runs():
    v = ag.Variable(np.zeros(3))
    f = ag.convert(lambda x: v.assign(x), input_signature=[ag.TensorSpec((None,), np.float64)])
    f(np.ones(3))
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        f(np.ones(4))
    np.testing.assert_array_equal(v.numpy(), [1, 1, 1])


@pytest.mark.parametrize("code, message", [
    ("np.asarray(v)", "freeze its current value"),
    ("v.numpy()", "needs a concrete value"),
])
def test_concrete_reads_while_tracing_are_refused(code, message):
    v = ag.Variable(np.zeros(3))
    namespace = {"np": np, "v": v}
    exec(f"def f(x):\n    return {code} + x\n", namespace)
    with pytest.raises(ag.TracingError, match=message):
        ag.convert(namespace["f"], autograph=False)(np.ones(3))


def test_print_of_a_variable_in_a_graph_shows_its_value_when_the_graph_runs(tmp_path,
                                                                            monkeypatch, capsys):
    source = tmp_path / "printing_variable.py"
    source.write_text("import numpy as np\n\n\ndef f(c, n):\n    c.assign_add(n)\n"
                      "    print(c, 'after', n)\n    return n\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import printing_variable
    c = ag.Variable(np.int64(0), name="c")
    graph = ag.convert(printing_variable.f)
    graph(c, np.int64(1))
    graph(c, np.int64(2))
    assert capsys.readouterr().out.splitlines() == [
        "<Variable 'c' shape=() dtype=int64 value=1> after 1",
        "<Variable 'c' shape=() dtype=int64 value=3> after 2"]


def test_a_scalar_variable_read_is_returned_as_a_copy():
    c = ag.Variable(np.int64(2), name="c")
    result = ag.convert(lambda: c.read_value())()
    assert result.flags.writeable and not np.shares_memory(result, np.asarray(c))


def test_variables_as_conditions_loop_bounds_and_indices(tmp_path, monkeypatch):
    """Where Python needs a value, a variable stands for what it holds, read when the graph runs."""
    source = tmp_path / "variable_conditions.py"
    source.write_text('''import numpy as np


def f(s, x):
    total = 0.0
    if s.flag:                           # a traced condition
        total = total + x[s.index]       # a traced index
    for i in range(s.count):             # a traced loop bound
        total = total + x[i]
    n = 0
    while s.count > n and not (s.flag and n > 1):
        n += 1
    assert s.count >= 0, "negative count"
    return total, n
''')
    monkeypatch.syspath_prepend(str(tmp_path))
    import variable_conditions

    class State:
        flag = ag.Variable(True, name="flag")
        count = ag.Variable(np.int64(2), name="count")
        index = ag.Variable(np.int64(1), name="index")

    s, x = State(), np.array([1.0, 2.0, 3.0])
    graph = ag.convert(variable_conditions.f)
    for flag, count, index in [(True, 2, 1), (False, 3, 2), (True, 0, 0)]:
        s.flag.assign(flag)
        s.count.assign(count)
        s.index.assign(index)
        assert_same(variable_conditions.f(s, x), graph(s, x))
    assert graph.trace_count == 1
