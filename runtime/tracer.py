"""Tracing: recording NumPy code into a `Graph`.

A `GraphBuilder` collects equations; while it is active (`with builder:`),
`bind(primitive, *args, **params)` appends an equation and returns `Tracer`s,
the symbolic arrays user code computes with (see `runtime.tracer_value`).
Builders nest: a subgraph (a `cond` branch, a loop body) that reads a value of
an enclosing graph captures it as an extra input, so every graph is closed.
"""
from __future__ import annotations

import contextlib
import re
import threading
import weakref

import numpy as np

from . import primitives, views, weak_joins
from .abstract import AbstractValue
from .call_modes import modes
from .errors import TracingError, add_note_once
from .ir import Eqn, Graph, Literal, Var
from .naming import note_equation
from .source import location_note, user_source
from .tracer_value import Tracer

_PYTHON_SCALARS = (bool, int, float, complex)


class _TraceStack(threading.local):
    def __init__(self):
        self.builders: list[GraphBuilder] = []


_stack = _TraceStack()


def _push(builder) -> None:
    _stack.builders.append(builder)
    modes.enter()


def _pop() -> None:
    _stack.builders.pop()
    modes.leave()


def current_builder() -> "GraphBuilder | None":
    """The innermost active builder of this thread, or None outside tracing."""
    builders = _stack.builders
    return builders[-1] if builders else None


@contextlib.contextmanager
def recording_in(builder):
    """Makes `builder` the current one for the block, wherever tracing stands (a view
    derived for a block's graph while another builds it, say)."""
    _push(builder)
    try:
        yield builder
    finally:
        _pop()


@contextlib.contextmanager
def outside_tracing():
    """No builder is current in the block (Python run when a graph runs, in a kernel,
    must not record into a graph being traced meanwhile); the stack is put back after."""
    saved, _stack.builders = _stack.builders, []
    try:
        yield
    finally:
        _stack.builders = saved


class GraphBuilder:
    """Records one graph. Use as a context manager around the traced code."""

    read_variable_p = None  # the primitive reading a Variable operand (runtime.ops.state sets it)

    def __init__(self, name: str, parent: "GraphBuilder | None" = None):
        self.name = name
        self.parent = parent
        self.inputs: list[Var] = []
        self.eqns: list[Eqn] = []
        self.consts: dict[Var, object] = {}
        self._const_vars: dict[int, tuple] = {}   # id(value) -> (Var, value)
        self.captures: list[tuple] = []          # (outer atom, inner Var)
        self.encloser: GraphBuilder | None = None  # a root's: the trace it was made in
        self.closure: list[tuple] = []           # a root's (encloser's Tracer, inner Var)
        self.shares_memory: set[int] = set()      # Vars that are NumPy views, or have views
        self._captured: dict[int, Var] = {}       # id(outer Var) -> inner Var
        self._captured_atoms: dict[int, Var] = {} # id(parent's atom) -> inner Var
        self.resources: list[tuple] = []          # (Variable, resource Var): a root's inputs
        self._resource_vars: dict[int, Var] = {}  # id(Variable) -> its resource Var here
        self.finished = False
        self.read_unknown_dims = False            # Python code read a None in a `.shape`
        self.maybe_arrays: set[int] = set()       # 0-d Vars that may be 0-d arrays, not scalars
        self.joined_weak: dict = {}               # Var id -> (its Python type on some path, origin)
        self.stand_ins: dict = {}                 # id(outer Tracer) -> (it, the input for it)
        self.used_stand_ins: set[int] = set()     # ids of those inputs that views derive from
        self.derived: dict = {}    # id(outer view) -> (it, its value derived from an input)

    def note_unknown_dim_read(self) -> None:
        """Records, on the root graph's builder, that Python code read an unknown dimension."""
        root = self
        while root.parent is not None:
            root = root.parent
        root.read_unknown_dims = True

    def __enter__(self):
        if self.parent is not None and self.parent is not current_builder():
            raise RuntimeError("a child builder must be entered inside its parent")
        _push(self)
        return self

    def __exit__(self, *exc):
        _pop()

    def new_input(self, aval, name: str | None = None, maybe_array: bool | None = None):
        """A new input. A 0-d input of a root graph may be a NumPy scalar or a 0-d
        array (they share a signature); a subgraph's is what `maybe_array` says."""
        var = Var(aval, name)
        self.inputs.append(var)
        if aval.ndim == 0 and (self.parent is None if maybe_array is None else maybe_array):
            self.maybe_arrays.add(var.id)
        return Tracer(self, var)

    def is_ancestor_of(self, other: "GraphBuilder") -> bool:
        while other is not None:
            if other is self:
                return True
            other = other.parent
        return False

    def atom(self, x):
        """`x` as an atom of this graph: captured, lifted or made a literal."""
        if isinstance(x, Tracer):
            if x.builder is self:
                return x.node
            if self.stand_ins:  # an input stands for x, or for the value x views
                _push(self)
                try:
                    inner = views.inner_version(self, x)
                finally:
                    _pop()
                if inner is not None:
                    return inner.node
            return self._lift(x)
        if isinstance(x, _PYTHON_SCALARS) or isinstance(x, np.generic):
            return Literal(x)
        if hasattr(type(x), "__ag_read__"):  # a Variable as an operand: a read
            return self.add_eqn(self.read_variable_p, [self.resource(x)], {}).node
        return self.const(x)

    def resource(self, variable) -> Var:
        """The Var standing for `variable`'s resource in this graph.

        A root graph takes it as an input (after the arrays); a subgraph
        captures it from its parent, as it captures values.
        """
        var = self._resource_vars.get(id(variable))
        if var is None:
            var = Var(variable.resource_type, re.sub(r"\W", "_", variable.name))
            if self.parent is None:
                self.resources.append((variable, var))
            else:
                self.captures.append((self.parent.resource(variable), var))
            self._resource_vars[id(variable)] = var
        return var

    def const(self, value) -> Var:
        """A captured array, captured once however often it is used, and again once
        the array has changed (a NumPy array the traced code writes between uses).

        The graph keeps the value at trace time (`captured_value`: one read-only
        snapshot, shared by every graph that captures the array unchanged).
        """
        known = self._const_vars.get(id(value))
        if known is None or _changed(value, self.consts[known[0]]):
            array = captured_value(value)
            if array.dtype == object:
                raise TracingError(
                    f"cannot use a {type(value).__name__} as an array in a traced function"
                    f"{location_note(user_source())}; where a staged `if` or loop joins it "
                    f"with a traced value (`best = None`, then `best = x[i]` under a traced "
                    f"condition), give it a value of the same kind on every path "
                    f"(`best = np.inf`, an array)")
            var = Var(AbstractValue(array.shape, array.dtype), None)
            self.consts[var] = array
            if array.ndim == 0:
                self.maybe_arrays.add(var.id)
            self._const_vars[id(value)] = (var, value)  # holding value keeps its id unique
            return var
        return known[0]

    def enclosing(self):
        """This builder, then the builders it can read values of: its parents, and a
        root's encloser (the trace it was made in: a graph function called while
        another traces) with that one's own."""
        builder = self
        while builder is not None:
            yield builder
            builder = builder.parent if builder.parent is not None else builder.encloser

    def _lift(self, tracer: "Tracer") -> Var:
        if self.parent is None:
            return self._close_over(tracer)
        if not any(b is tracer.builder for b in self.parent.enclosing()):
            raise _escaped(tracer, self)
        inner = self._captured.get(tracer.node.id)
        if inner is None:
            outer = self.parent.atom(tracer)
            inner = self._captured_atoms.get(outer.id)
        if inner is None:  # one capture per atom of the parent (two Tracers may stand for one)
            inner = self._var_for(tracer)
            self.captures.append((outer, inner))
            self._captured_atoms[outer.id] = inner
        self._captured[tracer.node.id] = inner
        return inner

    def _close_over(self, tracer: "Tracer") -> Var:
        """A root graph made while another traces (a graph function called in it, or
        `ag.grad` of one) takes a value of that trace as an input of its own: the
        caller passes it (`closure`), as JAX and TF capture a closed-over tracer."""
        if self.encloser is None or not any(b is tracer.builder
                                            for b in self.encloser.enclosing()):
            raise _escaped(tracer, self)
        for outer, inner in self.closure:
            if outer.node is tracer.node:
                return inner
        inner = self._var_for(tracer)
        self.closure.append((tracer, inner))
        return inner

    def caller_write_error(self, target: "Tracer", what: str) -> TracingError | None:
        """The error for `what` writing in place `target`, a value of the trace that
        called the graph function this graph belongs to; None where it is not one."""
        root = self
        while root.parent is not None:
            root = root.parent
        if root.encloser is None or not any(b is target.builder
                                            for b in root.encloser.enclosing()):
            return None
        return TracingError(
            f"{what} writes in place {target.node.name or 'a value'}, a traced value of the "
            f"function calling {root.name!r}{location_note(user_source())}: a graph "
            f"function reads its caller's values but does not write them; return the new "
            f"value instead")

    def _var_for(self, tracer: "Tracer") -> Var:
        """A new Var of this graph standing for another graph's `tracer`, as that knew it."""
        inner = Var(tracer.aval, tracer.node.name)
        if tracer.node.id in tracer.builder.maybe_arrays:
            self.maybe_arrays.add(inner.id)
        if tracer.node.id in tracer.builder.joined_weak:
            self.joined_weak[inner.id] = tracer.builder.joined_weak[tracer.node.id]
        return inner

    def add(self, prim, args, params):
        """Appends `prim(*args, **params)`; returns the output Tracer(s).

        An output that is a NumPy view of a traced first argument is linked to
        it (`runtime.views`), so that writes in place reach both.
        """
        out = self.add_eqn(prim, [self.atom(a) for a in args], params)
        if prim.views and not prim.multiple_results and isinstance(args[0], Tracer) \
                and out.node.id in self.shares_memory:
            rule = views.view_rules.get(prim)
            how = rule and rule(*args, **params)
            if how is views.COPY:
                self.shares_memory.discard(out.node.id)
            else:
                views.link(out, args[0], how)
        return out

    def add_eqn(self, prim, atoms, params):
        """Appends an equation on atoms of this graph; returns its Tracer(s)."""
        if self.finished:
            raise TracingError(f"graph {self.name!r} is already finished")
        source = user_source()
        rule = primitives.abstract_eval[prim]
        try:
            avals = rule(*atoms, **params)
        except Exception as error:  # keeps NumPy's own error type, adds the user's line
            if self.joined_weak:
                weak_joins.check(self, prim, rule, atoms, params, error)
            add_note_once(error, f"while tracing {prim.name}{location_note(source)}")
            raise
        if self.joined_weak:
            weak_joins.check(self, prim, rule, atoms, params,
                             avals if prim.multiple_results else [avals])
        outs = [Var(av) for av in (avals if prim.multiple_results else [avals])]
        self.eqns.append(Eqn(prim, atoms, params, outs, source))
        note_equation(outs)  # the user's variable that stores the result will name it
        if prim.views and isinstance(atoms[0], Var) and _makes_views(atoms, outs):
            self.shares_memory.update([atoms[0].id] + [v.id for v in outs])
        tracers = [Tracer(self, v) for v in outs]
        return tracers if prim.multiple_results else tracers[0]

    def build(self, outputs: list) -> Graph:
        """Finishes the graph with `outputs` (Tracers or constants)."""
        out_atoms = [self.atom(o) for o in outputs]
        self.finished = True
        inputs = (self.inputs + [inner for _, inner in self.captures]
                  + [inner for _, inner in self.closure] + [var for _, var in self.resources])
        return Graph(self.name, inputs, self.eqns, out_atoms, self.consts)


def _escaped(tracer: Tracer, builder: GraphBuilder) -> TracingError:
    return TracingError(
        f"a traced value ({tracer.node.name or 'unnamed'}:{tracer.aval}) escaped the "
        f"function that computed it (graph {tracer.builder.name!r}) and was used "
        f"in {builder.name!r}; return it from that function instead")


def _makes_views(atoms, outs) -> bool:
    """NumPy returns a copy for a 0-d result and for integer-array or mask indexes."""
    if not any(v.aval.ndim for v in outs):
        return False
    return not any(a.aval.ndim or a.aval.dtype == bool for a in atoms[1:])


def bind(prim, *args, **params):
    """Applies a primitive to traced (or constant) arguments in the current trace."""
    builder = _builder_for(args)
    for arg in args:  # a Tracer subclass may check, in the graph, that it can be read
        if type(arg) is not Tracer and hasattr(type(arg), "__ag_on_read__"):
            arg.__ag_on_read__()
    return builder.add(prim, args, params)


def _builder_for(args) -> GraphBuilder:
    builder = current_builder()
    if builder is None:
        tracer = next(a for a in args if isinstance(a, Tracer))
        raise TracingError(
            f"a traced value ({tracer.node.name or 'unnamed'}:{tracer.aval}) was used after "
            f"its function finished tracing (graph {tracer.builder.name!r}); return it "
            f"from the function instead of keeping it elsewhere")
    return builder


def staging_builder(what: str):
    """The builder of the graph being traced; `TracingError` outside any trace."""
    builder = current_builder()
    if builder is None:
        raise TracingError(
            f"{what} stages into a graph being traced, and no graph is being traced"
            f"{location_note(user_source())}; call it from a function traced by "
            f"ag.convert, or use Python `if`/`while` on concrete values")
    return builder


def read_if_variable(x):
    """A `Variable`'s value (a staged read while tracing); any other value as it is.

    Where Python needs a value (a condition, a loop bound, an index), a
    variable stands for what it holds: a value whose type has `__ag_read__`
    (the read protocol `runtime.variables.Variable` implements) is read.
    """
    read = getattr(type(x), "__ag_read__", None)
    return read(x) if read is not None else x


# see `captured_value`: id(user's array) -> (weak ref to it, weak ref to its snapshot),
# and id(snapshot) -> weak ref to it, for every snapshot made
_snapshots: dict[int, tuple] = {}
_ours: dict[int, weakref.ref] = {}


def captured_value(value) -> np.ndarray:
    """What a graph keeps of an array it captures: the value now, read-only.

    The value at trace time is what the graph computes with (as in `jax.jit`
    and `tf.function`): writing into the array after tracing changes no
    graph traced before; a later trace captures the new value. Memory: an
    array nobody can write (read-only over immutable memory, or a snapshot
    itself) is kept as it is; any other array is copied once, and the copy is
    shared by every graph that captures the array while it holds the same
    bytes (traces for other signatures, gradients, other graph functions).
    """
    if not isinstance(value, np.ndarray):
        return _snapshot(value)
    if _unwritable(value):
        return value
    entry = _snapshots.get(id(value))
    if entry is not None:
        snapshot = entry[1]()
        if entry[0]() is value and snapshot is not None and _same_bytes(value, snapshot):
            return snapshot
    snapshot = _snapshot(value)
    if snapshot.dtype != object:
        key = id(value)
        forget = lambda ref: _forget(_snapshots, key, ref)  # noqa: E731
        _snapshots[key] = (weakref.ref(value, forget), weakref.ref(snapshot, forget))
    return snapshot


def _snapshot(value) -> np.ndarray:
    snapshot = np.array(value)
    snapshot.flags.writeable = False
    if snapshot.dtype != object:
        key = id(snapshot)
        _ours[key] = weakref.ref(snapshot, lambda ref: _forget(_ours, key, ref))
    return snapshot


def _forget(table: dict, key: int, ref) -> None:
    entry = table.get(key)
    if entry is ref or (type(entry) is tuple and ref in entry):
        table.pop(key, None)


def _unwritable(value: np.ndarray) -> bool:
    """True where no one can change `value`'s contents: a snapshot, or read-only over bytes."""
    ours = _ours.get(id(value))
    if ours is not None and ours() is value:
        return True
    base = value
    while isinstance(base, np.ndarray):
        if base.flags.writeable:
            return False
        base = base.base
    return isinstance(base, bytes)   # an array owning its memory may be made writeable again


def _same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    """`a` and `b` hold the same bytes (so -0.0 is not 0.0, and nan matches its own bits)."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    a, b = np.ascontiguousarray(a).reshape(-1), np.ascontiguousarray(b).reshape(-1)
    return np.array_equal(a.view(np.uint8), b.view(np.uint8))


def _changed(value, captured: np.ndarray) -> bool:
    """True where `value` no longer holds what the graph captured of it."""
    if isinstance(value, np.ndarray) and not value.flags.writeable:
        return False
    current = np.asarray(value)
    return current.shape != captured.shape or current.dtype != captured.dtype or \
        not np.array_equal(current, captured, equal_nan=current.dtype.kind in "fc")
