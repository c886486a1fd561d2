"""Tracing a Python function into a subgraph of the graph being built.

Only traced leaves of the arguments become subgraph inputs; other leaves
(Python scalars, strings, None) are passed to the function as they are.
Values of enclosing graphs that the function reads are captured as extra
inputs by `GraphBuilder`.
"""
from __future__ import annotations

import contextlib
import threading
import warnings

import numpy as np

from ..abstract import AbstractValue, python_type
from ..errors import AutographError, TracingError
from ..ir import Eqn, Graph, Literal, Var
from ..tracer import Tracer, current_builder
from ..tracing import Traced, trace_to_graph
from ..tree import flatten
from .effects import stage_failure
from .python_numbers import conversion


def trace_function(fn, args: tuple, name: str, names=None, input_avals=None,
                   on_error=None, defer_errors=True, stand_ins=None) -> Traced:
    """Runs `fn(*args)` with traced leaves of `args` replaced by fresh inputs.

    `input_avals[i]`, where given, overrides which leaves become inputs and
    their types: an `AbstractValue` makes leaf i an input, None passes it as is.
    The graph is left unbuilt: `Traced.finish(keep)` picks the outputs to keep.
    With `defer_errors`, an error `fn` raises is staged, to be raised if the
    subgraph runs (`deferring_errors`; `on_error(*args)` gives the outputs then).
    """
    leaves = flatten(args)[0]
    fn = deferring_errors(fn, on_error) if defer_errors else fn
    return trace_to_graph(fn, args, name=name, parent=current_builder(),
                          input_avals=input_avals,
                          input_names=[_name(x, names, i) for i, x in enumerate(leaves)],
                          build=False, stand_ins=stand_ins)


class Diverged:
    """What a staged body that raised `error` while tracing returns: its outputs never
    exist, so facing the other branch's outputs it is traced as a stand-in of them.
    Facing another `Diverged` (both branches raise), `error` is raised while tracing."""

    def __init__(self, error: BaseException):
        self.error = error

    def __stage_like__(self, other):
        if isinstance(other, Diverged):
            raise self.error
        return stand_in(other)


# Predicates of errors that must reach the code tracing the block, not be deferred:
# autograph's in-place writes probe a block with arrays made read-only, and read
# NumPy's read-only error as "this block writes that array".
undeferred_errors: list = []


def deferring_errors(fn, on_error=None):
    """`fn`, where an error it raises (other than the project's own) is staged by
    `effects.stage_failure` instead, to be raised if the subgraph runs, as eagerly;
    the result is then `on_error(*args)`, or a `Diverged`. An error whose type
    cannot be remade from its text is raised while tracing, as before."""
    def body(*args):
        try:
            return fn(*args)
        except Exception as error:  # noqa: BLE001 - it is raised when the body runs
            if not defer(error):
                raise
            return on_error(*args) if on_error is not None else Diverged(error)
    return body


def defer(error: Exception, holds=None) -> bool:
    """Stages `error` where the graph being traced is, to be raised when it runs there
    (`effects.stage_failure`; with `holds`, a traced condition, only where it is False).

    False where it must be raised now: the project's own errors (a traced dict key's
    `UnhashableTracedValue` too: a loop around may run as Python instead), those
    `undeferred_errors` name, and those that cannot be remade. An error that
    `refusing_deferred`'s predicate picks is refused instead (a `TracingError`), unless
    staged under `holds`: eagerly the code that raised it runs where `holds` is False
    (an assert's message)."""
    if isinstance(error, AutographError) or any(
            undeferred(error) for undeferred in undeferred_errors):
        return False
    if holds is None and _deferral.refuses is not None and _deferral.refuses(error):
        raise TracingError(
            f"tracing raised {type(error).__name__}: {error} in code that may not run "
            f"(a staged branch or loop body, or code after a staged assert or raise)"
        ) from error
    return stage_failure(error, holds)


class _Deferral(threading.local):
    refuses = None   # a predicate of errors that are refused rather than deferred


_deferral = _Deferral()


@contextlib.contextmanager
def refusing_deferred(predicate):
    """While tracing in the block, an error `defer` would stage for which `predicate(error)`
    holds is a refusal instead: a call whose trace is refused runs eagerly, where a
    staged error is raised by the graph (right for the user's own `raise`, wrong for an
    error of the tracer's own making, which eager code never meets)."""
    before, _deferral.refuses = _deferral.refuses, predicate
    try:
        yield
    finally:
        _deferral.refuses = before


def _name(x, names, i):
    if names is not None and i < len(names) and names[i]:
        return names[i]
    return x.node.name if isinstance(x, Tracer) else None


def same_static(a, b) -> bool:
    """True where two non-traced leaves are the same Python value."""
    if isinstance(a, (Tracer, np.ndarray, np.generic)) or isinstance(b, (Tracer, np.ndarray, np.generic)):
        return False
    try:
        return a is b or (type(a) is type(b) and bool(a == b))
    except Exception:  # an object whose == does not give a bool
        return False


def retype_output(graph: Graph, index: int, aval: AbstractValue) -> None:
    """Makes output `index` of `graph` (a Python number, or a weak value) one of type
    `aval`, which `join_weak` gave: a literal of another Python kind (`1` as `1.0`),
    a constant of a NumPy dtype, or an equation converting it when the graph runs
    (`conversion`; an int that does not fit raises `OverflowError` only then)."""
    atom = graph.outputs[index]
    if isinstance(atom, Literal) and aval.weak:
        graph.outputs[index] = Literal(python_type(aval)(atom.value))
        return
    if isinstance(atom, Literal):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # 1e300 as f32: inf, as NumPy
                value = np.asarray(atom.value, dtype=aval.dtype)
        except OverflowError:  # 300 as int8: raised if the branch runs
            value = None
        if value is not None:
            var = Var(AbstractValue((), aval.dtype))
            graph.consts[var] = value
            graph.outputs[index] = var
            return
    prim, params = conversion(aval, exact=True)
    out = Var(AbstractValue((), aval.dtype, aval.weak))
    graph.eqns.append(Eqn(prim, [atom], params, [out]))
    graph.outputs[index] = out


def add_inputs(graph: Graph, captures: list, wanted: list) -> None:
    """Appends inputs so `graph` takes exactly the outer atoms `wanted` (in order).

    `captures` pairs this graph's own captured (outer atom, inner Var).
    """
    own = {_key(outer): inner for outer, inner in captures}
    explicit = graph.inputs[:len(graph.inputs) - len(captures)]
    graph.inputs = explicit + [own.get(_key(o)) or Var(o.aval, getattr(o, "name", None))
                               for o in wanted]


def _key(atom):
    return atom.id if isinstance(atom, Var) else id(atom)


def union_captures(*capture_lists) -> list:
    """The outer atoms captured by any of the subgraphs, each once."""
    seen, out = set(), []
    for captures in capture_lists:
        for outer, _ in captures:
            if _key(outer) not in seen:
                seen.add(_key(outer))
                out.append(outer)
    return out


def leaf_names(values: tuple, names) -> list | None:
    """One name per leaf of `values`, from one name per entry (`x`, or `x_0, x_1` for parts)."""
    if names is None or not isinstance(values, tuple) or len(values) != len(names):
        return None
    out = []
    for value, name in zip(values, names):
        count = len(flatten(value)[0])
        out.extend([name] if count == 1 else [f"{name}_{k}" for k in range(count)])
    return out


def fill_placeholders(value, other):
    """`value`, with each part whose type has `__stage_like__` replaced by what it gives.

    `part.__stage_like__(other_part)` is the protocol of values that stand for
    something the other branch (or the loop body) knows: it returns the part
    to trace in their place, often `stand_in(other_part)`.
    """
    stage_like = getattr(type(value), "__stage_like__", None)
    if stage_like is not None:
        return stage_like(value, other)
    if isinstance(value, (tuple, list)) and type(value) is type(other) and len(value) == len(other):
        items = [fill_placeholders(v, o) for v, o in zip(value, other)]
        return type(value)(*items) if hasattr(type(value), "_fields") else type(value)(items)
    if isinstance(value, dict) and isinstance(other, dict) and value.keys() == other.keys():
        return {k: fill_placeholders(v, other[k]) for k, v in value.items()}
    return value


def stand_in(value):
    """A value of `value`'s structure and types that no path reads.

    Zeros for arrays and traced leaves, the same object for Python leaves.
    """
    leaves, tree = flatten(value)
    return tree.unflatten([_stand_in(leaf) for leaf in leaves])


def _stand_in(leaf):
    if isinstance(leaf, Tracer):
        return np.zeros(tuple(d or 0 for d in leaf.shape), leaf.dtype)
    if isinstance(leaf, np.ndarray):
        return np.zeros_like(leaf)
    return leaf
