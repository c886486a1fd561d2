"""Reading and writing `Variable`s: the stateful primitives.

Both take the variable's resource (a graph input of type `ref T`) as their
first operand. `read_variable` gives its current value; `assign_variable`
stores `value` (mode "assign"), `current + value` ("add") or `current - value`
("sub"), cast to the variable's dtype, and gives the stored value:

    w_1:f32[3] = read_variable w
    t0:f32[3] = assign_variable[mode='add'] w x

The order of accesses is not in the data flow: `runtime.effects` derives it
from program order (the order of the equations). Each kernel is atomic under
threads: `assign_variable[mode='add']` is one read-modify-write under the
variable's lock (`Variable.store`), and `read_variable` takes the stored array,
which writes replace and never change.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import AbstractValue, ResourceType, broadcast_shapes
from ..tracer import GraphBuilder, current_builder

MODES = ("assign", "add", "sub")


def _check_resource(resource):
    if not isinstance(resource.aval, ResourceType):
        raise TypeError(f"expected a variable's resource, got a value of type {resource.aval}")
    return resource.aval


def _read_abstract_eval(resource):
    return _check_resource(resource).value_type


def assigned_type(target: AbstractValue, value: AbstractValue, mode: str) -> AbstractValue:
    """`target`, after checking that `value` may be stored into it with `mode`.

    Follows `np.copyto`: `value` broadcasts to the variable's shape and casts
    to its dtype under "same_kind" (int into float is fine, float into int is not).
    """
    if mode not in MODES:
        raise ValueError(f"unknown assignment mode {mode!r}; expected one of {MODES}")
    if not np.can_cast(value.dtype, target.dtype, "same_kind"):
        raise TypeError(f"cannot store a {value.dtype} value in a {target.dtype} variable "
                        f"(NumPy's same_kind casting rule); cast it first")
    try:
        fits = (value.ndim <= target.ndim
                and broadcast_shapes(value.shape, target.shape) == target.shape)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"cannot store a value of shape {value.shape} in a variable of "
                         f"shape {target.shape}")
    return target


def _assign_abstract_eval(resource, value, *, mode):
    target = _check_resource(resource).value_type
    value_type = value.aval
    if not isinstance(value.aval, AbstractValue) or isinstance(value.aval, ResourceType):
        raise TypeError("a variable's resource cannot be stored in a variable")
    try:
        return assigned_type(target, value_type, mode)
    except ValueError:
        if None in value_type.shape:  # checked again when the graph runs
            return target
        raise


def _read_kernel(xp):
    def read_variable(variable):
        return variable.value_on(xp)
    return read_variable


def _assign_kernel(xp, mode):
    def assign_variable(variable, value):
        return variable.store(mode, value, xp)
    return assign_variable


read_variable_p = primitives.define("read_variable", _read_abstract_eval, _read_kernel,
                                    state="read")
assign_variable_p = primitives.define("assign_variable", _assign_abstract_eval, _assign_kernel,
                                      state="write")
GraphBuilder.read_variable_p = read_variable_p  # a Variable used as an operand is read


def read(variable):
    """A read of `variable` in the graph being traced."""
    builder = current_builder()
    return builder.add_eqn(read_variable_p, [builder.resource(variable)], {})


def assign(variable, value, mode: str):
    """A write of `variable` in the graph being traced; returns the stored value."""
    builder = current_builder()
    return builder.add_eqn(assign_variable_p, [builder.resource(variable), builder.atom(value)],
                           {"mode": mode})
