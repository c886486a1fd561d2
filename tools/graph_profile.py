"""Time each equation of a graph function: where does a call spend its time?

    python tools/graph_profile.py FILE.py::FUNC SPEC... [--runs N]

Traces FUNC for the SPECs (as `agc` reads them), feeds random inputs of those
types, runs the graph through a timing `Executor` and prints the equations,
slowest first, with their median time per run. The executor is recursive, so
the equations of loop bodies and branches follow their `while_loop` or `cond`,
indented and qualified by their graph's name, with their time summed over a
run and how many times a run executes them (`x12`).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from autograph.cli import UsageError, load_function
from autograph.function import GraphFunction
from autograph.specs import TensorSpec, parse_spec
from autograph_runtime.backend import CPU
from autograph_runtime.executor import Executor


class TimingExecutor(Executor):
    """An executor that records how long each equation takes, each time it runs."""

    def __init__(self, graph, backend=CPU):
        super().__init__(graph, backend)
        self.times: dict[int, list[float]] = {}

    def run_eqn(self, eqn, kernel, values):
        start = time.perf_counter_ns()
        result = kernel(*values)
        self.times.setdefault(id(eqn), []).append(time.perf_counter_ns() - start)
        return result


def profile(executor: TimingExecutor, arrays, runs: int) -> dict[int, tuple[float, float]]:
    """For each equation that ran: (median µs per run, median executions per run)."""
    totals: dict[int, list[float]] = {}
    counts: dict[int, list[int]] = {}
    for _ in range(runs):
        executor.times.clear()
        executor.run(*arrays)
        for key, times in executor.times.items():
            totals.setdefault(key, []).append(sum(times) / 1e3)
            counts.setdefault(key, []).append(len(times))
    return {key: (_median(totals[key], runs), _median(counts[key], runs)) for key in totals}


def _median(values, runs):
    """The median over `runs` runs, of which those missing from `values` count as 0."""
    return statistics.median(values + [0] * (runs - len(values)))


def rows(graph, stats, depth=0, prefix=""):
    """`(µs, label)` per equation, slowest first, each followed by its subgraphs' rows."""
    ranked = sorted(((stats.get(id(e), (0.0, 0))[0], i, e) for i, e in enumerate(graph.eqns)),
                    key=lambda r: (-r[0], r[1]))
    for micros, _, eqn in ranked:
        types = ", ".join(str(a.aval) for a in eqn.inputs)
        where = f"  ({eqn.source})" if eqn.source else ""
        count = stats.get(id(eqn), (0.0, 0))[1]
        times = f"  x{count:g}" if depth else ""
        yield micros, f"{'  ' * depth}{prefix}{eqn.primitive.name}({types}){times}{where}", depth
        for sub in eqn.subgraphs():
            yield from rows(sub, stats, depth + 1, f"{sub.name}: ")


def random_input(spec, rng):
    if not isinstance(spec, TensorSpec):
        return spec
    shape = tuple(4 if d is None else d for d in spec.shape)
    if spec.dtype == bool:
        return rng.random(shape) > 0.5
    return rng.standard_normal(shape).astype(spec.dtype) if spec.dtype.kind in "fc" \
        else rng.integers(0, 4, shape).astype(spec.dtype)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target")
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args(argv)
    try:
        function = load_function(args.target)
        specs = [parse_spec(s) for s in args.specs]
    except (UsageError, ValueError) as error:
        print(f"graph_profile: error: {error}", file=sys.stderr)
        return 2
    if not isinstance(function, GraphFunction):
        function = GraphFunction(function)
    rng = np.random.default_rng(0)
    inputs = [random_input(s, rng) for s in specs]
    concrete = function.get_concrete_function(*inputs)
    executor = TimingExecutor(concrete.graph)
    arrays = [x for x in inputs if isinstance(x, np.ndarray)]
    stats = profile(executor, arrays, args.runs)
    table = list(rows(concrete.graph, stats))
    total = sum(micros for micros, _, depth in table if depth == 0)
    print(f"{'µs':>9}  {'share':>6}  equation")
    for micros, label, _ in table:
        print(f"{micros:9.2f}  {micros / total if total else 0:6.1%}  {label}")
    print(f"{total:9.2f}  total of medians over {args.runs} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
