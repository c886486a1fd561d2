"""Higher-order primitives are described by rules keyed by the primitive, not by name."""
import re
from pathlib import Path

import numpy as np
import pytest

from autograph_runtime import AbstractValue, GraphBuilder, compile_graph, get_backend, primitives, while_loop
from autograph_runtime.ops.while_primitive import while_p
from autograph_runtime.serialization import graph_from_data, graph_to_data
from autograph_runtime.verify import verify

RUNTIME = Path(__file__).resolve().parent.parent / "runtime"


def counting_loop():
    with GraphBuilder("f") as builder:
        n = builder.new_input(AbstractValue((), np.int64), "n")
        x = builder.new_input(AbstractValue((3,), np.float64), "x")
        _, y = while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] * 2.0 + x), (0, x))
    return builder.build([y])


def test_every_higher_order_primitive_has_its_rules():
    higher = [p for p in primitives.registry.values() if p.higher_order]
    assert sorted(p.name for p in higher) == ["call", "cond", "errstate", "while_loop"]
    for table in (primitives.subgraph_bindings, primitives.check_rules, primitives.alias_rules,
                  primitives.kernels):
        assert all(p in table for p in higher)


def test_no_pass_switches_on_a_primitive_name():
    pattern = re.compile(r"prim(itive)?\.name\s*(==|!=|in\b|not in\b)")
    found = [f"{path.name}:{k}" for path in RUNTIME.rglob("*.py")
             for k, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert found == []


def test_while_loop_keeps_its_operand_counts_in_its_params_but_does_not_print_them():
    graph = counting_loop()
    [eqn] = [e for e in graph.eqns if e.primitive is while_p]
    assert (eqn.params["num_carry"], eqn.params["num_cond_consts"]) == (2, 1)
    assert "t0:i64[]~weak, t1:f64[3] = while_loop 0 x n x\n" in str(graph)


def _strip_counts(data):
    for entry in data["eqns"]:
        params = entry.get("params", {})
        if entry["op"] == "while_loop":
            del params["num_carry"], params["num_cond_consts"]
        for value in params.values():
            if isinstance(value, dict) and "graph" in value:
                _strip_counts(value["graph"])


def test_a_graph_saved_before_the_counts_were_params_still_loads():
    graph = counting_loop()
    data = graph_to_data(graph, constants := {})
    _strip_counts(data)
    loaded = graph_from_data(data, constants)
    verify(loaded)
    [eqn] = [e for e in loaded.eqns if e.primitive is while_p]
    assert (eqn.params["num_carry"], eqn.params["num_cond_consts"]) == (2, 1)
    args = np.int64(3), np.arange(3.0)
    np.testing.assert_array_equal(compile_graph(loaded, get_backend("cpu"))(*args)[0],
                                  compile_graph(graph, get_backend("cpu"))(*args)[0])


def test_a_higher_order_kernel_needs_a_run_graph_callback():
    [eqn] = [e for e in counting_loop().eqns if e.primitive is while_p]
    with pytest.raises(TypeError, match="run_graph"):
        get_backend("cpu").kernel(while_p, eqn.params)
