"""A `try` statement run as Python when the graph runs (`try_stmt`).

NumPy raises some errors only when the graph runs: `LinAlgError` of a singular
matrix, `IndexError` of a traced index, `ZeroDivisionError` of a Python number,
`FloatingPointError` where the `try` is traced under (or holds) a raising
`np.errstate`. A Python `try` around
the tracing cannot catch them. So where a `try`'s handlers catch a type that
a kernel of its body may raise (`autograph_runtime.ops.kernel_errors`), or an
error a staged `raise`/`assert` of its body raises, the WHOLE statement,
converted, is staged as one `python_block` equation: when the graph runs it
calls the statement's function on NumPy values (converted code on plain
values is Python), reading the values the statement reads and giving the ones
it assigns. Python's own `try` then catches what NumPy raises, with exact
Python semantics: the handler sees the assignments made before the raise,
`else`, `finally`, `as e` and bare `raise` are Python's.

Why this design rather than a staged `try` primitive with body and handler
subgraphs: it is exact by construction (no state at the raise to reconstruct
in a graph) and small; what it costs is what Python code in a graph costs,
said clearly where asked: no gradient through the statement, no native tier,
no ONNX export, no saving. A statement whose handlers catch nothing a kernel
raises (`except KeyError:`) is traced as before, with no staging cost.

The types the graph holds come from tracing the statement on each path it may
take: its body, and each handler an error of the body's kernels reaches, with
the error raised at the start and at the end of the body (`raising_in`: a
raise in between leaves each variable as before the statement or as the body
bound it, so the two ends show the types a handler may see; the statement is
traced once more per end and handler, on copies of its lists and dicts); they
are joined as a staged `if` joins its branches (`try_outputs`: a `return` or
a variable bound on some paths only, a Python number and a NumPy value). What
the statement binds when it runs must have them; paths that do not join are
refused while tracing (the call runs eagerly), and a run that differs anyway (a
raise the two ends do not show) is a `TypeError` naming the variable and the
`try`'s line. A value the graph cannot hold (a string, a
list's length) is a constant of the trace; the statement must give that very
value when it runs.

>>> import numpy as np
>>> import autograph as ag
>>> @ag.convert
... def try_inverse(m):
...     try:
...         inv = np.linalg.inv(m)
...     except np.linalg.LinAlgError:
...         inv = np.full_like(m, np.nan)
...     return inv
>>> try_inverse(np.ones((2, 2)))
array([[nan, nan],
       [nan, nan]])
>>> try_inverse(2 * np.eye(2))
array([[0.5, 0. ],
       [0. , 0.5]])
"""
from __future__ import annotations

import numpy as np

from autograph_runtime import Tracer, TracingError, current_builder, weak_joins
from autograph_runtime.abstract import AbstractValue, python_type
from autograph_runtime.errors import AutographError, ContainerStagingError, PathTypeError
from autograph_runtime.ops.kernel_errors import caught_errors, may_catch_kernel_errors
from autograph_runtime.ops.python_block import TRY_WHY, python_block_p, try_what
from autograph_runtime.tracer import bind
from autograph_runtime.tracer_value import write_in_place
from autograph_runtime.tree import flatten

from .exceptions import Probe, probes, raising_in
from .try_outputs import joined, leaf_type
from .undo_trace import TraceUndo
from .undefined import MaybeUnbound, Undefined, is_undefined


def _types(handled, flat=True) -> tuple:
    try:
        types = handled()
    except Exception:  # noqa: BLE001 - a handler type Python would only read on a raise
        return (BaseException,)
    if not flat:
        return types
    flat, stack = [], [types]
    while stack:  # `except` takes nested tuples (`suppress`'s types are one)
        kind = stack.pop()
        if isinstance(kind, tuple):
            stack.extend(reversed(kind))
        elif isinstance(kind, type):
            flat.append(kind)
    return tuple(flat)


def try_stmt(statement, state: tuple, names: tuple, outs: tuple, handled, where: str):
    """`outs = statement(*state)`: the `try` statement at `where`, as a function of the
    values `names` it reads, giving the values `outs` it assigns. Traced as it is, or
    staged to run as Python where its handlers (`handled()`) may catch what the graph
    raises when it runs."""
    builder = current_builder()
    caught = _types(handled)
    if builder is None or not caught:
        return statement(*state)
    paths = _Paths(builder, statement, state, where)
    result, probe = paths.trace()
    kernels = caught_errors(builder.eqns[paths.start:], caught) \
        if may_catch_kernel_errors(caught) else []
    errors = list(dict.fromkeys(kernels + [e for e in probe.staged_errors
                                           if issubclass(e, caught)]))
    if not errors:
        return result
    paths.undo()   # the statement runs as Python instead
    results = [result] + [r for error in _reaching(errors, _types(handled, flat=False))
                          for at in ("start", "end") for r in [paths.trace(at, error)[0]]
                          if r is not None]
    return _staged(statement, paths, results, outs, where)


def _reaching(errors, handlers) -> list:
    """An instance of one error of `errors` for each handler they reach."""
    reached = {}
    for kind in errors:
        try:
            error = kind("raised when the graph runs")
        except Exception:  # noqa: BLE001 - a type that takes other arguments: not traced
            continue
        handler = next((i for i, types in enumerate(handlers)
                        if _catches(types, error)), None)
        reached.setdefault(handler, error)
    return [error for handler, error in reached.items() if handler is not None]


def _catches(types, error) -> bool:
    try:
        return isinstance(error, types)
    except TypeError:  # not a type: Python would raise that on the raise
        return False


class _Paths:
    """The traces of one `try` statement, each undone: its arrays written in place are
    their values from before again, and the equations it staged dropped."""

    def __init__(self, builder, statement, state, where):
        self.builder, self.statement, self.state, self.where = builder, statement, state, where
        self.start = len(builder.eqns)
        self.leaves, self.in_tree = flatten(state)
        self.trace_undo = TraceUndo(builder, self.leaves, try_what(where), TRY_WHY)
        self.written = self.trace_undo.written

    def trace(self, at=None, error=None):
        """`(result, probe)` of the statement, on its body's path or (`at` the start or
        the end of the body raising `error`) a handler's; `(None, probe)` where that
        path raises (it is then Python's when the graph runs: nothing to type)."""
        probe = Probe(self.where)
        probes.stack.append(probe)
        try:
            if at is None:
                return self.statement(*self.state), probe
            try:  # on fresh lists and dicts of the values from before (the body's wrote them)
                with raising_in(self.where, at, error):
                    return self.statement(*self.in_tree.unflatten(self.leaves)), probe
            except Exception as failure:  # noqa: BLE001 - the handler raises on this path
                if isinstance(failure, AutographError) and \
                        type(failure) not in (TracingError, PathTypeError, ContainerStagingError):
                    raise   # a retrace a block must do (`CarryNeeded`, composite's)
                return None, probe
        finally:
            probes.stack.remove(probe)
            if at is not None:
                self.undo()

    def undo(self) -> None:
        self.trace_undo.undo()


def _staged(statement, paths, results, outs, where):
    """The `python_block` running `statement`, typed by the `results` of its paths."""
    leaves, in_tree, written = paths.leaves, paths.in_tree, paths.written
    arrays = [i for i, v in enumerate(leaves) if isinstance(v, Tracer) or
              isinstance(v, np.ndarray) and v.dtype != object]
    maybe = [i for i in arrays if type(leaves[i]) is MaybeUnbound]   # read as unbound
    outputs = [joined(name, [r[k] for r in results], written, where)
               for k, name in enumerate(outs)]
    unbound = next((o.name for o in outputs if o.leaves[0].kind == "constant" and
                    is_undefined(o.leaves[0].what)), None)
    if unbound:
        raise TracingError(
            f"{unbound!r} is read after the `try` statement of the `except` at {where}, "
            f"which runs as Python when the graph runs (its handlers catch errors NumPy "
            f"raises then), and tracing it left {unbound!r} unbound on every path: a graph "
            f"holds a value on every path; bind {unbound!r} before the `try`")
    values = [(o, leaf) for o in outputs for leaf in o.leaves if leaf.kind == "value"]
    flagged = [o for o in outputs if o.maybe_unbound]
    avals = [leaf.what for _, leaf in values] + [AbstractValue((), np.bool_)] * len(flagged)
    out_names = [o.name for o, _ in values] + [f"whether {o.name!r} is bound" for o in flagged]
    written_at = [next(i for i in arrays if leaves[i] is t) for t in written]
    for t in written:
        avals.append(t.aval)
        out_names.append(t.node.name or "an array it writes")

    def run(*operands):
        copies, by_id = list(leaves), {}
        for i, value in zip(arrays, operands):
            # one copy per array: the statement may write it, the graph's value stays;
            # a Python number of the trace is one again (`1.0 / 0.0` raises)
            aval = leaf_type(leaves[i])
            copies[i] = by_id.setdefault(id(leaves[i]), python_type(aval)(np.asarray(
                value).item()) if aval.weak else np.array(value, copy=True))
        for i, defined in zip(maybe, operands[len(arrays):]):
            if not defined:   # bound on one path of an `if` before: unbound on this one
                copies[i] = Undefined(leaves[i].name)
        got = statement(*in_tree.unflatten(copies))
        items, bound = [], {}
        for output, value in zip(outputs, got):
            got_leaves, bound[output.name] = output.leaves_of(value, where)
            items += [item for item, leaf in zip(got_leaves, output.leaves)
                      if leaf.kind == "value"]
        return items + [bound[o.name] for o in flagged] + [copies[i] for i in written_at]

    run.__name__ = f"try_at_{where}"
    operands = [Tracer(leaves[i].builder, leaves[i].node) if i in maybe else leaves[i]
                for i in arrays] + [leaves[i].defined for i in maybe]   # no check: a flag
    staged = bind(python_block_p, *operands, fn=run, where=where, names=tuple(out_names),
                  out_avals=tuple(avals), what=try_what(where), why=TRY_WHY)
    finals = [write_in_place(t, value, f"the `try` of the `except` at {where}")
              for t, value in zip(written, staged[len(staged) - len(written):])]
    it, flags = iter(staged), dict(zip(map(id, flagged), staged[len(values):]))
    assigned = []
    for output in outputs:
        items = []
        for leaf in output.leaves:
            if leaf.kind == "value":
                items.append(next(it))
                if leaf.python is not None:   # a Python number on some path
                    weak_joins.note(items[-1], leaf.python, output.name)
            else:
                items.append(finals[leaf.what] if leaf.kind == "written" else leaf.what)
        value = output.tree.unflatten(items)
        if output.maybe_unbound:
            value = MaybeUnbound(value, flags[id(output)], output.name)
        assigned.append(value)
    return tuple(assigned)
