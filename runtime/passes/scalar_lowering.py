"""Scalar lowering (the NumPy tier): a loop's 0-d int64 and float64 work on Python numbers.

A staged loop over NumPy scalars pays NumPy's 30-90 ns an operation where
Python's own numbers cost 15-25 ns. This pass rewrites, in each `while_loop`,
the carried values and captured constants that are 0-d int64 or float64 into
Python numbers (`unbox`, once before the loop), and the loop's arithmetic and
comparisons on them into `scalar` equations (`runtime.ops.machine_scalars`),
which give NumPy's results exactly: out of range, not finite or divided by
zero, NumPy computes them. Anything else reads a NumPy scalar again (`box`).
Collatz's loop (`examples/demo.py`) becomes:

    n_1 = __unbox0(n)
    n_2, steps = n_1, 0
    while (n_2 != 1):
        if ((n_2 & 1) == 0):             # `% 2`, as Python ints give it
            n_2 = n_2 >> 1
        else:
            n_3 = 3 * n_2 + 1            # one check for both steps (`then`)
            if n_3 > 9223372036854775806 or n_3 < -9223372036854775807:
                n_3 = __numpy1(3, n_2)
            n_2 = n_3
        steps = steps + 1

A loop is lowered only where that pays: its values stay Python numbers
through the body (a carried value the body reads as a NumPy value is not
lowered), and the equations on them outnumber the conversions the lowering
adds (a `box` costs 0.23 µs, four operations' worth). It runs on the graph
the NumPy tier compiles only: the native tier has machine numbers already.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..abstract import AbstractValue
from ..ir import Eqn, Graph, Literal, Var
from ..ops.control_flow import cond_p
from ..ops.elementwise import ELEMENTWISE_UFUNCS, ufunc_primitive
from ..ops.machine_scalars import COMPARISONS, FLOAT64, INT64, LOWERED, scalar_p
from ..ops.while_primitive import split_while_operands, while_p

_UFUNC_NAMES = {ufunc_primitive(u): u.__name__ for u in ELEMENTWISE_UFUNCS if u.nout == 1}
BOX_COST = 4   # a box costs about four lowered operations' savings


def lower_scalars(graph: Graph) -> Graph:
    """`graph` with the 0-d int64 and float64 work of its loops on Python numbers."""
    rewrite = _Rewrite(graph, lowered=(), in_loop=False)
    rewrite.run()
    return rewrite.finish(want=())


def _candidate(aval: AbstractValue) -> bool:
    return aval.ndim == 0 and not aval.weak and aval.dtype in (INT64, FLOAT64)


def _compatible_literal(value, dtype) -> bool:
    """A Python number NumPy's op takes as the Python op does (NEP 50: weak)."""
    if type(value) in (int, bool):
        return -2 ** 63 <= value < 2 ** 63 if dtype == INT64 else abs(value) <= 2 ** 53
    return type(value) is float and dtype == FLOAT64


@dataclasses.dataclass
class _Counts:
    ops: int = 0       # equations on Python numbers
    boxes: int = 0     # Python numbers made NumPy scalars again, in the loop
    unboxes: int = 0

    def add(self, other: "_Counts") -> None:
        self.ops += other.ops
        self.boxes += other.boxes
        self.unboxes += other.unboxes


class _Rewrite:
    """One graph rewritten with the inputs at `lowered` as Python numbers."""

    def __init__(self, graph: Graph, lowered, in_loop: bool):
        self.graph, self.in_loop = graph, in_loop
        self.eqns: list[Eqn] = []
        self.low: dict[int, Var] = {}        # original Var id -> its Python-number Var
        self.defined: set[int] = {v.id for v in graph.consts}
        self.counts = _Counts()
        self.boxed_inputs: set[int] = set()  # positions of lowered inputs read as NumPy
        self._input_of: dict[int, int] = {}  # id of a lowered input's Var -> its position
        self.inputs = []
        for k, var in enumerate(graph.inputs):
            if k in lowered:
                weak = Var(AbstractValue((), var.aval.dtype, weak=True), var.name)
                self.low[var.id] = weak
                self._input_of[weak.id] = k
                self.inputs.append(weak)
            else:
                self.defined.add(var.id)
                self.inputs.append(var)

    # -- values -----------------------------------------------------------------------------
    def numpy(self, atom):
        """`atom` as the NumPy value the original equations read (boxed once if needed)."""
        if type(atom) is Literal or atom.id in self.defined:
            return atom
        weak = self.low[atom.id]
        self._mark_boxed(weak)
        self.counts.boxes += self.in_loop
        self.eqns.append(Eqn(scalar_p, [weak], {"op": "box", "dtype": atom.aval.dtype},
                             [atom]))
        self.defined.add(atom.id)
        return atom

    def python(self, atom):
        """`atom` as a Python number (unboxed once if needed)."""
        if type(atom) is Literal:   # `k = np.int64(0)` before a loop: a Python 0
            return Literal(atom.value.item()) if isinstance(atom.value, np.generic) else atom
        weak = self.low.get(atom.id)
        if weak is None:
            weak = self.low[atom.id] = Var(AbstractValue((), atom.aval.dtype, weak=True),
                                           atom.name)
            self.eqns.append(Eqn(scalar_p, [atom], {"op": "unbox", "dtype": atom.aval.dtype},
                                 [weak]))
            self.counts.unboxes += self.in_loop
        return weak

    def _mark_boxed(self, weak) -> None:
        if weak.id in self._input_of:
            self.boxed_inputs.add(self._input_of[weak.id])

    # -- equations --------------------------------------------------------------------------
    def run(self) -> None:
        for eqn in self.graph.eqns:
            if eqn.primitive is while_p:
                self._while(eqn)
            elif eqn.primitive is cond_p:
                self._cond(eqn)
            elif not self._lowered(eqn):
                self._keep(eqn)

    def _keep(self, eqn: Eqn) -> None:
        inputs = [self.numpy(a) for a in eqn.inputs]
        if any(a is not b for a, b in zip(inputs, eqn.inputs)):
            eqn = Eqn(eqn.primitive, inputs, eqn.params, eqn.outputs, eqn.source)
        self.eqns.append(eqn)
        self.defined.update(v.id for v in eqn.outputs)

    def _lowered(self, eqn: Eqn) -> bool:
        """Writes `eqn` as a `scalar` equation where it is lowerable; False where not."""
        op = _UFUNC_NAMES.get(eqn.primitive)
        out = eqn.outputs[0].aval if len(eqn.outputs) == 1 else None
        if not self.in_loop or op is None or eqn.params or out is None or out.ndim or \
                not any(type(a) is Var and a.id in self.low for a in eqn.inputs):
            return False
        dtypes = {a.aval.dtype for a in eqn.inputs if type(a) is not Literal and not a.aval.weak}
        if len(dtypes) != 1:
            return False
        (dtype,) = dtypes
        if op not in LOWERED.get(dtype, ()) or out.dtype != (bool if op in COMPARISONS else dtype):
            return False
        for a in eqn.inputs:
            if type(a) is Literal:
                if not _compatible_literal(a.value, dtype):
                    return False
            elif a.aval.weak and not (op in COMPARISONS and dtype == INT64
                                      and a.aval.dtype.kind in "bi"):
                return False   # NumPy casts a Python int to int64 for arithmetic (may fail)
            elif a.aval.ndim:
                return False
        inputs = [a if type(a) is Literal or a.aval.weak else self.python(a) for a in eqn.inputs]
        lowered = tuple(type(a) is not Literal and not a.aval.weak for a in eqn.inputs)
        weak = Var(_scalar_aval(op, dtype), eqn.outputs[0].name)
        self.eqns.append(Eqn(scalar_p, inputs, {"op": op, "dtype": dtype, "lowered": lowered},
                             [weak], eqn.source))
        self.low[eqn.outputs[0].id] = weak
        self.counts.ops += 1
        return True

    def _cond(self, eqn: Eqn) -> None:
        operands = eqn.inputs[1:]
        lowered = {k for k, a in enumerate(operands)
                   if type(a) is Var and a.id in self.low and a.id not in self.defined}
        branches = [_Rewrite(eqn.params[b], lowered, self.in_loop) for b in ("true", "false")]
        for branch in branches:
            branch.run()
        agreed = {j for j, var in enumerate(eqn.outputs)
                  if all(b.can_lower_output(j) for b in branches)}
        true, false = (b.finish(agreed) for b in branches)
        for branch in branches:
            self.counts.add(branch.counts)
            for k in branch.boxed_inputs:
                self._mark_boxed(self.low[operands[k].id])
        pred = eqn.inputs[0]
        pred = pred if type(pred) is Literal or pred.id in self.defined else self.low[pred.id]
        inputs = [pred] + [self.low[a.id] if k in lowered else self.numpy(a)
                           for k, a in enumerate(operands)]
        self.eqns.append(Eqn(cond_p, inputs, {**eqn.params, "true": true, "false": false},
                             self._outputs(eqn, agreed), eqn.source))

    def _while(self, eqn: Eqn) -> None:
        params = eqn.params
        carry, cond_consts, body_consts = split_while_operands(params, eqn.inputs)
        n, n_cond = len(carry), len(cond_consts)
        slots = {i for i, a in enumerate(carry) if _candidate(a.aval)}   # a Var or a literal
        cond_in = {n + k for k, a in enumerate(cond_consts) if type(a) is Var and _candidate(a.aval)}
        body_in = {n + k for k, a in enumerate(body_consts) if type(a) is Var and _candidate(a.aval)}
        while True:
            cond = _Rewrite(params["cond"], slots | cond_in, in_loop=True)
            body = _Rewrite(params["body"], slots | body_in, in_loop=True)
            cond.run()
            body.run()
            boxed = cond.boxed_inputs | body.boxed_inputs
            keep = {i for i in slots if i not in boxed and body.can_lower_output(i)}
            if keep == slots and not boxed & (cond_in | body_in):
                break
            slots, cond_in, body_in = keep, cond_in - boxed, body_in - boxed
        counts = _Counts()
        counts.add(cond.counts)
        counts.add(body.counts)
        if counts.ops <= BOX_COST * counts.boxes + counts.unboxes and (slots or cond_in or body_in):
            cond = _Rewrite(params["cond"], (), in_loop=True)   # no gain: NumPy scalars,
            body = _Rewrite(params["body"], (), in_loop=True)   # loops inside still lowered
            cond.run()
            body.run()
            slots, cond_in, body_in = set(), set(), set()
        new_params = {**params, "cond": cond.finish(want={0}), "body": body.finish(want=slots)}
        lowered = slots | cond_in | {n_cond + k for k in body_in}   # positions in eqn.inputs
        inputs = [self.python(a) if k in lowered else self.numpy(a)
                  for k, a in enumerate(eqn.inputs)]
        self.eqns.append(Eqn(while_p, inputs, new_params, self._outputs(eqn, slots),
                             eqn.source))

    def _outputs(self, eqn: Eqn, lowered) -> list:
        """The outputs of a rewritten `cond` or `while_loop`: Python numbers at `lowered`."""
        outputs = []
        for j, var in enumerate(eqn.outputs):
            if j in lowered:
                self.low[var.id] = Var(AbstractValue((), var.aval.dtype, weak=True), var.name)
                outputs.append(self.low[var.id])
            else:
                self.defined.add(var.id)
                outputs.append(var)
        return outputs

    # -- outputs ----------------------------------------------------------------------------
    def can_lower_output(self, j: int) -> bool:
        atom = self.graph.outputs[j]
        return type(atom) is Var and atom.id in self.low

    def finish(self, want) -> Graph:
        """The rewritten graph, its outputs at `want` Python numbers (where it can)."""
        outputs = []
        for j, atom in enumerate(self.graph.outputs):
            if j in want and type(atom) is Var and atom.id in self.low:
                outputs.append(self.low[atom.id])
            else:
                outputs.append(self.numpy(atom))
        eqns = _fuse_literal_steps(self.eqns, outputs)
        return Graph(self.graph.name, self.inputs, eqns, outputs, self.graph.consts)


def _fuse_literal_steps(eqns: list, outputs: list) -> list:
    """`t = 3 * n` and `m = t + 1` (int64, t read by that only) as one `scalar` equation
    with `then`: one range check (`machine_scalars._then_bounds`), where each needed its own."""
    uses: dict = {}
    for atom in [a for eqn in eqns for a in eqn.inputs] + outputs:
        if type(atom) is Var:
            uses[atom.id] = uses.get(atom.id, 0) + 1
    fused, skip = [], False
    for first, second in zip(eqns, eqns[1:] + [None]):
        if skip:
            skip = False
            continue
        then = _literal_step(first, second, uses)
        if then is None:
            fused.append(first)
            continue
        fused.append(Eqn(scalar_p, first.inputs, {**first.params, "then": then},
                         second.outputs, first.source))
        skip = True
    return fused


def _literal_step(first, second, uses):
    """`(op2, c, c_first)` where `second` adds or subtracts a literal int from the result of
    `first`, an int64 `+ - *` read by nothing else; else None."""
    if second is None or first.primitive is not scalar_p or second.primitive is not scalar_p:
        return None
    if first.params["dtype"] != INT64 or second.params["dtype"] != INT64 or \
            first.params["op"] not in _FUSABLE or second.params["op"] not in ("add", "subtract") \
            or "then" in first.params or "then" in second.params:
        return None
    t = first.outputs[0]
    if uses.get(t.id) != 1 or len(second.inputs) != 2:
        return None
    a, b = second.inputs
    if a is t and type(b) is Literal and type(b.value) is int and abs(b.value) < 2 ** 62:
        return second.params["op"], b.value, False
    if b is t and type(a) is Literal and type(a.value) is int and abs(a.value) < 2 ** 62:
        return second.params["op"], a.value, True
    return None


_FUSABLE = ("add", "subtract", "multiply")


def _scalar_aval(op: str, dtype) -> AbstractValue:
    return AbstractValue((), bool if op in COMPARISONS else dtype, weak=True)
