"""Trip threading (the NumPy tier): a loop trip whose branch decides the next trip runs it too.

A staged `while` tests its condition and its body's branch on every trip. Where
a branch's results prove both for the next trip, that branch runs the next trip
as well, with neither test. Collatz's odd branch gives `3 * n + 1`, which is
even: the next trip's `n != 1` holds and it takes the even branch. Its loop
(`examples/demo.py`), as the NumPy tier runs it:

    while n_2 != 1:
        if not (n_2 & 1):
            n_2 = n_2 >> 1
            steps = steps + 1
        else:
            n_3 = 3 * n_2 + 1           # (its int64 range check)
            n_2 = n_3 >> 1
            steps = steps + 2

The proofs come from the low bit of integers (`parity`): known from literals,
from a branch taken on `n % 2`, and through `+ - *` and negation, whose parity
int64 wrap-around keeps. The next trip is the one eager code runs, in the same
order, so the results, errors and warnings are the same; the condition skipped
is a comparison, which neither raises nor warns. A body with an
effect (print, variable write) or a captured array is left as it is, and so
is a loop no branch threads. Each loop's body is threaded once: its code at most doubles.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..effects import graph_effects, prune_dead_code
from ..ir import Eqn, Graph, Literal, Var
from ..ops.control_flow import cond_p
from ..ops.elementwise import ELEMENTWISE_UFUNCS, ufunc_primitive
from ..ops.machine_scalars import scalar_p
from ..ops.python_numbers import python_op_p
from ..ops.while_primitive import while_p
from .rewrite import each_subgraph

_UFUNC_NAMES = {ufunc_primitive(u): u.__name__ for u in ELEMENTWISE_UFUNCS if u.nout == 1}
# the names of `python_op` that differ from the ufuncs' (Python's operators)
_PYTHON_NAMES = {"sub": "subtract", "mul": "multiply", "mod": "remainder",
                 "and": "bitwise_and", "eq": "equal", "ne": "not_equal", "neg": "negative",
                 "lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}
_ARITHMETIC = {"add", "subtract", "multiply", "negative"}
_SILENT = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
           "logical_not", "logical_and", "logical_or"}   # on integers: never raise or warn


def thread_trips(graph: Graph) -> Graph:
    """`graph` with each `while_loop` threaded where a branch proves the next trip."""
    eqns = [each_subgraph(eqn, thread_trips) for eqn in graph.eqns]
    eqns = [_threaded(eqn) if eqn.primitive is while_p else eqn for eqn in eqns]
    if all(a is b for a, b in zip(eqns, graph.eqns)):
        return graph
    return Graph(graph.name, graph.inputs, eqns, graph.outputs, graph.consts)


# -- what is known: exact values and low bits ---------------------------------------------------
def _op(eqn: Eqn) -> str | None:
    """The operation an equation computes on numbers, by its ufunc's name; else None."""
    if eqn.primitive is scalar_p:
        return eqn.params["op"]
    if eqn.primitive is python_op_p:
        return _PYTHON_NAMES.get(eqn.params["op"], eqn.params["op"])
    return _UFUNC_NAMES.get(eqn.primitive) if not eqn.params else None


def _integral(atom) -> bool:
    return atom.aval.ndim == 0 and atom.aval.dtype.kind in "biu"


class Facts:
    """What is known of a graph's integers and booleans: exact values and low bits."""

    def __init__(self):
        self.exact: dict = {}    # Var id -> its value
        self.parity: dict = {}   # Var id -> its low bit

    def value(self, atom):
        if type(atom) is Literal:
            value = atom.value
            return value.item() if isinstance(value, np.generic) else value
        return self.exact.get(atom.id)

    def low_bit(self, atom):
        value = self.value(atom)
        if type(value) in (int, bool):
            return int(value) & 1
        return None if type(atom) is Literal else self.parity.get(atom.id)

    def set(self, var, value=None, bit=None) -> None:
        if value is not None:
            self.exact[var.id] = value
            bit = int(value) & 1 if type(value) in (int, bool) else bit
        if bit is not None:
            self.parity[var.id] = bit

    def carried(self, atoms, into) -> "Facts":
        """The facts of `atoms`, as those of the Vars `into` (the inputs they bind)."""
        facts = Facts()
        for atom, var in zip(atoms, into):
            facts.set(var, self.value(atom), self.low_bit(atom))
        return facts


def _evaluate(eqn: Eqn, facts: Facts) -> None:
    """Adds what `eqn`'s results are known to be, from its operands' facts."""
    if eqn.primitive is cond_p:
        return _evaluate_cond(eqn, facts)
    op = _op(eqn)
    if op is None or len(eqn.outputs) != 1 or not all(
            _integral(a) for a in eqn.inputs + eqn.outputs):
        return None
    if op in _ARITHMETIC and eqn.outputs[0].aval.dtype.kind == "b":
        return None   # NumPy's bool `+` is `or`
    value, bit = _known(op, [facts.value(a) for a in eqn.inputs],
                        [facts.low_bit(a) for a in eqn.inputs])
    then = eqn.params.get("then") if eqn.primitive is scalar_p else None
    if then is not None:   # `t op2 c`: an int literal added or subtracted after `op`
        value, bit = None, None if bit is None else bit ^ (then[1] & 1)
    facts.set(eqn.outputs[0], value, bit)


def _known(op: str, values: list, bits: list) -> tuple:
    """`(value, low bit)` of `op`'s result, each None where unknown. Sums, differences,
    products and negations keep their low bits under wrap-around (mod 2 ** 64)."""
    if op in ("box", "unbox", "positive"):
        return values[0], bits[0]
    if op == "negative":
        return None, bits[0]
    if op in ("add", "subtract"):
        return None, None if None in bits else bits[0] ^ bits[1]
    if op == "multiply":
        return None, 0 if 0 in bits else 1 if bits == [1, 1] else None
    if _low_bit_op(op, values[1:]):
        return bits[0], bits[0]
    if op in ("equal", "not_equal"):
        equal = values[0] == values[1] if None not in values else \
            False if None not in bits and bits[0] != bits[1] else None
        return (None if equal is None else equal == (op == "equal")), None
    if op == "logical_not" and values[0] is not None:
        return not values[0], None
    return None, None


def _low_bit_op(op: str, divisor) -> bool:
    """Whether `op` by `divisor` (a list of one value) gives its operand's low bit."""
    return divisor == [2] and op == "remainder" or divisor == [1] and op == "bitwise_and"


def _evaluate_cond(eqn: Eqn, facts: Facts) -> None:
    """A `cond`'s results: what both branches agree on (the one taken, where known)."""
    truth = facts.value(eqn.inputs[0])
    branches = [eqn.params["true"], eqn.params["false"]]
    if truth is not None:
        branches = branches[:1] if truth else branches[1:]
    results = [_outputs_known(b, facts.carried(eqn.inputs[1:], b.inputs)) for b in branches]
    for j, out in enumerate(eqn.outputs):
        if all(r[j] == results[0][j] for r in results):
            facts.set(out, *results[0][j])


def _outputs_known(graph: Graph, facts: Facts) -> list:
    for eqn in graph.eqns:
        _evaluate(eqn, facts)
    return [(facts.value(a), facts.low_bit(a)) for a in graph.outputs]


def _learn(test, truth: bool, defined: dict, facts: Facts) -> None:
    """Adds what a test found `truth` (its branch taken) says of the values it reads:
    `n % 2 == 0` found false, or `n & 1` found true, says n is odd."""
    if type(test) is Literal or not _integral(test):
        return
    eqn = defined.get(test.id)
    if test.aval.dtype.kind != "b":   # an int tested (`if n % 2:`): zero or not
        if not truth:
            _learn_value(test, 0, eqn, facts)
        elif _is_low_bit(eqn, facts):
            _learn_value(test, 1, eqn, facts)
        return
    facts.set(test, truth)
    op = _op(eqn) if eqn is not None else None
    if op == "logical_not":
        _learn(eqn.inputs[0], not truth, defined, facts)
    elif op in ("equal", "not_equal"):
        a, b = eqn.inputs if type(eqn.inputs[1]) is Literal else eqn.inputs[::-1]
        if type(a) is Literal or type(b) is not Literal:
            return
        source = defined.get(a.id)
        if truth == (op == "equal"):
            _learn_value(a, facts.value(b), source, facts)
        elif facts.value(b) in (0, 1) and _is_low_bit(source, facts):
            _learn_value(a, 1 - facts.value(b), source, facts)   # a low bit: 0 or 1


def _is_low_bit(eqn, facts: Facts) -> bool:
    """Whether `eqn` computes a low bit (`n % 2`, `n & 1`), so its result is 0 or 1."""
    return eqn is not None and _op(eqn) is not None and len(eqn.inputs) == 2 and \
        _low_bit_op(_op(eqn), [facts.value(eqn.inputs[1])])


def _learn_value(var, value, eqn, facts: Facts) -> None:
    """`var`, defined by `eqn`, is `value`; where `eqn` is `n % 2` or `n & 1`, n's low bit."""
    facts.set(var, value)
    if _is_low_bit(eqn, facts) and type(eqn.inputs[0]) is Var and _integral(eqn.inputs[0]) \
            and type(value) is int:
        facts.set(eqn.inputs[0], bit=value & 1)


# -- the rewrite ----------------------------------------------------------------------------------
def _threaded(loop: Eqn) -> Eqn:
    """`loop` with its body threaded through the first branch that proves the next trip."""
    cond, body, n = loop.params["cond"], loop.params["body"], loop.params["num_carry"]
    if graph_effects(body).any or not all(_op(e) in _SILENT for e in cond.eqns) or \
            any(graph.consts for graph in _graphs(body)):
        return loop   # (constants are read by the graph that holds them: not moved)
    defined = {v.id: e for e in body.eqns for v in e.outputs}
    for k, branch in enumerate(body.eqns):
        if branch.primitive is not cond_p:
            continue
        for arm in ("true", "false"):
            facts = Facts()
            for eqn in body.eqns[:k]:
                _evaluate(eqn, facts)
            _learn(branch.inputs[0], arm == "true", defined, facts)
            taken = branch.params[arm]
            for out, known in zip(branch.outputs, _outputs_known(
                    taken, facts.carried(branch.inputs[1:], taken.inputs))):
                facts.set(out, *known)
            for eqn in body.eqns[k + 1:]:
                _evaluate(eqn, facts)
            (test,) = _outputs_known(cond, facts.carried(body.outputs, cond.inputs[:n]))
            if test[0] is not True:
                continue
            following = facts.carried(body.outputs, body.inputs[:n])
            for eqn in body.eqns[:k]:
                _evaluate(eqn, following)
            truth = following.value(branch.inputs[0])
            if truth is not None:
                threaded = _thread(body, k, arm, "true" if truth else "false")
                return Eqn(while_p, loop.inputs, {**loop.params, "body": threaded},
                           loop.outputs, loop.source)
    return loop


def _thread(body: Graph, k: int, arm: str, following: str) -> Graph:
    """`body` whose `cond` equation `k` runs, in its branch `arm`, the rest of the trip
    and then the next trip in its branch `following`."""
    branch = body.eqns[k]
    prefix = body.eqns[:k]
    later = [a for a in branch.inputs[1:] + body.outputs if type(a) is Var] + [
        a for eqn in body.eqns[k + 1:] for a in eqn.inputs if type(a) is Var]
    read_later = {a.id for a in later}   # (not the test alone: its code stays inline)
    passed = list(body.inputs) + [v for eqn in prefix for v in eqn.outputs if v.id in read_later]
    arms = {}
    for name in ("true", "false"):
        inputs = [Var(v.aval, v.name) for v in passed]
        subst = {v.id: new for v, new in zip(passed, inputs)}
        eqns: list = []
        outputs = _trip(body, k, name, subst, eqns, start=k)
        if name == arm:   # the next trip, from its start
            consts_read = inputs[len(outputs):len(body.inputs)]   # the loop's constants
            subst = {v.id: atom for v, atom in zip(body.inputs, outputs + consts_read)}
            outputs = _trip(body, k, following, subst, eqns, start=0)
            eqns = _folded_steps(eqns, outputs)
        arms[name] = Graph(f"{body.name}_{name}", inputs, eqns, outputs)
    results = [Var(a.aval, getattr(a, "name", None)) for a in body.outputs]
    threaded = Eqn(cond_p, [branch.inputs[0]] + passed, {**branch.params, **arms}, results,
                   branch.source)
    return prune_dead_code(Graph(body.name, body.inputs, prefix + [threaded], results))


def _trip(body: Graph, k: int, arm: str, subst: dict, eqns: list, start: int):
    """Appends to `eqns` the body's equations from `start` on (their inputs as `subst`
    binds them), its `cond` equation `k` as its branch `arm`; returns the body's results."""
    branch = body.eqns[k]
    for eqn in body.eqns[start:]:
        if eqn is branch:
            taken = branch.params[arm]
            subst.update((v.id, _bound(a, subst)) for v, a in zip(taken.inputs, eqn.inputs[1:]))
            eqns.extend(_cloned(e, subst) for e in taken.eqns)
            subst.update((v.id, _bound(a, subst)) for v, a in zip(eqn.outputs, taken.outputs))
        else:
            eqns.append(_cloned(eqn, subst))
    return [_bound(a, subst) for a in body.outputs]


def _graphs(graph: Graph):
    """`graph` and its subgraphs, depth first."""
    yield graph
    for eqn in graph.eqns:
        for sub in eqn.subgraphs():
            yield from _graphs(sub)


def _bound(atom, subst: dict):
    return atom if type(atom) is Literal else subst.get(atom.id, atom)


def _cloned(eqn: Eqn, subst: dict) -> Eqn:
    """`eqn` on the atoms `subst` binds, with new result Vars (added to `subst`), and
    copies of its subgraphs: code generation names a value by its Var."""
    inputs = [_bound(a, subst) for a in eqn.inputs]
    params = each_subgraph(eqn, _fresh_graph).params
    outputs = [Var(v.aval, v.name) for v in eqn.outputs]
    subst.update((v.id, new) for v, new in zip(eqn.outputs, outputs))
    return Eqn(eqn.primitive, inputs, params, outputs, eqn.source)


def _fresh_graph(graph: Graph) -> Graph:
    """A copy of `graph` with new Vars throughout."""
    subst = {v.id: Var(v.aval, v.name) for v in itertools.chain(graph.inputs, graph.consts)}
    eqns = [_cloned(eqn, subst) for eqn in graph.eqns]
    return Graph(graph.name, [subst[v.id] for v in graph.inputs], eqns,
                 [_bound(a, subst) for a in graph.outputs],
                 {subst[v.id]: c for v, c in graph.consts.items()})


def _folded_steps(eqns: list, outputs: list) -> list:
    """Two trips' `steps + 1` as one `steps + 2`: a Python int's `+` of an int literal on the
    result of another, which nothing else reads (exact: Python ints do not wrap)."""
    uses: dict = {}
    for atom in [a for eqn in eqns for a in eqn.inputs] + outputs:
        if type(atom) is Var:
            uses[atom.id] = uses.get(atom.id, 0) + 1
    steps = {}   # Var id -> (the Var it adds to, the int added), for the adds folded
    folded = []
    for eqn in eqns:
        step = _int_step(eqn)
        if step is not None and step[0].id in steps and uses[step[0].id] == 1:
            start, first = steps.pop(step[0].id)
            folded.remove(next(e for e in folded if e.outputs[0] is step[0]))
            eqn = Eqn(python_op_p, [start, Literal(first + step[1])], eqn.params, eqn.outputs,
                      eqn.source)
            step = (start, first + step[1])
        if step is not None:
            steps[eqn.outputs[0].id] = step
        folded.append(eqn)
    return folded


def _int_step(eqn: Eqn):
    """`(x, c)` where `eqn` is a Python int's `x + c` (c an int literal); else None."""
    if eqn.primitive is not python_op_p or eqn.params["op"] != "add":
        return None
    x, c = eqn.inputs
    if type(x) is Literal:
        x, c = c, x
    if type(x) is Var and type(c) is Literal and type(c.value) is int and \
            x.aval.weak and x.aval.dtype.kind == "i" and eqn.outputs[0].aval.dtype.kind == "i":
        return x, c.value
    return None
