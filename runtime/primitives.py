"""Primitives and the tables that interpret them.

Each interpretation of a primitive lives in its own table keyed by the
`Primitive`, filled next to the primitive's definition in `runtime/ops/`:

- `abstract_eval[p](*atoms, **params)`: the output `AbstractValue` (a list of
  them when `p.multiple_results`) from the input atoms (`Var`s or `Literal`s).
- `kernels[p](xp, **params)`: binds the kernel to an array module (`numpy`
  or `cupy`) and static params; returns a function of the input arrays.
  Backends merge overrides over this table (see `runtime.backend`).
- `vjp_rules[p](ct, out, *inputs, **params)`: the cotangents of the inputs
  (None where there is none) from that of the output(s); see `runtime.autodiff`.
"""
from __future__ import annotations


class Primitive:
    """A named operation of the IR.

    `effectful` ones are never reordered or dropped; the outputs of `views` ones
    may share memory with their first input, as NumPy views do. `state` is
    "read" or "write" for the primitives that access a `Variable` (their first
    input is its resource); writes are effectful, reads only ordered (see
    `runtime.effects`).
    """

    __slots__ = ("name", "multiple_results", "effectful", "views", "state")

    def __init__(self, name: str, *, multiple_results: bool = False, effectful: bool = False,
                 views: bool = False, state: str | None = None):
        if state not in (None, "read", "write"):
            raise ValueError(f"state must be None, 'read' or 'write', not {state!r}")
        self.name = name
        self.multiple_results = multiple_results
        self.effectful = effectful or state == "write"
        self.views = views
        self.state = state

    def __repr__(self):
        return self.name


abstract_eval: dict = {}
kernels: dict = {}
vjp_rules: dict = {}  # filled by runtime.autodiff: rule(ct, out, *inputs, **params) -> input cts
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
