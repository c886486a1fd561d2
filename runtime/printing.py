"""Readable text and Graphviz dot for graphs.

Names come from one `Namer` so that the printed graph and the generated Python
agree: a user's variable name where the tracer saw one (`h`, then `h_1` for
the next value bound to `h`), `t0, t1, ...` otherwise.
"""
from __future__ import annotations

import keyword

import numpy as np

from . import primitives
from .abstract import short_dtype
from .ir import Graph, Literal, Var


class Namer:
    """Gives every Var of a graph tree a unique Python identifier."""

    def __init__(self, reserved=()):
        self._names: dict[int, str] = {}
        self._used = set(reserved)
        self._counter = 0
        self._suffix: dict[str, int] = {}   # hint -> the last suffix `_fresh` tried for it

    def __call__(self, var: Var) -> str:
        name = self._names.get(var.id)
        if name is None:
            name = self._names[var.id] = self._fresh(var.name)
        return name

    def _fresh(self, hint):
        """`hint`, else `hint_1`, `hint_2`, ...: the first one not used yet.

        Names are never freed, so the search resumes where the last one for the
        same hint stopped: O(1) per name, however often a variable is re-bound.
        """
        if hint and hint.isidentifier() and not keyword.iskeyword(hint):
            n = self._suffix.get(hint, 0)
            name = f"{hint}_{n}" if n else hint
            while name in self._used:
                n += 1
                name = f"{hint}_{n}"
            self._suffix[hint] = n
        else:
            name = f"t{self._counter}"
            while name in self._used:
                self._counter += 1
                name = f"t{self._counter}"
            self._counter += 1
        self._used.add(name)
        return name

    def atom(self, atom) -> str:
        return repr(atom) if isinstance(atom, Literal) else self(atom)


def format_param(value) -> str:
    if isinstance(value, np.dtype):
        return short_dtype(value)
    if callable(value) and hasattr(value, "__name__"):
        return value.__name__
    return repr(value)


def shown_params(eqn) -> dict:
    """The params printed with `eqn`: not its subgraphs, nor its `primitives.hidden_params`."""
    hidden = primitives.hidden_params.get(eqn.primitive, ())
    return {k: v for k, v in eqn.params.items() if not _is_graphs(v) and k not in hidden}


def _typed(namer, var):
    return f"{namer(var)}:{var.aval}"


def format_graph(graph: Graph, namer: Namer | None = None, indent: str = "",
                 header: str | None = None) -> str:
    """The text form of `graph`, e.g. `c:f32[3] = multiply a b` per equation."""
    namer = namer or Namer()
    head = header or f"graph {graph.name}"
    lines = [f"{indent}{head}({', '.join(_typed(namer, v) for v in graph.inputs)}) {{"]
    inner = indent + "  "
    if graph.consts:
        lines.append(f"{inner}const {', '.join(_typed(namer, v) for v in graph.consts)}")
    for eqn in graph.eqns:
        outs = ", ".join(_typed(namer, v) for v in eqn.outputs) or "_"
        shown = shown_params(eqn)
        params = ("[" + ", ".join(f"{k}={format_param(v)}" for k, v in shown.items()) + "]"
                  if shown else "")
        args = " ".join(namer.atom(a) for a in eqn.inputs)
        lines.append(f"{inner}{outs} = {eqn.primitive.name}{params} {args}".rstrip())
        for key, value in eqn.params.items():
            if isinstance(value, Graph):
                lines.append(format_graph(value, namer, inner + "  ", key))
            elif _is_graphs(value):
                for i, sub in enumerate(value):
                    lines.append(format_graph(sub, namer, inner + "  ", f"{key}[{i}]"))
    lines.append(f"{inner}return {', '.join(namer.atom(a) for a in graph.outputs)}")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def _is_graphs(value) -> bool:
    return isinstance(value, Graph) or (
        isinstance(value, tuple) and bool(value) and all(isinstance(g, Graph) for g in value))


def graph_to_dot(graph: Graph) -> str:
    """Graphviz `dot` source: a node per equation, input and output; edges are values."""
    namer = Namer()
    out = [f'digraph "{graph.name}" {{', "  rankdir=TB;", '  node [fontname="monospace"];']
    _dot_body(graph, namer, out, "  ", "g")
    out.append("}")
    return "\n".join(out)


def _dot_body(graph, namer, out, indent, prefix):
    producer = {}
    for i, var in enumerate(graph.inputs):
        node = f"{prefix}_in{i}"
        out.append(f'{indent}{node} [shape=ellipse, label="{_typed(namer, var)}"];')
        producer[var.id] = node
    for i, var in enumerate(graph.consts):
        node = f"{prefix}_c{i}"
        out.append(f'{indent}{node} [shape=note, label="const {_typed(namer, var)}"];')
        producer[var.id] = node
    for j, eqn in enumerate(graph.eqns):
        node = f"{prefix}_e{j}"
        callee = primitives.callee_params.get(eqn.primitive)
        label = eqn.primitive.name if callee is None else \
            f"{eqn.primitive.name} {eqn.params[callee].name}"   # the callee, not its body
        out.append(f'{indent}{node} [shape=box, label="{label}"];')
        for atom in eqn.inputs:
            source = producer.get(getattr(atom, "id", None))
            if source:
                out.append(f'{indent}{source} -> {node} [label="{namer.atom(atom)}"];')
        for var in eqn.outputs:
            producer[var.id] = node
        if callee is not None:
            continue
        for k, sub in enumerate(g for v in eqn.params.values() if _is_graphs(v)
                                for g in (v if isinstance(v, tuple) else (v,))):
            inner = f"{node}_{k}"
            out.append(f'{indent}subgraph cluster_{inner} {{')
            out.append(f'{indent}  label="{eqn.primitive.name} {sub.name}"; style=dashed;')
            _dot_body(sub, namer, out, indent + "  ", inner)
            out.append(f"{indent}}}")
            # the equation hands its operands to the subgraph and takes its results back
            out.extend(f"{indent}{node} -> {inner}_in{i} [style=dotted, arrowhead=empty];"
                       for i in range(len(sub.inputs)))
            out.extend(f"{indent}{inner}_out{i} -> {node} [style=dotted, arrowhead=empty];"
                       for i in range(len(sub.outputs)))
    for i, atom in enumerate(graph.outputs):
        node = f"{prefix}_out{i}"
        out.append(f'{indent}{node} [shape=ellipse, style=bold, label="out {i}"];')
        source = producer.get(getattr(atom, "id", None))
        if source:
            out.append(f'{indent}{source} -> {node} [label="{namer.atom(atom)}"];')


Graph.__str__ = format_graph   # `print(graph)`
Graph.to_dot = graph_to_dot    # `graph.to_dot()`
