"""The graph IR: typed values, equations, and graphs that hold subgraphs.

A `Graph` has input `Var`s, captured constants, a list of `Eqn`s in program
order, and outputs (`Var`s or `Literal`s). Control-flow primitives keep their
bodies as `Graph`s in `Eqn.params`. Every `Var` is assigned once.

>>> import numpy as np
>>> x = Var(AbstractValue((3,), np.float32), "x")
>>> y = Var(AbstractValue((3,), np.float32), "y")
>>> from autograph_runtime.ops.elementwise import ufunc_primitive
>>> g = Graph("double", [x], [Eqn(ufunc_primitive(np.multiply), [x, Literal(2)], {}, [y])], [y])
>>> print(g)
graph double(x:f32[3]) {
  y:f32[3] = multiply x 2
  return y
}
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import numpy as np

from .abstract import AbstractValue, is_python_number, python_aval

_ids = itertools.count()


class Var:
    """A value computed once in a graph. `name` is a hint (a user's variable name)."""

    __slots__ = ("aval", "name", "id")

    def __init__(self, aval: AbstractValue, name: str | None = None):
        self.aval = aval
        self.name = name
        self.id = next(_ids)

    def __repr__(self):
        return f"Var({self.name or '_'}:{self.aval})"


class Literal:
    """A Python or NumPy scalar written into an equation as it is.

    Python numbers stay "weak" for NumPy's promotion rules (NEP 50): `x_f32 * 2.0`
    is f32; their abstract value says so (`python_aval`: `2.0` is `f64[]~weak`).
    """

    __slots__ = ("value", "aval")

    def __init__(self, value):
        self.value = value
        self.aval = (python_aval(value) if is_python_number(value)
                     else AbstractValue((), np.result_type(value)))

    def __repr__(self):
        return repr(self.value)


Atom = Var | Literal


@dataclasses.dataclass(frozen=True)
class SourceInfo:
    """Where in the user's code an equation was traced from."""

    filename: str
    lineno: int
    function: str

    def __str__(self):
        return f"{self.filename}:{self.lineno} in {self.function}"


@dataclasses.dataclass
class Eqn:
    """`outputs = primitive(*inputs, **params)`, traced from `source`."""

    primitive: Any
    inputs: list
    params: dict
    outputs: list
    source: SourceInfo | None = None

    def subgraphs(self):
        for value in self.params.values():
            if isinstance(value, Graph):
                yield value
            elif isinstance(value, tuple):
                yield from (g for g in value if isinstance(g, Graph))


@dataclasses.dataclass
class Graph:
    """A function in single-assignment form.

    `consts` maps constant `Var`s (captured arrays) to their values.
    `str(graph)` is its text and `graph.to_dot()` its Graphviz `dot`, both
    installed by `runtime.printing` (which imports this module).
    """

    name: str
    inputs: list
    eqns: list
    outputs: list
    consts: dict = dataclasses.field(default_factory=dict)

    def all_eqns(self):
        """Every equation, those of subgraphs included (depth first)."""
        for eqn in self.eqns:
            yield eqn
            for sub in eqn.subgraphs():
                yield from sub.all_eqns()
