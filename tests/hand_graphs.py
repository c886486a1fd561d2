"""Graphs built by hand for the passes' tests: `build` traces a function of inputs with
abstract values, `run` compiles a graph for the CPU and calls it."""
from __future__ import annotations

import autograph_runtime as runtime
from autograph_runtime import GraphBuilder


def build(fn, *avals, names="xyz"):
    """The graph of `fn` on inputs of `avals` (named after `names`), its results the outputs."""
    with GraphBuilder("f") as builder:
        inputs = [builder.new_input(a, n) for a, n in zip(avals, names)]
        outs = fn(*inputs)
    return builder.build(list(outs))


def run(graph, *args):
    """`graph` compiled for the CPU, called on `args`."""
    return runtime.compile_graph(graph, runtime.get_backend("cpu"))(*args)
