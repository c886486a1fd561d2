"""Arrays a function closes over (weights): the value at trace time, one snapshot shared.

The rule (docs/reference.md, `runtime.tracer.captured_value`): a graph computes
with what a captured array held when it was traced; writing into the array
afterwards changes no graph traced before, and a later trace captures the new
value. Every graph that captures the array while it holds the same bytes
shares one read-only snapshot of it; an array nobody can write is not copied.
"""
import numpy as np

import autograph as ag
from autograph_runtime.tracer import captured_value


def consts(f):
    """The captured arrays of each graph `f` traced, in order."""
    return [list(c.graph.consts.values()) for c in f._traces.values()]


def test_mutating_a_captured_array_after_tracing_changes_no_traced_graph():
    w = np.arange(6.0).reshape(2, 3)
    f = ag.convert(lambda x: x @ w)
    x = np.ones((1, 2))
    before = f.python_function(x)
    np.testing.assert_array_equal(f(x), before)
    w += 100                                   # after tracing: the graph keeps what it saw
    np.testing.assert_array_equal(f(x), before)
    assert not np.array_equal(f.python_function(x), before)
    x3 = np.ones((3, 2))                       # a new trace captures the new value
    np.testing.assert_array_equal(f(x3), x3 @ w)
    np.testing.assert_array_equal(f(x), before)   # and the old graph still the old one


def test_a_trace_never_mixes_a_branch_taken_on_old_values_with_new_values():
    w = np.ones(3)

    def f(x):
        if w.sum() > 0:                        # decided while tracing, on w's values then
            return x * w
        return x - w
    g = ag.convert(f)
    x = np.full(3, 2.0)
    np.testing.assert_array_equal(g(x), [2, 2, 2])
    w[...] = -1.0                              # eagerly f now takes the other branch
    np.testing.assert_array_equal(g(x), [2, 2, 2])   # the graph: branch and value of trace time
    np.testing.assert_array_equal(f(x), [3, 3, 3])


def test_graphs_share_one_snapshot_of_an_unchanged_array():
    w = np.arange(6.0).reshape(2, 3)
    f = ag.convert(lambda x: x @ w)
    f(np.ones((1, 2)))
    f(np.ones((4, 2)))
    ag.convert(lambda x: x @ w + 1)(np.ones((1, 2)))
    grad = ag.grad(lambda x: np.sum(x @ w))
    grad(np.ones((1, 2)))
    (a,), (b,) = consts(f)
    assert a is b and a is not w and not a.flags.writeable and a.base is None
    assert captured_value(w) is a
    w[0, 0] = -0.0                             # same value, other bytes: another snapshot
    assert captured_value(w) is not a
    assert np.signbit(captured_value(w)[0, 0])


def test_a_snapshot_or_an_unwritable_array_is_not_copied():
    frozen = np.frombuffer(np.arange(3.0).tobytes(), dtype=np.float64)   # read-only over bytes
    assert captured_value(frozen) is frozen
    snapshot = captured_value(np.ones(2))
    assert captured_value(snapshot) is snapshot
    read_only = np.ones(2)
    read_only.flags.writeable = False          # may be made writeable again: copied
    assert captured_value(read_only) is not read_only
    view = np.ones(4)[::2]
    view.flags.writeable = False               # a read-only view of a writeable array
    assert captured_value(view) is not view


def test_the_snapshot_registry_holds_nothing_alive():
    import gc
    import weakref

    from autograph_runtime import tracer
    w = np.ones(3)
    snapshot = captured_value(w)
    ref = weakref.ref(snapshot)
    del snapshot
    gc.collect()
    assert ref() is None and id(w) not in tracer._snapshots    # the snapshot died: forgotten
    snapshot = captured_value(w)
    key = id(w)
    del w
    gc.collect()
    assert key not in tracer._snapshots                        # the array died: forgotten
    assert captured_value(snapshot) is snapshot
