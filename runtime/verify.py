"""The IR verifier: the checks every transformation must pass.

- single assignment: each Var is defined once (input, constant or output);
- no unbound values: each input of an equation is defined before it, in the
  same graph (subgraphs see only their own inputs: captures are explicit);
- types agree: each equation's outputs are what its primitive's shape rule
  gives for its inputs, and control-flow bodies fit their carried types.
"""
from __future__ import annotations

from . import primitives
from .ir import Graph, Literal


class VerificationError(AssertionError):
    """The graph breaks an invariant of the IR."""


def verify(graph: Graph) -> None:
    """Raises `VerificationError` naming the first broken invariant."""
    defined: set[int] = set()

    def define(var, what):
        if var.id in defined:
            raise VerificationError(f"{graph.name}: {var} is assigned twice ({what})")
        defined.add(var.id)

    for var in graph.inputs:
        define(var, "input")
    for var in graph.consts:
        define(var, "constant")
    for i, eqn in enumerate(graph.eqns):
        where = f"{graph.name}: equation {i} ({eqn.primitive.name})"
        for atom in eqn.inputs:
            if not isinstance(atom, Literal) and atom.id not in defined:
                raise VerificationError(f"{where} reads unbound {atom}")
        expected = primitives.abstract_eval[eqn.primitive](*eqn.inputs, **eqn.params)
        expected = expected if eqn.primitive.multiple_results else [expected]
        if len(expected) != len(eqn.outputs):
            raise VerificationError(f"{where} has {len(eqn.outputs)} outputs, "
                                    f"its rule gives {len(expected)}")
        for var, aval in zip(eqn.outputs, expected):
            if not aval.accepts(var.aval):
                raise VerificationError(f"{where}: output {var} does not fit {aval}")
        for sub in eqn.subgraphs():
            verify(sub)
        _check_body_types(eqn, where)
        for var in eqn.outputs:
            define(var, where)
    for atom in graph.outputs:
        if not isinstance(atom, Literal) and atom.id not in defined:
            raise VerificationError(f"{graph.name}: returns unbound {atom}")


def _check_body_types(eqn, where):
    """Operands must fit the subgraph inputs they are bound to (`primitives.check_rules`)."""
    rule = primitives.check_rules.get(eqn.primitive)
    if rule is None:
        return
    for expected, actual in rule(eqn):
        if not expected.accepts(actual):
            raise VerificationError(f"{where}: {actual} does not fit {expected}")
