"""Variables made while a function is traced: when that is allowed, and their values.

A graph function traces its Python function inside a `CreationScope`. On its
first trace variables may be created (the lazily built layer,
`if self.w is None: self.w = Variable(...)`); on any later trace creating one
is an error, since the Python function would make a new variable on every call.

An initial value computed from the function's arguments is a traced value; it
is computed now, outside the graph, from the arguments of the call being
traced (`evaluate_now`): the equations it depends on run once, eagerly.
"""
from __future__ import annotations

import threading

from .effects import effects_of
from .errors import TracingError
from .executor import Executor
from .ir import Graph, Var
from .source import location_note, user_source
from .tracer import Tracer, current_builder
from .tree import flatten


class CreationScope:
    """The rules for variables created while `builder` traces `function`.

    `inputs` maps the builder's input Vars (by id) to the call's concrete
    arrays, or is None where they are unknown (traced from `TensorSpec`s).
    """

    def __init__(self, function: str, builder, allowed: bool, inputs: dict | None):
        self.function = function
        self.builder = builder
        self.allowed = allowed
        self.inputs = inputs
        self.created: list = []   # SourceInfo of each creation

    def __enter__(self):
        _scopes.stack.append(self)
        return self

    def __exit__(self, *exc):
        _scopes.stack.pop()


class _Scopes(threading.local):
    def __init__(self):
        self.stack: list[CreationScope] = []


_scopes = _Scopes()


def concrete_initial_value(value):
    """`value` as a concrete array for a new variable, checking that it may be made now."""
    builder = current_builder()
    if builder is None:
        return value
    where = user_source()
    if builder.parent is not None:
        raise TracingError(
            f"a Variable is created inside a staged if/while/for body{location_note(where)}; "
            f"the body is traced more than once and stands for many runs: create the "
            f"variable before it")
    scope = next((s for s in reversed(_scopes.stack) if s.builder is builder), None)
    if scope is not None:
        if not scope.allowed:
            raise TracingError(
                f"{scope.function} creates a new Variable each time it is traced"
                f"{location_note(where)}; graph functions may create variables on their first "
                f"call only. Create it once (`if self.w is None: self.w = ag.Variable(...)`) "
                f"or outside the function")
        scope.created.append(where)
    if isinstance(value, Tracer):
        return evaluate_now(value, scope, where)
    if any(isinstance(x, Tracer) for x in flatten(value)[0]):
        raise TypeError(f"a Variable's initial value must be one array, not a "
                        f"{type(value).__name__} of traced values{location_note(where)}; "
                        f"combine them with np.stack first")
    return value


def evaluate_now(value: Tracer, scope: CreationScope | None, where=None):
    """The concrete value of `value`, computed from the arguments of the call being traced.

    An argument that is itself a traced value of an enclosing trace (a graph
    function called while another is traced) is computed in that trace's scope.
    """
    builder = value.builder
    needed = {value.node.id}
    cone = []
    for eqn in reversed(builder.eqns):
        if any(v.id in needed for v in eqn.outputs):
            cone.append(eqn)
            needed.update(a.id for a in eqn.inputs if isinstance(a, Var))
    cone.reverse()
    _check_cone(builder, cone, where)
    resources = [(var, variable) for variable, var in builder.resources if var.id in needed]
    inputs = [v for v in builder.inputs if v.id in needed]
    graph = Graph("initial_value", inputs + [var for var, _ in resources], cone, [value.node],
                  {v: c for v, c in builder.consts.items() if v.id in needed})
    [result] = Executor(graph).run(*[_argument(v, scope, where) for v in inputs],
                                   *[variable for _, variable in resources])
    return result


def _argument(var: Var, scope: CreationScope | None, where):
    value = None if scope is None or scope.inputs is None else scope.inputs.get(var.id)
    if isinstance(value, Tracer):
        outer = next((s for s in _scopes.stack if s.builder is value.builder), None)
        return evaluate_now(value, outer, where) if outer is not None else None
    if value is None:
        function = scope.function if scope is not None else "the function"
        raise TracingError(
            f"the initial value of a Variable depends on argument {var.name or '?'} of "
            f"{function}, whose values are unknown while it is traced from TensorSpecs"
            f"{location_note(where)}; call it with arrays first")
    return value


def _check_cone(builder, cone, where):
    written = set()
    for eqn in builder.eqns:
        written |= effects_of(eqn).writes
    for eqn in cone:
        effects = effects_of(eqn)
        if effects.writes or effects.io:
            raise TracingError(
                f"the initial value of a Variable is computed by {eqn.primitive.name}, which "
                f"has side effects{location_note(where)}; compute it from values alone")
        if effects.reads & written:
            raise TracingError(
                f"the initial value of a Variable reads a variable that this function wrote "
                f"before{location_note(where)}; read it before the write, or create the "
                f"new variable outside the function")
