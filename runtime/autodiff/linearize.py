"""Reverse mode over a graph: emit its forward pass, return its backward pass.

`linearize(graph, args, active)` emits `graph`'s equations into the graph
being traced (on `args`) and returns its outputs and a function `backward`
that, called with the outputs' cotangents, emits the backward equations and
returns the inputs' cotangents. Only *active* values (floating-point values,
and stacks, that depend on an active input) take part in the backward pass.

Ordinary primitives are re-emitted as they are, and their backward pass is
their rule in `primitives.vjp_rules`, called on traced values: the backward
pass is made of ordinary equations, so gradient graphs can be differentiated
again. Primitives that must change their forward pass to save what their
backward pass needs (`cond`, `while_loop`, `call`) have a rule in
`linearize_rules` instead: `rule(args, active, **params) -> (outs, backward)`.
"""
from __future__ import annotations

from .. import primitives
from ..abstract import AbstractValue
from ..errors import TracingError, add_note_once
from ..ir import Literal
from ..tracer import Tracer, current_builder
from .cotangents import carries_activity, fit, is_stack

linearize_rules: dict = {}


def read(env: dict, atom):
    """The value of `atom` in `env`: a Tracer, or a literal's Python value."""
    return atom.value if isinstance(atom, Literal) else env[atom.id]


def _bind_inputs(graph, args) -> dict:
    builder = current_builder()
    env = {v.id: x for v, x in zip(graph.inputs, args)}
    for var, value in graph.consts.items():
        env[var.id] = Tracer(builder, builder.const(value))
    return env


def emit(eqn, args) -> list:
    """Re-emits `eqn` on `args` in the current graph; its outputs, as a list."""
    builder = current_builder()
    outs = builder.add_eqn(eqn.primitive, [builder.atom(x) for x in args], eqn.params)
    builder.eqns[-1].source = eqn.source
    return outs if eqn.primitive.multiple_results else [outs]


def emit_graph(graph, args) -> list:
    """Emits `graph`'s equations on `args` into the current graph; returns its outputs."""
    env = _bind_inputs(graph, args)
    for eqn in graph.eqns:
        outs = emit(eqn, [read(env, a) for a in eqn.inputs])
        env.update((v.id, x) for v, x in zip(eqn.outputs, outs))
    return [read(env, a) for a in graph.outputs]


def linearize(graph, args, active) -> tuple[list, callable]:
    """Emits `graph` on `args`; returns its outputs and its backward pass.

    `active[i]` says whether input i is differentiated. `backward(cts)` takes
    one cotangent per output (None: zero) and returns one per input (None
    where the input is inactive or gets none).
    """
    env = _bind_inputs(graph, args)
    live = {v.id for v, a in zip(graph.inputs, active) if a and carries_activity(v.aval)}
    complex_live: set = set()  # complex values that depend on a differentiated input
    tape = []
    for eqn in graph.eqns:
        args_ = [read(env, a) for a in eqn.inputs]
        act = [not isinstance(a, Literal) and a.id in live for a in eqn.inputs]
        through_complex = any(not isinstance(a, Literal) and a.id in complex_live
                              for a in eqn.inputs)
        rule = linearize_rules.get(eqn.primitive) if any(act) else None
        if rule is not None:
            outs, backward = rule(args_, act, **eqn.params)
        else:
            outs = emit(eqn, args_)
            backward = _rule_backward(eqn, args_, outs) if any(act) else None
        env.update((v.id, x) for v, x in zip(eqn.outputs, outs))
        if any(act) or through_complex:
            complex_live.update(v.id for v in eqn.outputs if _is_complex(v.aval))
        if through_complex:  # a cotangent reaching it would be dropped: refuse when one does
            backward = _complex_path(eqn)
            act = [True] * len(act)
        if any(act):
            live.update(v.id for v in eqn.outputs if carries_activity(v.aval))
        if backward is not None and any(carries_activity(v.aval) for v in eqn.outputs):
            tape.append((eqn, act, backward))
    outs = [read(env, a) for a in graph.outputs]

    def backward(cts):
        ct_env: dict = {}
        for atom, ct in zip(graph.outputs, cts):
            if ct is not None and not isinstance(atom, Literal) and atom.id in live:
                _accumulate(ct_env, atom, fit(ct, atom.aval, read(env, atom)))
        for eqn, act, eqn_backward in reversed(tape):
            out_cts = [ct_env.pop(v.id, None) for v in eqn.outputs]
            if all(ct is None for ct in out_cts):
                continue
            in_cts = _with_source(eqn, eqn_backward, out_cts)
            for atom, is_active, ct in zip(eqn.inputs, act, in_cts):
                if is_active and ct is not None:
                    _accumulate(ct_env, atom, fit(ct, atom.aval, read(env, atom)))
        return [ct_env.get(v.id) if a else None for v, a in zip(graph.inputs, active)]
    return outs, backward


def _accumulate(ct_env, atom, ct):
    known = ct_env.get(atom.id)
    if known is not None and is_stack(atom.aval):
        raise TracingError("a stack read twice cannot be differentiated (its cotangents "
                           "would have to be added entry by entry)")
    ct_env[atom.id] = ct if known is None else known + ct


def _rule_backward(eqn, args, outs):
    rule = primitives.vjp_rules.get(eqn.primitive)
    if rule is None:
        return _missing_rule(eqn)
    multiple = eqn.primitive.multiple_results

    def backward(out_cts):
        try:
            cts = rule(out_cts if multiple else out_cts[0], outs if multiple else outs[0],
                       *args, **eqn.params)
        except TracingError as error:   # a rule's refusal: the user's line of the equation
            if eqn.source:
                add_note_once(error, f"while differentiating {eqn.primitive.name} (traced "
                                     f"from {eqn.source})")
            raise
        return list(cts)
    return backward


def _missing_rule(eqn):
    def backward(out_cts):
        where = f" (traced from {eqn.source})" if eqn.source else ""
        function = eqn.params.get("function")   # `numpy_call`: NumPy's own, run as it is
        what = f" ({function}, run as NumPy's own)" if isinstance(function, str) else ""
        raise TracingError(f"no gradient rule for the primitive {eqn.primitive.name!r}{what}"
                           f"{where}; a gradient cannot flow through it")
    return backward


def _is_complex(aval) -> bool:
    return type(aval) is AbstractValue and aval.dtype.kind == "c"


def _complex_path(eqn):
    def backward(out_cts):
        where = f" (traced from {eqn.source})" if eqn.source else ""
        raise TracingError(f"no gradient through complex values: {eqn.primitive.name!r}"
                           f"{where} takes a complex value computed from a differentiated "
                           f"input; gradients are defined for real-valued computations only")
    return backward


def _with_source(eqn, backward, out_cts):
    """Runs a backward pass; the equations it adds name the forward equation's source."""
    builder = current_builder()
    start = len(builder.eqns)
    in_cts = backward(out_cts)
    if eqn.source is not None:
        for new in builder.eqns[start:]:
            new.source = eqn.source
    return in_cts
