"""Stacks: what a differentiated `while` loop saves for its backward pass.

Each iteration of the forward loop pushes the values its backward pass
needs; the backward loop pops them in reverse. A stack is a persistent list
(`(top values, rest)`, pushing and popping are O(1) and copy nothing), a value
of type `STACK` (0-d, dtype object) carried through loops like any other.

    stack_1:object[] = stack_push stack h c
    stack, h, c = stack_pop[types=(f32[1,10], f32[1,10])] stack_1
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import AbstractValue
from ..errors import TracingError
from ..tracer import bind

STACK = AbstractValue((), object)


def _unwrap(stack):
    """A stack that went through `np.asarray` (a graph output) is a 0-d object array."""
    return stack[()] if type(stack) is np.ndarray else stack


def _push(stack, *values):
    return (values, _unwrap(stack))


def _pop(stack):
    values, rest = _unwrap(stack)
    return (rest, *values)


stack_new_p = primitives.define("stack_new", lambda: STACK, lambda xp: lambda: ())
stack_push_p = primitives.define("stack_push", lambda stack, *values: STACK,
                                 lambda xp: _push)
stack_pop_p = primitives.define(
    "stack_pop", lambda stack, *, types: [STACK, *types], lambda xp, types: _pop,
    multiple_results=True)


def new_stack():
    """An empty stack, traced."""
    return bind(stack_new_p)


def push(stack, *values):
    """`stack` with `values` on top (they come back together, in order, from `pop`)."""
    return bind(stack_push_p, stack, *values)


def pop(stack, types):
    """`(rest, *values)`: the values pushed last, of the given `AbstractValue`s."""
    rest, *values = bind(stack_pop_p, stack, types=tuple(types))
    return rest, values


def _no_second_pass(ct, out, stack, *, types):
    raise TracingError(
        "a gradient flowed into the values a differentiated while loop saved for its "
        "backward pass: second derivatives through a traced while loop are not supported "
        "(differentiate a loop once, or unroll it with a Python range)")


primitives.vjp_rules[stack_pop_p] = _no_second_pass
