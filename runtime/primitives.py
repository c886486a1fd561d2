"""Primitives and the tables that interpret them.

Each interpretation of a primitive lives in its own table keyed by the
`Primitive`, filled next to the primitive's definition in `runtime/ops/`:

- `abstract_eval[p](*atoms, **params)`: the output `AbstractValue` (a list of
  them when `p.multiple_results`) from the input atoms (`Var`s or `Literal`s).
- `kernels[p](xp, **params)`: binds the kernel to an array module (`numpy`
  or `cupy`) and static params; returns a function of the input arrays.
  Backends merge overrides over this table (see `runtime.backend`).
"""
from __future__ import annotations


class Primitive:
    """A named operation of the IR.

    `effectful` ones are never reordered or dropped; the outputs of `views` ones
    may share memory with their first input, as NumPy views do.
    """

    __slots__ = ("name", "multiple_results", "effectful", "views")

    def __init__(self, name: str, *, multiple_results: bool = False, effectful: bool = False,
                 views: bool = False):
        self.name = name
        self.multiple_results = multiple_results
        self.effectful = effectful
        self.views = views

    def __repr__(self):
        return self.name


abstract_eval: dict = {}
kernels: dict = {}
registry: dict[str, Primitive] = {}


def define(name: str, abstract_eval_rule, kernel, **flags) -> Primitive:
    """Creates a primitive and fills its rows of the tables."""
    if name in registry:
        raise ValueError(f"primitive {name!r} is defined twice")
    prim = Primitive(name, **flags)
    registry[name] = prim
    abstract_eval[prim] = abstract_eval_rule
    kernels[prim] = kernel
    return prim
