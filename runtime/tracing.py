"""`trace_to_graph`: running a Python function on traced inputs and keeping its graph.

Every "trace this function into a graph" goes through here: a graph
function's trace, a gradient's, `grad_graph`'s and the subgraphs of `cond`
and `while_loop`. It makes a `GraphBuilder` (a child of `parent`, whose values
it may capture), makes inputs of the leaves of `args` that have an abstract
value, runs the function, flattens what it returns, and builds the graph.

>>> import numpy as np
>>> from autograph_runtime import AbstractValue
>>> traced = trace_to_graph(lambda x, k: (np.tanh(x) * k, "done"),
...                         (AbstractValue((3,), np.float32), 2.0), name="scale")
>>> print(traced.graph)
graph scale(t0:f32[3]) {
  t1:f32[3] = tanh t0
  t2:f32[3] = multiply t1 2.0
  return t2
}
>>> traced.out_tree.unflatten(traced.out_leaves)[1]
'done'
"""
from __future__ import annotations

import contextlib
import dataclasses

import numpy as np

from .abstract import AbstractValue
from .errors import TracingError
from .ir import Graph
from .naming import variable_names
from .ops.effects import stage_failure
from .ops.text_values import text_value
from .source import location_note, user_source
from .texts import FormattedText
from . import views
from .tracer import GraphBuilder, current_builder
from .tracer_value import Tracer, write_in_place
from .tree import TreeDef, flatten


@dataclasses.dataclass
class Traced:
    """A function traced into `builder`: its input Tracers and its flattened outputs.

    `graph` is the built graph (None where `trace_to_graph` was asked not to
    build: the caller finishes it with `builder.build(outputs)`).
    """

    builder: GraphBuilder
    inputs: list
    out_leaves: list
    out_tree: TreeDef
    graph: Graph | None = None
    placeholders: list = dataclasses.field(default_factory=list)
    stand_ins: frozenset = frozenset()  # the leaf positions whose inputs stood for their values

    @property
    def written(self) -> list[int]:
        """The positions of the inputs the function wrote in place (`x += 1`, `x.fill(0)`).

        Such an input's Tracer ends the trace holding a new node
        (`runtime.tracer_value.write_in_place`): its final value.
        """
        return [i for i, (t, var) in enumerate(zip(self.inputs, self.placeholders))
                if t.node is not var]

    def finish(self, keep, extra=()) -> Graph:
        """Builds the graph returning the output leaves at positions `keep`, then `extra`."""
        self.graph = self.builder.build([self.out_leaves[i] for i in keep] + list(extra))
        return self.graph

    @property
    def outputs(self) -> list:
        """The leaves of the result that are traced values (the graph's outputs)."""
        return [x for x in self.out_leaves if isinstance(x, Tracer)]


def is_traced(x) -> bool:
    """Traced values: the leaves a subgraph returns from its graph (the default)."""
    return isinstance(x, Tracer)


def is_array(x) -> bool:
    """Traced values and NumPy arrays: the leaves a graph function returns from its graph."""
    return isinstance(x, (Tracer, np.ndarray))


def trace_to_graph(fn, args: tuple, *, name: str, parent: GraphBuilder | None = None,
                   input_avals=None, input_names=None, variables=(), scope=None,
                   name_values: bool = False, is_output=is_traced, build: bool = True,
                   write_back: bool = False, stand_ins=None, closure: bool = False) -> Traced:
    """Traces `fn(*args)`; returns the `Traced` function, its graph built.

    Args:
      fn: the Python function; runs once, on Tracers in place of the inputs.
      args: its arguments, nested; each leaf is an input where `input_avals`
        gives it an abstract value, else passed as it is. By default traced
        leaves (of `parent`'s graph) and `AbstractValue`s become inputs.
      name: the graph's name.
      parent: the builder of the enclosing graph (None: a root graph).
      input_names: one name per leaf (None: the traced leaf's own name).
      variables: `Variable`s whose resources the graph takes first, in order.
      scope: `scope(builder, inputs)` gives a context manager to run `fn` in.
      name_values: name values after the variables of the user's code
        (`runtime.naming`).
      is_output: which leaves of the result the graph returns (traced ones by
        default; None for every leaf, Python scalars becoming literals).
      build: False leaves the graph to the caller (`traced.builder.build`).
      write_back: the built graph also returns, after the result, the final
        value of each input the function wrote in place (`Traced.written`, in order).
      stand_ins: which inputs stand for their outer leaves for the whole trace, so
        that outer views read in it derive from them and views among them stay
        views (`runtime.views.link_inputs`): None (none), "all" (a `cond`
        branch), a set of leaf positions (a loop's test: those its body passes
        on), or "loop" (a loop body, whose inputs stand for the outer values
        only where it passes them on as themselves: traced again with those
        positions where it does not; `views.RelinkNeeded` where it also wrote them).
        `Traced.stand_ins` holds the positions used.
      closure: a root graph traced while another traces may read that trace's
        values, taken as inputs after its own (`GraphBuilder.closure`: the
        caller passes them).
    """
    given_avals = input_avals
    leaves, tree = flatten(args)
    if input_avals is None:
        input_avals = [_aval(x) for x in leaves]
    builder = GraphBuilder(name, parent)
    if closure and parent is None:
        builder.encloser = current_builder()
    with builder:
        for variable in variables:
            builder.resource(variable)
        inputs, inner, input_at = [], [], {}
        for i, (x, aval) in enumerate(zip(leaves, input_avals)):
            if aval is None:
                inner.append(x)
                continue
            given = input_names[i] if input_names is not None else None
            tracer = builder.new_input(aval, given or _name(x), maybe_array=(
                isinstance(x, Tracer) and x.node.id in x.builder.maybe_arrays
                if parent is not None else None))
            if isinstance(x, Tracer) and x.node.id in x.builder.joined_weak \
                    and aval.dtype == x.aval.dtype:  # a Python number on some path, still
                builder.joined_weak[tracer.node.id] = x.builder.joined_weak[x.node.id]
            inputs.append(tracer)
            inner.append(tracer)
            input_at[i] = tracer
        placeholders = [t.node for t in inputs]
        positions = set(input_at) if stand_ins in ("all", "loop") else set(stand_ins or ())
        if parent is not None and positions:  # views among the inputs stay views
            pairs = [(leaves[k], input_at[k]) for k in sorted(positions)
                     if k in input_at and isinstance(leaves[k], Tracer)]
            views.link_inputs(builder, [x for x, _ in pairs], [t for _, t in pairs], leaves)
        context = scope(builder, inputs) if scope is not None else contextlib.nullcontext()
        with context, (variable_names() if name_values else contextlib.nullcontext()):
            try:
                out = fn(*tree.unflatten(inner))
            except Exception as error:
                if parent is not None or not _text_of_traced_values(error):
                    raise
                # `raise ValueError(f"bad {x}")` where every call like this one raises: the
                # graph raises it when it runs, its text formatted then
                stage_failure(error)
                out = None
        out_leaves, out_tree = flatten(out)
        for i, leaf in enumerate(out_leaves):
            if isinstance(leaf, FormattedText):
                if parent is not None:
                    leaf.returned(name)   # its text exists only while the graph runs
                out_leaves[i] = text_value(leaf)   # formatted when the graph runs
            elif hasattr(type(leaf), "__ag_returned__"):   # a value only the graph's run has
                leaf.__ag_returned__(name)
    if stand_ins == "loop":
        with builder:  # an outer value the body returns as it is is read by the graph's output
            for leaf in out_leaves:
                if isinstance(leaf, Tracer) and leaf.builder is not builder:
                    views.inner_version(builder, leaf)
        passed = {k for k, t in input_at.items() if k < len(out_leaves) and out_leaves[k] is t}
        misused = [t for k, t in input_at.items()
                   if id(t) in builder.used_stand_ins and k not in passed]
        if misused:
            placeholder = dict(zip(map(id, inputs), placeholders))
            written = [t for t in misused if t.node is not placeholder[id(t)]]
            if written:
                ids = {id(t) for t in written}
                raise views.RelinkNeeded(
                    [k for k, t in input_at.items() if id(t) in ids],
                    views.rebound_in_loop(placeholder[id(written[0])].name, written[0]))
            return trace_to_graph(
                fn, args, name=name, parent=parent, input_avals=given_avals,
                input_names=input_names, variables=variables, scope=scope,
                name_values=name_values, is_output=is_output, build=build,
                write_back=write_back, stand_ins=frozenset(passed), closure=closure)
        positions = passed
    traced = Traced(builder, inputs, out_leaves, out_tree, placeholders=placeholders,
                    stand_ins=frozenset(positions))
    if build:
        outputs = out_leaves if is_output is None else [x for x in out_leaves if is_output(x)]
        if write_back:
            outputs = outputs + [inputs[i] for i in traced.written]
        traced.graph = builder.build(outputs)
    return traced


def _text_of_traced_values(error: Exception) -> bool:
    return any(isinstance(a, FormattedText) for a in error.args)


def _aval(x):
    if isinstance(x, Tracer):
        return x.aval
    return x if isinstance(x, AbstractValue) else None


def _name(x):
    return x.node.name if isinstance(x, Tracer) else None


def in_place_outputs(traces: list, positions=None) -> tuple[dict, list]:
    """How staged subgraphs on the same inputs pass on the inputs they write in place.

        def body(x):              # a loop body or a branch, traced as a subgraph:
            x += 1                # its input Tracer x is written in place,
            return (x,)           # and returned as itself: passed on as output 0

    Eagerly, the array bound to `x` outside is the one changed. Returns
    `passed` (input k to the output j that every trace returns as input k
    itself) and `extra`: the other inputs some trace writes (`x += 1` in one
    branch, `x = np.copy(x)` in the other), whose final values the subgraphs
    must return as extra outputs (`Traced.finish(keep, extra)`). With
    `positions` (a loop body's), input k is passed on only as output `positions[k]`.
    """
    written = sorted({k for traced in traces for k in traced.written})
    passed, extra = {}, []
    for k in written:
        found = [j for j in (range(len(traces[0].out_leaves)) if positions is None
                             else [positions[k]])
                 if all(traced.out_leaves[j] is traced.inputs[k] for traced in traces)]
        if found:
            passed[k] = found[0]
        else:
            extra.append(k)
    return passed, extra


def write_through(outer: list, finals: dict, results: list, passed: dict) -> list:
    """Makes `outer[k]` (a Tracer of the enclosing graph) hold `finals[k]`, as a write in place.

    `outer[k]` is what the staged subgraphs' input k stands for, `finals[k]` the
    staged final value of that input (see `in_place_outputs`); every name bound
    to the outer Tracer then sees the change, and an argument of the graph
    function is written back to the caller. Returns `results` (the staged
    outputs) with output `passed[k]` replaced by the outer Tracer itself.
    A value that is not traced in this graph is left alone (a Python number:
    eager code rebinds it). An outer Tracer of a graph further out (a nested
    block wrote an array that only an enclosing block's input stands for here)
    is written through that input; where none stands for it, `CarryNeeded` has
    the enclosing block traced again carrying it (`runtime.views`). An output
    that is input k itself on some paths only is linked by `runtime.path_aliases`.
    """
    results = list(results)
    for k, value in finals.items():
        target = outer[k]
        if not isinstance(target, Tracer):
            continue
        if isinstance(value, Tracer) and target.builder is not value.builder:
            target = _carried(target, value.builder)
        if write_in_place(target, value, "write in a staged block", rebinds=True) is target \
                and k in passed:
            results[passed[k]] = target
    return results


def _carried(target, builder):
    """The value of `builder`'s graph standing for `target`, a value of a graph enclosing
    it, that a nested staged block wrote in place: the input of `builder`'s own block
    standing for it; `CarryNeeded` where that block does not carry it yet."""
    inner = views.inner_version(builder, target) if builder.stand_ins else None
    if inner is not None:
        return inner
    raise views.CarryNeeded(views.root_of(target), builder, TracingError(
        f"{views.name_of(target)} is written in place inside a staged block nested in "
        f"another{location_note(user_source())}, and the enclosing block does not carry "
        f"it as its state; assign it in the enclosing block"))
