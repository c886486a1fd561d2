"""`FirstTraceCreates`: which traces of a graph function may create `ag.Variable`s.

Variables may be created on the first trace only (the lazily built layer,
`if self.w is None: self.w = ag.Variable(...)`). A first trace that creates
some is repeated: once the variables exist, the Python function must not
create more, so the graph comes from the second trace, and a function that
creates variables every time it runs fails there. The rules inside one trace
(initial values from the arguments, none inside staged bodies) are
`runtime.variable_scope.CreationScope`'s.
"""
from __future__ import annotations

from autograph_runtime.variable_scope import CreationScope


class FirstTraceCreates:
    """The variable-creation policy of one graph function."""

    def __init__(self, function_name: str):
        self.function_name = function_name
        self.may_create = True   # until the first trace succeeds

    def trace(self, trace_once):
        """Runs `trace_once(allowed)` (-> (result, created)) as the policy says; the result."""
        result, created = trace_once(self.may_create)
        if created:
            result, _ = trace_once(False)
        self.may_create = False
        return result

    def scope(self, builder, allowed: bool, inputs: dict | None) -> CreationScope:
        """The scope one trace runs in; `inputs` maps input Var ids to the call's arrays."""
        return CreationScope(self.function_name, builder, allowed, inputs)
