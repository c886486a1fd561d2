"""Where a first call's time goes: (i) and (j) of `fresh_first_call.py`, phase by phase.

Each repetition is a fresh Python process (`--child`) that imports the library,
wraps the functions of each phase in timers (exclusive time: a phase nested in
another is not counted twice), then times `ag.convert(fn)(*args)` once. The
table gives the median of each phase over the processes, in ms:

    phase                                   lstm ms  fifty ms
    convert: parse (linecache, ast)            0.40      0.45
    convert: ast -> gast                       0.60      1.30
    convert: ifs                               0.30      2.10
    ...
    total (timed with the wrappers)           19.00     48.00

The wrappers add a few µs per wrapped call, so the total is a little above
`fresh_first_call.py`'s. Callees converted during tracing (the LSTM cell) count
in the `convert:` and `load:` rows; `trace` is what is left of tracing (running the
converted code on Tracers, staging, naming). `imports` is `import` statements run
during the call (modules imported lazily, on first use); `gc` is the garbage
collector's passes, wherever they fell (a process's allocations place them).

Run:  python bench/first_call_phases.py [--reps N]
"""
from __future__ import annotations

import argparse
import ast
import builtins
import gc
import json
import os
import statistics
import subprocess
import sys
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class Phases:
    """Exclusive time per label: a wrapped call charges its label until it returns,
    except while a call wrapped inside it runs."""

    def __init__(self):
        self.stack = ["outside"]
        self.times: dict[str, float] = {}
        self.mark = time.perf_counter()

    def _switch(self):
        now = time.perf_counter()
        top = self.stack[-1]
        self.times[top] = self.times.get(top, 0.0) + now - self.mark
        self.mark = now

    def wrap(self, fn, label):
        phases = self

        def timed(*args, **kwargs):
            phases._switch()
            phases.stack.append(label)
            try:
                return fn(*args, **kwargs)
            finally:
                phases._switch()
                phases.stack.pop()
        timed.__wrapped__ = fn
        return timed

    def collecting(self, phase, info):
        """A `gc.callbacks` hook: collections count as a phase of their own."""
        self._switch()
        if phase == "start":
            self.stack.append("gc (garbage collections)")
        else:
            self.stack.pop()

    def patch(self, owner, attr, label):
        setattr(owner, attr, self.wrap(getattr(owner, attr), label))


def _instrument(phases: Phases) -> None:
    from autograph_runtime import codegen, passes
    from autograph_runtime import tracing as runtime_tracing

    import autograph.concrete as concrete
    import autograph.conversion as conversion
    import autograph.function as function
    from autograph import fast_path, pipeline
    from autograph.pyct import loader, parser

    p = phases.patch
    p(conversion, "parse_function", "convert: parse (linecache, ast)")
    p(parser, "_parse", "convert: parse (linecache, ast)")
    p(parser, "to_gast", "convert: ast -> gast")
    for name in ("_check_supported", "_annotate_origins", "_as_function_def", "_explicit_super",
                 "Namer"):
        p(conversion, name, "convert: checks, origins, names")
    for name, module in pipeline.PIPELINE:
        p(module, "transform", f"convert: {name}")
    p(loader, "_to_ast", "load: gast -> ast")
    fake_ast = types.SimpleNamespace(**vars(ast))
    fake_ast.unparse = phases.wrap(ast.unparse, "load: ast.unparse")
    fake_ast.parse = phases.wrap(ast.parse, "load: ast.parse (again)")
    loader.ast = fake_ast
    p(loader, "_printed", "load: source map")
    loader.compile = phases.wrap(builtins.compile, "load: compile()")
    p(loader, "instantiate", "load: instantiate")
    p(function.GraphFunction, "_trace_once", "trace")
    p(runtime_tracing.GraphBuilder, "build", "trace: build graphs")
    p(concrete, "prune_dead_code", "graph: prune_dead_code")
    passes.PIPELINE = tuple(phases.wrap(t, f"graph: pass {t.__name__}")
                            for t in passes.PIPELINE)
    p(codegen, "lower_scalars", "graph: scalar_lowering")
    p(concrete, "compile_graph", "codegen: write source")
    codegen.compile = phases.wrap(builtins.compile, "codegen: compile()")
    p(concrete.ConcreteFunction, "call_flat", "first run")
    p(function.GraphFunction, "_prepare_short_path", "call: short path set-up")
    p(fast_path, "_caller", "call: short path set-up")
    p(builtins, "__import__", "imports")
    gc.callbacks.append(phases.collecting)


def _child(which: str) -> None:
    import numpy as np

    import autograph as ag
    from control_flow import fifty_lines, lstm_sequence_staged
    from lstm import make_inputs

    if which == "lstm":
        x, h, c, w, u, b = make_inputs(10, 1)
        xs = np.repeat(x[None], 100, axis=0)
        fn, args = lstm_sequence_staged, (xs, h, c, w, u, b, np.int64(100))
    else:
        fn, args = fifty_lines, (np.array([1.0, -2.0, 3.0, 0.5]), np.int64(7), np.float64(100.0))
    phases = Phases()
    _instrument(phases)
    phases.stack = ["convert: other (ag.convert)"]
    phases.mark = start = time.perf_counter()
    graph_fn = ag.convert(fn)
    phases._switch()
    phases.stack = ["call: other (signature, cache, dispatch)"]
    graph_fn(*args)
    phases._switch()
    phases.times["total (timed with the wrappers)"] = time.perf_counter() - start
    print(json.dumps({k: v * 1e3 for k, v in phases.times.items() if k != "outside"}))


def _fresh(which: str) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join([root] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", which],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": path}).stdout
    return json.loads(out.splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=9, help="fresh processes per function")
    reps = parser.parse_args(argv).reps
    runs = {"lstm": [], "fifty": []}
    for _ in range(reps):   # alternately, so drift of the machine hits both alike
        for which in runs:
            runs[which].append(_fresh(which))
    labels = sorted({k for rs in runs.values() for r in rs for k in r},
                    key=lambda k: (k.startswith("total"), k))
    print(f"First call in a fresh process, phase by phase (median of {reps} processes, ms)\n")
    print(f"{'phase':<44}{'lstm ms':>9}{'fifty ms':>10}")
    for label in labels:
        cells = [statistics.median(r.get(label, 0.0) for r in runs[w]) for w in runs]
        print(f"{label:<44}" + "".join(f"{c:>{9 + i}.2f}" for i, c in enumerate(cells)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2])
    else:
        main()
