"""Undoing what tracing a statement did, so that it can be staged another way.

A `try` whose handlers catch kernel errors (`staged_tries`) and a loop refused
for its Python containers (`loop_islands`) are traced first as they are, then,
where that does not do, staged as one `python_block` that runs them as Python
when the graph runs. `TraceUndo` takes the graph back to before the first
trace: the equations it staged are dropped and the arrays it wrote in place
hold their values from before again (it remembers which, `written`: the block
must write them back).
"""
from __future__ import annotations

from autograph_runtime import Tracer, TracingError


class TraceUndo:
    """The graph of `builder` as it is now, with the traced arrays among `values`."""

    def __init__(self, builder, values, what: str, why: str):
        self.builder, self.what, self.why = builder, what, why
        self.start = len(builder.eqns)
        self.before = {id(t): (t, t.node) for t in values if isinstance(t, Tracer)}
        self.written: list = []

    def undo(self) -> None:
        """Drops what was staged since, and puts the arrays written in place back."""
        del self.builder.eqns[self.start:]
        for t, node in self.before.values():
            if t.node is not node:
                t.node = node
                if t.viewing is not None or node.id in self.builder.shares_memory:
                    raise TracingError(
                        f"{self.what} runs as Python when the graph runs ({self.why}), and "
                        f"writes in place an array that shares memory with another; write "
                        f"a copy (`x = x.copy()`) first")
                if not any(t is w for w in self.written):
                    self.written.append(t)
