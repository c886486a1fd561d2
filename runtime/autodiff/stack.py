"""Stacks: what a differentiated `while` loop saves for its backward pass.

Each iteration of the forward loop pushes the values its backward pass
needs; the backward loop pops them in reverse. A stack is a persistent list
(`(top values, rest)`, pushing and popping are O(1) and copy nothing), a value
of type `STACK` (0-d, dtype object) carried through loops like any other.

    stack_1:object[] = stack_push stack h c
    stack, h, c = stack_pop[types=(f32[1,10], f32[1,10])] stack_1

A stack's cotangent is a stack of its values' cotangents (of the values that
take one: floating-point arrays and stacks), one entry per push, so that a
gradient can flow through a gradient's backward loop (second derivatives):
the backward pass of a pop pushes the popped values' cotangents onto the
cotangent of the rest, that of a push pops them. The empty stack is the zero
cotangent: a pop given values to shape them like (`stack_pop ct x h`) gives
zeros for it.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import AbstractValue
from ..tracer import bind
from .cotangents import carries_activity, zero_rules, zeros

STACK = AbstractValue((), object)


def _unwrap(stack):
    """A stack that went through `np.asarray` (a graph output) is a 0-d object array."""
    return stack[()] if type(stack) is np.ndarray else stack


def _push(stack, *values):
    return (values, _unwrap(stack))


def _pop_kernel(xp, types):
    def run(stack, *likes):
        stack = _unwrap(stack)
        if not stack and likes:
            return ((), *[() if isinstance(_unwrap(x), tuple) else xp.zeros_like(x)
                          for x in likes])
        values, rest = stack
        return (rest, *values)
    return run


stack_new_p = primitives.define("stack_new", lambda: STACK, lambda xp: lambda: ())
stack_push_p = primitives.define("stack_push", lambda stack, *values: STACK,
                                 lambda xp: _push)
stack_pop_p = primitives.define(
    "stack_pop", lambda stack, *likes, types: [STACK, *types], _pop_kernel,
    multiple_results=True)


def new_stack():
    """An empty stack, traced."""
    return bind(stack_new_p)


zero_rules[STACK] = new_stack


def push(stack, *values):
    """`stack` with `values` on top (they come back together, in order, from `pop`)."""
    return bind(stack_push_p, stack, *values)


def pop(stack, types):
    """`(rest, *values)`: the values pushed last, of the given `AbstractValue`s."""
    rest, *values = bind(stack_pop_p, stack, types=tuple(types))
    return rest, values


def pop_or_zeros(stack, likes):
    """`pop`, where an empty stack gives zeros (empty stacks) shaped like `likes`."""
    rest, *values = bind(stack_pop_p, stack, *likes, types=tuple(x.aval for x in likes))
    return rest, values


# -- cotangents --------------------------------------------------------------------------------
def _push_vjp(ct, out, stack, *values):
    """The pushed values' cotangents, popped off the cotangent of the stack pushed to."""
    active = [v for v in values if carries_activity(v.aval)]
    rest, cts = pop_or_zeros(ct, active)
    cts = iter(cts)
    return (rest, *[next(cts) if carries_activity(v.aval) else None for v in values])


def _pop_vjp(cts, outs, stack, *likes, **params):
    """The popped values' cotangents (zeros where None), pushed onto that of the rest."""
    ct_rest, *ct_values = cts
    entries = [zeros(v.aval, like=v) if ct is None else ct
               for v, ct in zip(outs[1:], ct_values) if carries_activity(v.aval)]
    ct_rest = new_stack() if ct_rest is None else ct_rest
    return (push(ct_rest, *entries), *[None] * len(likes))


primitives.vjp_rules[stack_push_p] = _push_vjp
primitives.vjp_rules[stack_pop_p] = _pop_vjp
