"""Cotangents: which values carry one, and how one is made to fit its value's type.

A cotangent has exactly the type of the value it belongs to: broadcasting is
undone by summing (`sum_to_shape`) and the dtype is cast back (float32 in,
float32 gradient out). Floating-point arrays carry cotangents, and so do the
stacks a differentiated loop saves them on (a stack of cotangents, see
`stack.py`); integers, booleans and variable handles never do (a missing
cotangent is None, a symbolic zero).
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import AbstractValue, ResourceType
from ..ir import Var
from ..tracer import Tracer, bind, current_builder


def differentiable(aval) -> bool:
    """True for the types that carry cotangents: floating-point arrays, and the
    resources of floating-point variables (differentiated with `wrt=` Variables:
    the cotangent of a resource is that of its value, summed over its reads). A
    Python number (a weak value) is computed from Python numbers only: none."""
    return (type(aval) in (AbstractValue, ResourceType) and aval.dtype.kind == "f"
            and not aval.weak)


def carries_activity(aval) -> bool:
    """True for the types through which a value can depend on a differentiated input,
    which are those that take a cotangent: floating-point arrays, and stacks."""
    return differentiable(aval) or is_stack(aval)


def is_stack(aval) -> bool:
    """True for `stack.STACK`, the type of the stacks a differentiated loop saves values on."""
    return type(aval) is AbstractValue and aval.shape == () and aval.dtype == object


def as_tracer(x, dtype=None) -> Tracer:
    """`x` as a traced value of the current graph (a constant where it is not traced)."""
    if isinstance(x, Tracer):
        return x
    builder = current_builder()
    return Tracer(builder, builder.const(np.asarray(x, dtype=dtype)))


# Zeros of types that are not arrays, by type: `stack.py` registers the empty stack.
zero_rules: dict = {}


def zeros(aval, like=None) -> Tracer:
    """Zeros of type `aval`: a constant where the shape is known, else shaped like `like`.

    The zero cotangent of a stack is an empty stack.
    """
    make_zero = zero_rules.get(aval)
    if make_zero is not None:
        return make_zero()
    if aval.fully_known or like is None:
        shape = tuple(d or 0 for d in aval.shape)
        return as_tracer(np.zeros(shape, aval.dtype))
    return np.zeros_like(like, dtype=aval.dtype)


def fit(ct, aval, like=None):
    """`ct` summed over broadcast dimensions and cast, so that it has type `aval`.

    `like`, a traced value of type `aval`, gives the shape where it is not known.
    """
    if ct is None:
        return None
    ct = as_tracer(ct, aval.dtype)
    if ct.shape != aval.shape or None in aval.shape:
        ct = sum_to_shape(ct, aval, like)
    if ct.dtype != aval.dtype:
        ct = ct.astype(aval.dtype)
    return ct


def sum_to_shape(ct, aval, like=None):
    """`ct` summed down to `aval.shape` (the dimensions broadcasting added or stretched).

    Decided while tracing where `aval`'s shape is known; where it is not, a
    `sum_to_shape` equation decides when the graph runs (`like` gives the shape).
    """
    shape, ct_shape = aval.shape, ct.shape
    lead = len(ct_shape) - len(shape)
    if None in shape:
        if like is None:
            raise ValueError("sum_to_shape needs `like` for a shape with unknown dimensions")
        return bind(sum_to_shape_p, ct, like)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(shape) if d == 1 and ct_shape[lead + i] != 1)
    if not axes:
        return ct
    if lead and len(axes) == lead:
        return np.sum(ct, axis=axes)
    return np.sum(ct, axis=axes, keepdims=True).reshape(shape)


def broadcast_like(g, x):
    """`g` broadcast to the shape of the traced value `x` (known or not)."""
    if x.aval.fully_known:
        return g if g.shape == x.shape else np.broadcast_to(g, x.shape)
    return g + np.zeros_like(x, dtype=g.dtype)


def reshape_like(g, x):
    """`g` reshaped to the shape of `x` (a `reshape_like` equation where two dims are unknown)."""
    shape = x.shape
    if g.shape == shape:
        return g
    if shape.count(None) > 1:
        return bind(reshape_like_p, g, x)
    return g.reshape(tuple(-1 if d is None else d for d in shape))


def _sum_to_shape_rule(ct, like):
    return AbstractValue(like.aval.shape, ct.aval.dtype)


def _sum_to_shape_kernel(xp):
    def run(ct, like):
        shape = like.shape
        if ct.shape == shape:
            return ct
        lead = ct.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, d in enumerate(shape) if d == 1 and ct.shape[lead + i] != 1)
        return ct.sum(axis=axes, keepdims=True).reshape(shape)
    return run


sum_to_shape_p = primitives.define("sum_to_shape", _sum_to_shape_rule, _sum_to_shape_kernel)


def _sum_to_shape_vjp(g, out, ct, like):
    return broadcast_like(g, ct), None


primitives.vjp_rules[sum_to_shape_p] = _sum_to_shape_vjp


reshape_like_p = primitives.define(
    "reshape_like", lambda g, like: AbstractValue(like.aval.shape, g.aval.dtype),
    lambda xp: lambda g, like: g.reshape(like.shape))
primitives.vjp_rules[reshape_like_p] = lambda gg, out, g, like: (reshape_like(gg, g), None)


def new_var_like(atom) -> Var:
    """A fresh Var of `atom`'s type (for a subgraph input nobody reads)."""
    return Var(atom.aval, getattr(atom, "name", None))
