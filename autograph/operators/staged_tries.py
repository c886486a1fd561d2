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

The types the graph holds come from tracing the statement (its body's path):
what it binds when it runs must have them, else a `TypeError` names the
variable and the `try`'s line. A value the graph cannot hold (a string, a
list's length) is a constant of the trace; the statement must give that
very value when it runs.

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

from autograph_runtime import Tracer, TracingError, current_builder
from autograph_runtime.abstract import PYTHON_DTYPES, AbstractValue, python_aval, python_type
from autograph_runtime.ops.kernel_errors import may_catch_kernel_errors, raising
from autograph_runtime.ops.python_block import python_block_p
from autograph_runtime.tracer import bind
from autograph_runtime.tracer_value import write_in_place
from autograph_runtime.tree import flatten

from .exceptions import Probe, probes
from .undefined import is_undefined


def _types(handled) -> tuple:
    try:
        types = handled()
    except Exception:  # noqa: BLE001 - a handler type Python would only read on a raise
        return (BaseException,)
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
    probe = Probe(where)
    start = len(builder.eqns)
    leaves, in_tree = flatten(state)
    before = {id(t): (t, t.node) for t in leaves if isinstance(t, Tracer)}
    probes.stack.append(probe)
    try:
        result = statement(*state)
    finally:
        probes.stack.remove(probe)
    if not probe.staged_error and not (
            may_catch_kernel_errors(caught) and raising(builder.eqns[start:], caught)):
        return result
    del builder.eqns[start:]   # the statement runs as Python instead
    written = []
    for t, node in before.values():
        if t.node is not node:
            t.node = node
            if t.viewing is not None or node.id in builder.shares_memory:
                raise TracingError(
                    f"the `try` statement of the `except` at {where} runs as Python when the "
                    f"graph runs (its handlers catch errors NumPy raises then), and writes in "
                    f"place an array that shares memory with another; write a copy "
                    f"(`x = x.copy()`) first")
            written.append(t)
    return _staged(statement, state, leaves, in_tree, result, names, outs, written, where)


def _aval(value):
    if isinstance(value, Tracer):
        return value.aval
    if type(value) in PYTHON_DTYPES:
        return python_aval(value)
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype != object:
        return AbstractValue(np.shape(value), value.dtype)
    return None


def _staged(statement, state, leaves, in_tree, result, names, outs, written, where):
    arrays = [i for i, v in enumerate(leaves) if isinstance(v, Tracer) or
              isinstance(v, np.ndarray) and v.dtype != object]
    out_leaves, out_tree = flatten(result)
    labels = _labels(result, outs)
    specs, avals, out_names = [], [], []
    for leaf, label in zip(out_leaves, labels):
        if any(leaf is t for t in written):
            specs.append(("written", next(i for i, t in enumerate(written) if t is leaf)))
            continue
        aval = _aval(leaf)
        if aval is None:
            specs.append(("constant", leaf))
            continue
        specs.append(("value", len(avals)))
        avals.append(aval)
        out_names.append(label)
    unbound = [label for (kind, what), label in zip(specs, labels)
               if kind == "constant" and is_undefined(what)]
    if unbound:
        raise TracingError(
            f"{unbound[0]!r} is read after the `try` statement of the `except` at {where}, "
            f"which runs as Python when the graph runs (its handlers catch errors NumPy "
            f"raises then), and tracing its body left {unbound[0]!r} unbound: a graph holds "
            f"a value on every path; bind {unbound[0]!r} before the `try`")
    written_at = [next(i for i in arrays if leaves[i] is t) for t in written]
    for t in written:
        avals.append(t.aval)
        out_names.append(t.node.name or "an array it writes")

    def run(*values):
        copies, by_id = list(leaves), {}
        for i, value in zip(arrays, values):
            # one copy per array: the statement may write it, the graph's value stays;
            # a Python number of the trace is one again (`1.0 / 0.0` raises)
            aval = _aval(leaves[i])
            copies[i] = by_id.setdefault(id(leaves[i]), python_type(aval)(np.asarray(
                value).item()) if aval.weak else np.array(value, copy=True))
        got = statement(*in_tree.unflatten(copies))
        got_leaves, got_tree = flatten(got)
        if got_tree != out_tree:
            raise TypeError(f"the `try` statement of the `except` at {where} bound "
                            f"{', '.join(outs)} to values of another structure when the "
                            f"graph ran it ({got_tree}) than when it was traced ({out_tree})")
        results = []
        for (kind, what), value, label in zip(specs, got_leaves, labels):
            if kind == "value":
                results.append(value)
            elif kind == "constant" and not _same(value, what):
                raise TypeError(
                    f"the `try` statement of the `except` at {where} bound {label!r} to "
                    f"{value!r} when the graph ran it, where tracing it gave {what!r}, which "
                    f"a graph cannot hold as a value; bind it to the same value on every path")
        return results + [copies[i] for i in written_at]

    run.__name__ = f"try_at_{where}"
    operands = [leaves[i] for i in arrays]
    staged = bind(python_block_p, *operands, fn=run, where=where, names=tuple(out_names),
                  out_avals=tuple(avals))
    finals = []
    for t, value in zip(written, staged[len(staged) - len(written):]):
        finals.append(write_in_place(t, value, f"the `try` of the `except` at {where}"))
    values = []
    for kind, what in specs:
        values.append(staged[what] if kind == "value" else finals[what] if kind == "written"
                      else what)
    return out_tree.unflatten(values)


def _same(value, constant) -> bool:
    if value is constant:
        return True
    try:
        return type(value) is type(constant) and bool(value == constant)
    except Exception:  # noqa: BLE001 - a value that does not compare is not the same
        return False


def _labels(result, outs) -> list:
    """The variable each leaf of `result` (a tuple, one value per name of `outs`) is in."""
    labels = []
    for value, name in zip(result, outs):
        labels += [name] * len(flatten(value)[0])
    return labels
