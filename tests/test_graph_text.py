"""The printed graph: user names, `f32[3,?]` types, indented subgraphs; verified IR."""
import collections
import re
import sys

import numpy as np
import pytest

import autograph as ag
from autograph_runtime import cond, while_loop
from autograph_runtime.verify import verify

F32 = np.float32


def graph_of(fn, *args, oracle=None, **kwargs):
    """The verified graph of `fn` for `args`; checks the graph function against the oracle
    (`fn` itself, run eagerly, unless it calls `runtime.cond`/`while_loop`, which only stage)."""
    g = ag.convert(fn)
    concrete = g.get_concrete_function(*args, **kwargs)
    verify(concrete.graph)
    arrays = [a for a in args if not isinstance(a, ag.TensorSpec)]
    if len(arrays) == len(args):
        np.testing.assert_allclose(g(*args, **kwargs), (oracle or fn)(*args, **kwargs), rtol=1e-6)
    return concrete.graph


def lines_of(graph):
    return [line.strip() for line in str(graph).splitlines()]


def mlp(x, w, v):
    hidden = x @ w
    activated = np.tanh(hidden)
    return activated @ v


def test_values_are_named_after_user_variables():
    graph = graph_of(mlp, np.ones((4, 3), F32), np.ones((3, 5), F32), np.ones((5, 2), F32))
    lines = lines_of(graph)
    assert lines[0] == "graph mlp(x:f32[4,3], w:f32[3,5], v:f32[5,2]) {"
    assert lines[1] == "hidden:f32[4,5] = matmul x w"
    assert lines[2] == "activated:f32[4,5] = tanh hidden"
    assert re.fullmatch(r"(\w+):f32\[4,2\] = matmul activated v", lines[3])
    assert lines[-2] == f"return {lines[3].split(':')[0]}"
    assert lines[-1] == "}"


def test_unknown_dims_print_as_question_marks():
    graph = graph_of(mlp, ag.TensorSpec((None, 3), F32), ag.TensorSpec((3, None), F32),
                     ag.TensorSpec((None, 2), F32))
    lines = lines_of(graph)
    assert lines[0] == "graph mlp(x:f32[?,3], w:f32[3,?], v:f32[?,2]) {"
    assert lines[1].startswith("hidden:f32[?,?] = matmul")


@pytest.mark.parametrize("dtype, short", [(np.float32, "f32"), (np.float64, "f64"),
                                          (np.int32, "i32"), (np.int64, "i64"),
                                          (np.bool_, "bool")])
def test_dtype_abbreviations(dtype, short):
    graph = graph_of(lambda x: x.sum(), np.ones((3, 2), dtype))
    assert f"(x:{short}[3,2])" in lines_of(graph)[0]


def test_scalars_print_with_empty_brackets():
    def f(x):
        total = x.sum()
        return total
    assert "total:f64[] = sum" in str(graph_of(f, np.ones(3)))


def test_rebound_names_get_suffixes():
    def f(x):
        h = x * 2
        h = h + 1
        h = np.exp(h)
        return h
    lines = lines_of(graph_of(f, np.ones(2)))
    assert [line.split(":")[0] for line in lines[1:4]] == ["h", "h_1", "h_2"]


def test_structured_inputs_are_named_by_their_path():
    Pair = collections.namedtuple("Pair", "w b")

    def f(params, pair, x):
        return x @ params["weights"] + pair.b

    graph = graph_of(f, {"weights": np.ones((2, 2))}, Pair(3, np.ones(2)), np.ones((1, 2)))
    header = lines_of(graph)[0]
    assert header.startswith("graph f(")
    for name in ("params_weights:f64[2,2]", "pair_b:f64[2]", "x:f64[1,2]"):
        assert name in header


def test_names_are_unique_identifiers_and_stable():
    def f(x):
        a = x + 1
        b = a * a
        return b - a
    graph = graph_of(f, np.ones(3))
    assert str(graph) == str(graph)
    defined = [line.split(":")[0] for line in lines_of(graph)[1:-2]]
    assert len(defined) == len(set(defined))
    assert all(name.isidentifier() for name in defined)


def test_cond_branches_print_indented():
    def f(x):
        positive = x.sum() > 0
        result = cond(positive, lambda a: a * 2, lambda a: a - 1, x)
        return result
    graph = graph_of(f, np.arange(3.0), oracle=lambda x: x * 2 if x.sum() > 0 else x - 1)
    text = str(graph).splitlines()
    [i] = [k for k, line in enumerate(text) if "= cond positive" in line]
    depth = len(text[i]) - len(text[i].lstrip())
    true_line, false_line = [line for line in text if re.match(r"\s*(true|false)\(", line)]
    for line in (true_line, false_line):
        assert len(line) - len(line.lstrip()) > depth
        assert "f64[3]" in line
    assert any("multiply" in line and len(line) - len(line.lstrip()) > depth for line in text)
    g = ag.convert(f)
    for x in (np.arange(3.0), -np.arange(3.0)):  # runtime.cond only stages: NumPy is the oracle
        np.testing.assert_array_equal(g(x), x * 2 if x.sum() > 0 else x - 1)


def test_while_body_and_condition_print_indented():
    def f(x, n):
        def body(state):
            i, acc = state
            grown = acc * 2
            return i + 1, grown
        _, out = while_loop(lambda s: s[0] < n, body, (np.int64(0), x))
        return out
    graph = graph_of(f, np.ones(2), np.int64(3), oracle=lambda x, n: x * 2 ** n)
    text = str(graph).splitlines()
    [i] = [k for k, line in enumerate(text) if "= while_loop" in line]
    depth = len(text[i]) - len(text[i].lstrip())
    heads = [line for line in text if re.match(r"\s*(cond|body)\(", line)]
    assert len(heads) == 2
    assert all(len(line) - len(line.lstrip()) > depth for line in heads)
    assert any(line.strip().startswith("grown:f64[2] = multiply") for line in text)
    g = ag.convert(f)
    for n in (0, 1, 4):  # runtime.while_loop only stages: NumPy is the oracle
        np.testing.assert_array_equal(g(np.ones(2), np.int64(n)), np.ones(2) * 2 ** n)


def test_nested_control_flow_verifies_and_matches_eager():
    def f(x, n):
        def body(state):
            i, acc = state
            acc = cond(acc.sum() > 10, lambda a: a * 0.5, lambda a: a + 1, acc)
            return i + 1, acc
        return while_loop(lambda s: s[0] < n, body, (np.int64(0), x))[1]

    def eager(x, n):
        for _ in range(n):
            x = x * 0.5 if x.sum() > 10 else x + 1
        return x
    g = ag.convert(f)
    verify(g.get_concrete_function(np.ones(2), np.int64(0)).graph)
    text = str(g.get_concrete_function(np.ones(2), np.int64(0)).graph)
    cond_line = next(line for line in text.splitlines() if "= cond " in line)
    while_line = next(line for line in text.splitlines() if "= while_loop" in line)
    assert len(cond_line) - len(cond_line.lstrip()) > len(while_line) - len(while_line.lstrip())
    for n in (0, 3, 20):
        np.testing.assert_array_equal(g(np.ones(2), np.int64(n)), eager(np.ones(2), n))


def test_dot_has_a_node_per_equation_and_clusters_for_subgraphs():
    def f(x):
        return cond(x.sum() > 0, lambda a: np.sin(a), lambda a: np.cos(a), x)
    graph = graph_of(f, np.ones(3), oracle=lambda x: np.sin(x) if x.sum() > 0 else np.cos(x))
    dot = graph.to_dot()
    assert dot.startswith('digraph "f" {') and dot.rstrip().endswith("}")
    assert dot.count("subgraph cluster_") == 2
    for op in ("sum", "greater", "cond", "sin", "cos"):
        assert f'label="{op}"' in dot
    assert dot.count("{") == dot.count("}")
    # the cond node hands its operand to each branch and takes each branch's result back
    node = next(line.split()[0] for line in dot.splitlines() if 'label="cond"' in line)
    for branch in (0, 1):
        assert f"{node} -> {node}_{branch}_in0 [style=dotted" in dot
        assert f"{node}_{branch}_out0 -> {node} [style=dotted" in dot


def test_dot_names_a_callee_instead_of_repeating_its_body():
    inner = ag.convert(lambda x: np.tanh(x) * 2.0)

    @ag.convert
    def outer(x):
        return inner(x) + 1.0

    dot = outer.get_concrete_function(np.ones(3)).graph.to_dot()
    assert 'label="call <lambda>"' in dot
    assert "cluster_" not in dot and "tanh" not in dot


def test_verify_passes_on_a_variety_of_graphs():
    x = np.arange(12.0).reshape(3, 4)
    functions = [
        lambda a: a.T @ a,
        lambda a: np.concatenate([a, a * 2], axis=0).max(axis=1),
        lambda a: np.where(a > 3, a, -a).cumsum(axis=1),
        lambda a: np.stack([a.sum(axis=0), a.mean(axis=0)]),
        lambda a: np.clip(a[1:, ::2], 2, 9).reshape(-1),
        lambda a: np.sort(-a, axis=1)[:, 0] + np.argsort(a, axis=1)[:, -1],
        lambda a: np.einsum("ij,kj->ik", a, a),
    ]
    for fn in functions:
        graph_of(fn, x)


def test_names_do_not_need_the_trace_hook():
    """Names come from the bytecode, so a debugger's or coverage's trace function keeps them."""
    def f(x):
        hidden = x * 3
        return hidden + 1
    previous = sys.gettrace()
    sys.settrace(lambda frame, event, arg: None)
    try:
        g = ag.convert(f)
        out = g(np.ones(2))
        text = str(g.get_concrete_function(np.ones(2)).graph)
    finally:
        sys.settrace(previous)
    np.testing.assert_array_equal(out, f(np.ones(2)))
    assert "hidden:f64[2] = multiply x 3" in text, text


def _scaled(v):
    return np.tanh(v) * 2


def stores_of_every_kind(x):
    h = np.tanh(x) * 2            # only the multiply is `h`
    a, b = x                      # unpacking a traced value
    y = _scaled(x)                # returned by a helper, stored by the caller
    total = h.sum()
    for row in x:                 # a loop variable
        total = total + row.sum()
    return h, a, b, y, total


@pytest.mark.parametrize("autograph, row", [(False, "row"), (True, "itr")],
                         ids=["traced-as-is", "converted"])  # converted: `def loop_body(itr, ...)`
def test_names_come_from_the_variables_stores_write(autograph, row):
    g = ag.convert(stores_of_every_kind, autograph=autograph)
    lines = lines_of(g.get_concrete_function(np.ones((2, 3))).graph)
    assert lines[1:14] == [
        "t0:f64[2,3] = tanh x",
        "h:f64[2,3] = multiply t0 2",
        "a:f64[3] = getitem[index=(0,)] x",
        "b:f64[3] = getitem[index=(1,)] x",
        "t1:f64[2,3] = tanh x",
        "y:f64[2,3] = multiply t1 2",
        "total:f64[] = sum[axis=None, keepdims=False] h",
        f"{row}:f64[3] = getitem[index=(0,)] x",
        f"t2:f64[] = sum[axis=None, keepdims=False] {row}",
        "total_1:f64[] = add total t2",
        f"{row}_1:f64[3] = getitem[index=(1,)] x",
        f"t3:f64[] = sum[axis=None, keepdims=False] {row}_1",
        "total_2:f64[] = add total_1 t3",
    ]
