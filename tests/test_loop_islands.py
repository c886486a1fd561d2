"""Loops a staged loop cannot carry for their Python lists, dicts and sets (a stack, a
queue, a dict keyed by traced values) run as Python when the graph runs
(autograph/operators/loop_islands.py): checked against eager NumPy on several
inputs each, twice on one trace, and on inputs that run the loop zero times."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag
from autograph_runtime import native

RNG = np.random.default_rng(7)


def _graph(n, p=0.35):
    return RNG.random((n, n)) < p


def _check(fn, *argument_tuples, traces=None):
    """`fn` converted gives eager's results on each argument tuple."""
    converted = ag.convert(fn)
    for args in argument_tuples:
        got, want = converted(*args), fn(*args)
        for g, w in zip(got if isinstance(want, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,), strict=True):
            assert np.asarray(g).dtype == np.asarray(w).dtype
            np.testing.assert_array_equal(g, w)
    if traces is not None:
        assert converted.trace_count == traces
    return converted


def _graph_text(converted, *args) -> str:
    return str(converted.get_concrete_function(*args).graph)


# -- graph searches ------------------------------------------------------------------

def bfs(adj, start):
    dist = np.full(adj.shape[0], -1)
    dist[start] = 0
    queue = [start]
    while queue:
        v = queue.pop(0)
        for u in range(adj.shape[0]):
            if adj[v, u] and dist[u] < 0:
                dist[u] = dist[v] + 1
                queue.append(u)
    return dist


def test_bfs_with_a_queue():
    converted = _check(bfs, (_graph(7), 0), (_graph(7), 0), (_graph(7), 3), traces=2)
    assert "python_block" in _graph_text(converted, _graph(7), 0)


def test_bfs_from_a_traced_start():
    _check(bfs, (_graph(6), np.int64(2)), (_graph(6), np.int64(5)), traces=1)


def reachable(adj, starts):
    seen = np.zeros(adj.shape[0], bool)
    stack = list(starts)
    for s in starts:
        seen[s] = True
    while stack:
        v = stack.pop()
        for u in range(adj.shape[0]):
            if adj[v, u] and not seen[u]:
                seen[u] = True
                stack.append(u)
    return seen


def test_dfs_with_a_stack_and_a_stack_that_starts_empty():
    _check(reachable, (_graph(6), (0,)), (_graph(6), (0,)), (_graph(6), (2, 4)),
           (_graph(6), ()), traces=3)


def count_reachable(adj, start):
    seen = {start}
    stack = [start]
    count = 1
    while stack:
        v = stack.pop()
        for u in range(adj.shape[0]):
            if adj[v, u] and u not in seen:
                seen.add(u)
                stack.append(u)
                count += 1
    return count


def test_a_set_of_visited_nodes():
    _check(count_reachable, (_graph(6), 0), (_graph(6), 0), (np.zeros((6, 6), bool), 0),
           traces=1)


def flood_fill(grid, i0, j0):
    out = grid.copy()
    target = grid[i0, j0]
    stack = [(i0, j0)] if i0 >= 0 else []
    while stack:
        i, j = stack.pop()
        if out[i, j] == target:
            out[i, j] = -1
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                a, b = i + di, j + dj
                if 0 <= a < grid.shape[0] and 0 <= b < grid.shape[1]:
                    if out[a, b] == target:
                        stack.append((a, b))
    return out


def test_flood_fill_with_a_stack_of_index_pairs():
    grids = [(RNG.random((5, 6)) < 0.5).astype(np.int64) for _ in range(2)]
    _check(flood_fill, (grids[0], 2, 3), (grids[1], 2, 3), (grids[0], 0, 0),
           (grids[0], -1, 0))


def components(adj):
    n = adj.shape[0]
    label = np.full(n, -1)
    count = 0
    for s in range(n):
        if label[s] < 0:
            label[s] = count
            stack = [s]
            while stack:
                v = stack.pop()
                for u in range(n):
                    if adj[v, u] and label[u] < 0:
                        label[u] = count
                        stack.append(u)
            count += 1
    return label, count


def test_connected_components():
    sym = [a | a.T for a in (_graph(6, 0.2), _graph(6, 0.2))]
    _check(components, (sym[0],), (sym[1],), (np.zeros((0, 0), bool),))


def union_find_components(edges, n):
    parent = {i: i for i in range(n)}
    merges = 0
    for k in range(edges.shape[0]):
        a, b = int(edges[k, 0]), int(edges[k, 1])
        while parent[a] != a:
            a = parent[a]
        while parent[b] != b:
            b = parent[b]
        if a != b:
            parent[a] = b
            merges += 1
    return n - merges


def test_union_find_with_a_dict():
    edges = [RNG.integers(0, 8, (6, 2)) for _ in range(2)]
    _check(union_find_components, (edges[0], 8), (edges[1], 8),
           (np.zeros((0, 2), np.int64), 8))


# -- dicts and lists ----------------------------------------------------------------

def mode(x):
    counts = {}
    best, best_count = -1, 0
    for i in range(x.shape[0]):
        k = int(x[i])
        counts[k] = counts.get(k, 0) + 1
        if counts[k] > best_count:
            best, best_count = k, counts[k]
    return best, best_count


def test_a_dict_histogram_keyed_by_traced_ints():
    _check(mode, (np.array([3, 1, 3, 2, 1, 3]),), (np.array([5, 5, 1, 1, 1, 0]),),
           (np.zeros(0, np.int64),))


def test_a_dict_histogram_over_a_traced_range():
    converted = ag.convert(mode, input_signature=[ag.TensorSpec((None,), np.int64)])
    for x in (np.array([3, 1, 3, 2]), np.array([4, 4, 0]), np.zeros(0, np.int64)):
        assert converted(x) == mode(x)
    assert converted.trace_count == 1


def spread(x):
    total = 0.0
    for i in range(x.shape[0]):
        parts = [x[i]]
        if x[i] > 0:
            parts.append(2 * x[i])
            parts.append(3 * x[i])
        total = total + len(parts) * max(parts)
    return total


def test_appends_of_different_lengths_then_a_reduction_in_the_loop():
    _check(spread, (np.array([1.0, -2.0, 3.0]),), (np.array([-1.0, 0.5, 2.0]),),
           (np.zeros(0),))


def traced_steps(x):
    stack = [0]
    total = 0.0
    steps = 0
    while stack:
        v = stack.pop()
        total = total + x[v]
        steps += 1
        if x[v] > 0 and v + 1 < x.shape[0]:
            stack.append(v + 1)
    print("steps", steps)
    return total


def test_print_after_and_inside_runs_once_per_run(capsys):
    converted = ag.convert(traced_steps)
    for x in (np.array([1.0, 2.0, -1.0, 4.0]), np.array([-1.0, 2.0])):
        np.testing.assert_array_equal(converted(x), traced_steps(x))
        assert capsys.readouterr().out.count("steps") == 2   # the graph's, then eager's


# -- what it refuses ------------------------------------------------------------------

def histogram(x):
    counts = {}
    for i in range(x.shape[0]):
        counts[int(x[i])] = counts.get(int(x[i]), 0) + 1
    out = np.zeros(10, np.int64)
    for k, v in counts.items():
        out[k] = v
    return out


def test_a_dict_read_after_the_loop_is_a_clear_refusal():   # today's TypeError, and why
    line = histogram.__code__.co_firstlineno
    with pytest.raises(TypeError, match=rf"unhashable.*\nSo the `for` loop at .*:"
                                              rf"{line + 2} runs as Python when the graph "
                                              rf"runs, and 'counts' is read \(at .*:"
                                              rf"{line + 5} in histogram\) after it"):
        ag.convert(histogram)(np.array([1, 2, 2]))


def int_total(x):
    stack = [0]
    total = 0
    while stack:
        v = stack.pop()
        total = total + x[v]
        if x[v] > 0 and v + 1 < x.shape[0]:
            stack.append(v + 1)
    return total


def test_a_number_of_another_type_when_it_runs_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match=r"the `while` loop at .* bound 'total' to float64"):
        ag.convert(int_total)(np.array([0.5, 1.5]))


class Slotted:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def hidden_value(x):
    box = Slotted(x)
    stack = [0]
    total = x[0] * 0
    while stack:
        v = stack.pop()
        total = total + box.value[v]
        if v + 1 < x.shape[0] and x[v] > 0:
            stack.append(v + 1)
    return total


def test_a_traced_value_it_cannot_see_is_an_error_when_it_runs():
    with pytest.raises(ag.TracingError, match="reached a value of the trace it was not given"):
        ag.convert(hidden_value)(np.array([1.0, 2.0]))


def test_no_gradient_through_it_a_clear_error():
    line = traced_steps.__code__.co_firstlineno + 4
    with pytest.raises(ag.TracingError, match=rf"`while` loop at .*:{line} has no gradient"):
        ag.grad(traced_steps)(np.array([1.0, 2.0]))


def test_onnx_export_is_refused_naming_the_loop(tmp_path):
    pytest.importorskip("onnx", reason="the onnx extra is not installed")
    with pytest.raises(ag.ExportError, match=r"`while` loop at .* runs as Python"):
        ag.export_onnx(ag.convert(bfs), tmp_path / "m.onnx", _graph(4), 0)


@pytest.mark.skipif(not native.available(), reason="Numba is not installed (the native extra)")
def test_the_native_tier_says_why_it_keeps_the_numpy_tier():
    concrete = ag.convert(bfs, tier="native").get_concrete_function(_graph(5), 0)
    assert concrete.tier != "native"
    assert "python_block" in concrete.tier_reason
