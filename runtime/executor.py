"""`Executor`: a small interpreter for graphs, made to be subclassed.

Graph functions run through `codegen.compile_graph`, which is faster; the
executor runs the same kernels one equation at a time and is the place to
hook in for debugging: override `run_eqn` to dump values or time each
equation. It is recursive: the kernels of higher-order primitives (`cond`,
`while_loop`, `call`) get `run_graph` as their callback, so `run_eqn` also
sees every equation of a loop body (once per iteration) and of the branch a
`cond` takes. Values are freed after their last use, and an error raised by a
kernel keeps its type and gains a note naming the equation, its graph and the
user's line. As in compiled graphs, an output that is a constant's or a
variable's own array is returned as a copy.

>>> import numpy as np
>>> from autograph_runtime import GraphBuilder, AbstractValue
>>> with GraphBuilder("f") as b:
...     x = b.new_input(AbstractValue((2,), np.float64), "x")
...     y = np.exp(x) + 1
>>> Executor(b.build([y])).run(np.zeros(2))
[array([2., 2.])]
"""
from __future__ import annotations

import dataclasses

from .aliasing import storage_outputs
from .backend import CPU
from .errors import add_note_once
from .ir import Graph, Literal
from .printing import format_param, shown_params


@dataclasses.dataclass
class _Plan:
    """What running one graph needs, prepared once: bound kernels, constants, last uses."""

    graph: Graph
    kernels: list
    consts: dict
    last_use: list
    copied_outputs: set  # constants' or variables' own arrays


class Executor:
    """Runs `graph` (and its subgraphs) on `backend`, equation by equation.

    >>> import numpy as np
    >>> from autograph_runtime import AbstractValue, GraphBuilder, while_loop
    >>> with GraphBuilder("halve") as b:
    ...     x = b.new_input(AbstractValue((), np.float64), "x")
    ...     y = while_loop(lambda v: v > 1, lambda v: v / 2, x)
    >>> class Tracing(Executor):
    ...     def run_eqn(self, eqn, kernel, values):
    ...         print(eqn.primitive, *values)
    ...         return kernel(*values)
    >>> Tracing(b.build([y])).run(np.float64(3.0))
    while_loop 3.0
    greater 3.0 1
    divide 3.0 2
    greater 1.5 1
    divide 1.5 2
    greater 0.75 1
    [array(0.75)]
    """

    def __init__(self, graph: Graph, backend=CPU):
        self.graph = graph
        self.backend = backend
        self._plans: dict[int, _Plan] = {}
        self._plan(graph)

    def _plan(self, graph: Graph) -> _Plan:
        plan = self._plans.get(id(graph))
        if plan is None:
            kernels = [self.backend.eqn_kernel(e, self.run_graph)
                       for e in graph.eqns]
            consts = {v.id: self.backend.asarray(x) for v, x in graph.consts.items()}
            plan = _Plan(graph, kernels, consts, self._last_uses(graph), storage_outputs(graph))
            self._plans[id(graph)] = plan
        return plan

    @staticmethod
    def _last_uses(graph):
        keep = {a.id for a in graph.outputs if not isinstance(a, Literal)}
        last: dict[int, int] = {}
        for i, eqn in enumerate(graph.eqns):
            for atom in eqn.inputs:
                if not isinstance(atom, Literal) and atom.id not in keep:
                    last[atom.id] = i
        dead: list[list[int]] = [[] for _ in graph.eqns]
        for var_id, i in last.items():
            dead[i].append(var_id)
        return dead

    def run(self, *args) -> list:
        """The graph's outputs for the given input arrays, as a list."""
        return self._run(self._plans[id(self.graph)], args)

    def run_graph(self, graph: Graph):
        """A function of `graph`'s inputs running it through this executor (a subgraph too).

        Like a compiled graph, it returns scalars as 0-d arrays, Python numbers
        (weak values) as they are (`run` returns all as the kernels give them).
        """
        plan = self._plan(graph)
        asarray = self.backend.xp.asarray

        def run(*args):
            values = self._run(plan, args)
            return [asarray(x) if a.aval.ndim == 0 and not a.aval.weak else x
                    for a, x in zip(graph.outputs, values)]
        return run

    def _run(self, plan: _Plan, args) -> list:
        graph = plan.graph
        if len(args) != len(graph.inputs):
            raise TypeError(f"graph {graph.name!r} takes {len(graph.inputs)} inputs, "
                            f"got {len(args)}")
        env = dict(plan.consts)
        env.update((v.id, x) for v, x in zip(graph.inputs, args))
        for i, eqn in enumerate(graph.eqns):
            values = [a.value if isinstance(a, Literal) else env[a.id] for a in eqn.inputs]
            try:
                results = self.run_eqn(eqn, plan.kernels[i], values)
            except Exception as error:
                add_note_once(error, self.describe(eqn, graph))
                raise
            if eqn.primitive.multiple_results:
                env.update((v.id, r) for v, r in zip(eqn.outputs, results))
            else:
                env[eqn.outputs[0].id] = results
            for var_id in plan.last_use[i]:
                env.pop(var_id, None)
        return [a.value if isinstance(a, Literal) else
                env[a.id].copy() if i in plan.copied_outputs else env[a.id]
                for i, a in enumerate(graph.outputs)]

    def run_eqn(self, eqn, kernel, values):
        """Runs one equation (of the graph or of a subgraph); override to observe or time it."""
        return kernel(*values)

    def describe(self, eqn, graph: Graph | None = None) -> str:
        """A one-line description of `eqn` (an equation of `graph`) for error notes."""
        params = ", ".join(f"{k}={format_param(v)}" for k, v in shown_params(eqn).items()
                           if not isinstance(v, tuple))
        where = f", traced from {eqn.source}" if eqn.source else ""
        types = ", ".join(str(a.aval) for a in eqn.inputs)
        name = (graph or self.graph).name
        return (f"raised by {eqn.primitive.name}{f'[{params}]' if params else ''}({types}) "
                f"in graph {name!r}{where}")
