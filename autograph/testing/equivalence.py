"""`assert_graph_equivalent`: a function run eagerly and as a graph, on every backend, compared.

On each backend a fresh graph function (`ag.convert(fn)`) and the function
itself (the oracle: NumPy on the CPU) are called in turn, each on its own copy
of the inputs, with stdout captured:

1. on the first inputs (the graph traces here);
2. on second inputs of the same signature and other values (`second_args`,
   `second_kwargs`, or derived from the first by `inputs.second_inputs`), or,
   where there is nothing to vary, on the first inputs again.

Each call must return the same structure, dtypes, shapes and values
(`compare`), print the same text, leave its array arguments (which it may
write in place) and the `Variable`s it uses with the same values (the graph starts from the values eager started from), or raise
the same type of exception; the second call must not trace again.

>>> import numpy as np
>>> assert_graph_equivalent(lambda x, n: np.tanh(x) * n, np.linspace(-1, 1, 5), 3)
>>> assert_graph_equivalent(lambda x: x + 1, np.ones(2), second_args=(np.ones(3),))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
autograph.testing.NotEquivalent: <lambda> is not equivalent to its graph on cpu, \
for the second inputs:
  the graph function traced again (2 traces) for the second inputs: argument 'x' changed \
from float64[2] to float64[3]
  ...
"""
from __future__ import annotations

import contextlib
import dataclasses
import inspect
import io
import textwrap

import numpy as np

from autograph_runtime.tree import flatten, leaf_paths
from autograph_runtime.variables import recording_writes

from ..convert import convert
from ..function import GraphFunction
from ..cache_keys import describe_change
from ..signature import flatten_call, param_specs_of
from . import report
from .backends import on_backend, selected_backends, to_host
from .compare import differences, leaf_difference, value_text
from .inputs import copied, has_arrays, second_inputs
from .source_window import source_window


class NotEquivalent(AssertionError):
    """A function and its graph differ; the message says where and how."""


NotEquivalent.__module__ = "autograph.testing"  # where users import it from

@dataclasses.dataclass
class Call:
    """One set of inputs, and what the report calls it."""

    label: str
    args: tuple
    kwargs: dict


@dataclasses.dataclass
class Outcome:
    """What one call returned (or raised) and printed."""

    value: object = None
    error: BaseException | None = None
    printed: str = ""
    arguments: tuple = ((), {})   # its copy of the inputs, after the call


def run_call(fn, call: Call) -> Outcome:
    """`fn` on a copy of `call`'s inputs, with stdout captured."""
    args, kwargs = copied(call.args, call.kwargs)
    text = io.StringIO()
    try:
        with contextlib.redirect_stdout(text):
            value = fn(*args, **kwargs)
    except Exception as error:
        return Outcome(error=error, printed=text.getvalue(), arguments=(args, kwargs))
    return Outcome(value=value, printed=text.getvalue(), arguments=(args, kwargs))


def oracle_of(fn):
    """The Python function behind `fn` (a graph function's `python_function`)."""
    return fn.python_function if isinstance(fn, GraphFunction) else fn


def graph_function_of(fn, input_signature=None, tier=None) -> GraphFunction:
    """A fresh graph function of `fn` (keeping the options of one `fn` already is), whose
    refusals are errors: the check is of its graph, never of an eager fallback."""
    if isinstance(fn, GraphFunction):
        return convert(fn.python_function, autograph=fn.autograph,
                       input_signature=input_signature or fn.input_signature,
                       reduce_retracing=fn.reduce_retracing, tier=tier or fn.tier,
                       eager_fallback=False)
    return convert(fn, input_signature=input_signature, tier=tier, eager_fallback=False)


def calls_for(args, kwargs, second_args=None, second_kwargs=None) -> list[Call]:
    """The first call, and the second: given, derived from the first, or the first again."""
    first = Call("first inputs", tuple(args), dict(kwargs))
    again = Call("first inputs, called again", first.args, first.kwargs)
    if second_args is False:
        return [first, again]
    if second_args is None and second_kwargs is None:
        if not has_arrays(first.args, first.kwargs):
            return [first, again]
        return [first, Call("second inputs (derived from the first)",
                            *second_inputs(first.args, first.kwargs))]
    return [first, Call("second inputs",
                        first.args if second_args is None else tuple(second_args),
                        first.kwargs if second_kwargs is None else dict(second_kwargs))]


def display_name(fn) -> str:
    """`fn`'s qualified name without the `<locals>` of the functions it is defined in."""
    return getattr(fn, "__qualname__", repr(fn)).split("<locals>.")[-1]


def _indented(lines, by: str = "  ") -> list[str]:
    return [by + line.replace("\n", "\n" + by) for line in lines]


class BackendCheck:
    """Calls on one backend, each compared as it comes; the first difference raises."""

    def __init__(self, fn, backend: str, rtol=1e-6, atol=0.0, input_signature=None):
        self.oracle = oracle_of(fn)
        self.graph_fn = graph_function_of(fn, input_signature,
                                          "native" if backend == "native" else None)
        self.backend = backend
        self.rtol, self.atol = rtol, atol
        self.traced_call: Call | None = None  # the call that traced the graph
        self.matched: list[Call] = []

    def check(self, call: Call) -> None:
        with recording_writes(undo=True) as eager_writes:  # the graph starts where eager did
            eager = run_call(self.oracle, call)
            eager_state = {key: v.numpy() for key, (v, _) in eager_writes.items()}
        traces = self.graph_fn.trace_count
        with on_backend(self.backend), recording_writes() as graph_writes:
            graph = run_call(self.graph_fn, call)
        graph.value = to_host(graph.value)
        problems, hints, line = self._compare(eager, graph, call)
        problems += _state_differences(eager_writes, eager_state, graph_writes, self.rtol,
                                       self.atol)
        problems += _argument_differences(eager, graph, self.rtol, self.atol)
        retraced = self._retrace(call, traces)
        problems += retraced
        hints += [report.RETRACE_HINT] if retraced else []
        if problems:
            raise NotEquivalent(self._message(call, problems, hints, line)) from graph.error
        self.matched.append(call)

    # -- what differs --------------------------------------------------------------------
    def _compare(self, eager: Outcome, graph: Outcome, call: Call):
        problems, hints, line = [], [], None
        e, g = eager.error, graph.error
        if e is not None and g is not None:
            if not isinstance(g, type(e)):
                problems += [f"eager raised {report.error_text(e)}",
                             f"the graph raised {report.error_text(g)}"]
                line = self._error_line(g)
        elif e is not None:
            problems += [f"eager raised {report.error_text(e)}",
                         f"the graph returned {value_text(graph.value)}"]
        elif g is not None:
            problems += [f"the graph raised {report.error_text(g)}",
                         f"eager returned {value_text(eager.value)}"]
            line = self._error_line(g)
        else:
            found = differences(eager.value, graph.value, self.rtol, self.atol)
            for difference in found:
                problems += difference.lines()
            if found:
                line, hint = self._origin(found, call)
                hints += [hint] if hint else []
                hints += [report.FROZEN_HINT] if self.matched else []
        if eager.printed != graph.printed:
            problems += ["printed output differs:"] + _indented(
                report.printed_difference(eager.printed, graph.printed))
            hints += [report.PRINT_HINT] if self.matched else []
        return problems, hints, line

    def _error_line(self, error: BaseException) -> int | None:
        code = getattr(self.oracle, "__code__", None)
        return report.error_line(error, code.co_filename) if code is not None else None

    def _origin(self, found, call: Call):
        """The user's line behind the first differing graph output, and a hint about it."""
        first = next((d for d in found if d.output_index is not None), None)
        if first is None:
            return None, None
        try:
            with on_backend(self.backend):
                graph = self.graph_fn.get_concrete_function(*call.args, **call.kwargs).graph
            origin = report.output_origin(graph, first.output_index)
        except Exception:  # the report goes without a line
            return None, None
        if origin == "constant":
            return None, report.CONSTANT_HINT.format(path=first.path)
        code = getattr(self.oracle, "__code__", None)
        if origin is None or origin == "input" or code is None \
                or origin.filename != code.co_filename:
            return None, None
        return origin.lineno, None

    def _retrace(self, call: Call, traces_before: int) -> list[str]:
        if self.graph_fn.trace_count == traces_before:
            return []
        if self.traced_call is None:
            self.traced_call = call
            return []
        change = self._change(self.traced_call, call)
        return [f"the graph function traced again ({self.graph_fn.trace_count} traces) for the "
                f"{call.label}: {change}"]

    def _change(self, old: Call, new: Call) -> str:
        try:
            signature = inspect.signature(self.oracle)
            specs = param_specs_of(self.oracle, signature, self.graph_fn.input_signature)
            before = flatten_call(signature, old.args, old.kwargs, specs)
            after = flatten_call(signature, new.args, new.kwargs, specs)
        except (TypeError, ValueError):
            return "its cache key changed"
        return describe_change(before, after)

    # -- the report ----------------------------------------------------------------------
    def _message(self, call: Call, problems, hints, line) -> str:
        name = display_name(self.oracle)
        lines = [f"{name} is not equivalent to its graph on {self.backend}, for the "
                 f"{call.label}:"]
        lines += _indented(problems)
        lines += [textwrap.fill(hint, 96, initial_indent="  ", subsequent_indent="  ")
                  for hint in dict.fromkeys(hints)]
        lines.append(f"  {call.label}: {report.inputs_text(self.oracle, call.args, call.kwargs)}")
        for earlier in self.matched[-1:]:
            lines.append(f"  {earlier.label} (matched): "
                         f"{report.inputs_text(self.oracle, earlier.args, earlier.kwargs)}")
        lines += _indented(source_window(self.oracle, line, converted=self.graph_fn.autograph))
        return "\n".join(lines)


def _state_differences(eager_writes, eager_state, graph_writes, rtol, atol) -> list[str]:
    """Variables that eager and the graph left with different values."""
    problems = []
    for key, (variable, before) in {**graph_writes, **eager_writes}.items():
        expected = eager_state.get(key, to_host(before))
        got = variable.numpy()
        if got.shape != expected.shape or not np.allclose(got, expected, rtol, atol,
                                                          equal_nan=True):
            problems += [f"Variable {variable.name!r} after the call: eager left "
                         f"{value_text(expected)}, the graph {value_text(got)}"]
    return problems


def _argument_differences(eager: Outcome, graph: Outcome, rtol, atol) -> list[str]:
    """Array arguments that eager and the graph left with different values (in-place writes)."""
    problems = []
    for root, e_part, g_part in zip(("args", "kwargs"), eager.arguments, graph.arguments):
        e_leaves, e_tree = flatten(e_part)
        g_leaves, g_tree = flatten(g_part)
        if e_tree != g_tree:
            continue
        for path, e, g in zip(leaf_paths(e_tree, root), e_leaves, g_leaves):
            if isinstance(e, np.ndarray) and isinstance(g, np.ndarray) and \
                    leaf_difference(path, e, to_host(g), rtol, atol) is not None:
                problems += [f"{path} after the call: eager left {value_text(e)}, "
                             f"the graph {value_text(g)}"]
    return problems


def check_graph_equivalence(fn, args=(), kwargs=None, *, rtol=1e-6, atol=0.0, second_args=None,
                            second_kwargs=None, backends=None) -> None:
    """`assert_graph_equivalent` with the function's arguments given as `args` and `kwargs`.

    Raises `NotEquivalent` (an `AssertionError`) at the first difference.
    """
    __tracebackhide__ = True
    calls = calls_for(args, kwargs or {}, second_args, second_kwargs)
    try:
        for backend in backends or selected_backends():
            checker = BackendCheck(fn, backend, rtol, atol)
            for call in calls:
                checker.check(call)
    except NotEquivalent as failure:
        raise failure.with_traceback(None)  # the report says it all; keep the cause


def assert_graph_equivalent(fn, *args, rtol=1e-6, atol=0.0, second_args=None, second_kwargs=None,
                            backends=None, **kwargs) -> None:
    """Checks that `fn(*args, **kwargs)` means the same run eagerly and as a graph.

    Runs `fn` eagerly and as `ag.convert(fn)` on every backend (those of
    `--ag-backend` under pytest), on the given inputs and on second inputs of
    the same signature with other values, and raises `NotEquivalent` (an
    `AssertionError`) with a readable report at the first difference in
    structure, dtype, shape, values (floats within `rtol`/`atol`) or printed
    output, or at a second trace.

    Args:
      fn: a function, or a graph function (its `python_function` is the oracle).
      *args, **kwargs: its arguments.
      rtol, atol: tolerances for float and complex values.
      second_args, second_kwargs: the second inputs (default: the first, with
        other values in every array); `second_args=False` calls with the first
        inputs again instead.
      backends: names like ["cpu"] (default: `--ag-backend`, or all found).
    """
    __tracebackhide__ = True
    check_graph_equivalence(fn, args, kwargs, rtol=rtol, atol=atol, second_args=second_args,
                            second_kwargs=second_kwargs, backends=backends)


