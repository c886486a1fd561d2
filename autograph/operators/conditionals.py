"""`if` statements and conditional expressions."""
from __future__ import annotations

import numpy as np

import autograph_runtime as runtime
from autograph_runtime import Tracer, TracingError, current_builder
from autograph_runtime.ops.python_numbers import weak_constant
from autograph_runtime.ops.subgraphs import stand_in
from autograph_runtime.source import location_note, user_source
from autograph_runtime.tracer import read_if_variable

from .composite import staged_block
from .in_place import staged_writing
from .staging import staging
from .undefined import MaybeUnbound, Undefined, is_undefined, rebound


def if_stmt(test, body, orelse, state: tuple, names: tuple):
    """`state = body(*state) if test else orelse(*state)`, staged if `test` is traced.

    A variable bound in only one branch of a staged `if` comes out as a
    `MaybeUnbound`: reading it raises `UnboundLocalError` in the graph when the
    other branch ran, as eagerly.
    """
    test = read_if_variable(test)
    if not isinstance(test, Tracer):
        return body(*state) if test else orelse(*state)
    maybe = [i for i, value in enumerate(state)
             if is_undefined(value) or type(value) is MaybeUnbound]

    def recorded(branch):
        def run(*args):
            args = (*(rebound(a, s) for a, s in zip(args, state)), *args[len(state):])
            with staging(names):
                out = branch(*args)
            if not maybe or not isinstance(out, tuple):
                return out
            defined = tuple(out[i].defined if type(out[i]) is MaybeUnbound
                            else not is_undefined(out[i]) for i in maybe)
            return tuple(_OneBranch(v) if is_undefined(v) else v for v in out), defined
        return run

    def stage(block, packed):  # `block` carries the dicts, lists and objects it writes
        result = staged_writing(lambda s: runtime.cond(
            test, recorded(block.branch(body)), recorded(block.branch(orelse)), *s,
            names=block.names), packed, block.names)
        if not maybe:
            return result
        out, defined = result
        out = list(out)
        for i, flag in zip(maybe, defined):
            if isinstance(flag, Tracer) and not is_undefined(out[i]):
                out[i] = MaybeUnbound(_traced(out[i], names[i]), flag, names[i])
            elif flag is False:
                out[i] = state[i] if is_undefined(state[i]) else Undefined(names[i])
        return tuple(out)
    return staged_block(state, names, stage)


def _traced(value, name):
    """`value`, bound in one branch only, as a traced value that can carry the check."""
    if isinstance(value, Tracer):
        return value
    if isinstance(value, (bool, int, float, complex)):  # a Python number stays one
        return weak_constant(value)
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype != object:
        builder = current_builder()
        return Tracer(builder, builder.const(value))
    raise TracingError(
        f"{name!r} is bound only in one branch of an `if` on a traced value"
        f"{location_note(user_source())}, to a {type(value).__name__}, which the graph "
        f"cannot carry; bind it before the `if` as well")


class _OneBranch:
    """A variable the branch left unbound: zeros of the other branch's value (the graph
    checks `defined` before any read), itself where the other left it unbound too."""

    def __init__(self, undefined):
        self.undefined = undefined

    def __stage_like__(self, other):
        return self.undefined if type(other) is _OneBranch else stand_in(other)


def if_exp(test, true_fn, false_fn):
    """`true_fn() if test else false_fn()`, staged if `test` is traced."""
    test = read_if_variable(test)
    if not isinstance(test, Tracer):
        return true_fn() if test else false_fn()
    with staging():
        return runtime.cond(test, true_fn, false_fn)
