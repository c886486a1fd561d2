"""Code generation for `cond` and `while_loop`: real `if` and `while` statements.

A subgraph's inputs become aliases of the enclosing function's values, so a
staged loop runs as a plain Python loop over the kernels, with no call per
iteration (a test that is one expression, a scalar one inlined, is the loop's
own: `while n_2 != 1:`):

    i, x = 0, x0
    while True:
        t0 = i < n
        if not t0:
            break
        t1 = x * 2.0
        t2 = i + 1
        i, x = t2, t1

While a graph counts its loop trips (`autograph.tiers`, tier "auto" before the
graph is hot), `compile_graph(..., trips=report)` adds a counter to each
inlined loop, reported once per loop run with the function's inputs (the
sample a hot graph's two tiers are timed on); the code that runs once the
graph stops counting is compiled without it, so it costs nothing then:

    i, x = 0, x0
    trips = 0
    while True:
        t0 = i < n
        if not t0:
            break
        trips += 1
        ...
    __trips1(trips, (x0, n))
"""
from __future__ import annotations

from . import primitives
from .ir import Graph, Literal
from .ops.control_flow import cond_p
from .ops.machine_scalars import operand_from_result, rereads_operands, scalar_p
from .ops.while_primitive import while_p
from .ops.while_primitive import split_while_operands


def _assign(gen, indent, targets, values, eqn=None):
    pairs = [(t, v) for t, v in zip(targets, values) if t != v]
    if pairs:
        gen.emit(indent, f"{', '.join(t for t, _ in pairs)} = {', '.join(v for _, v in pairs)}",
                 eqn)


def _coalesce(gen, graph: Graph, targets: list, movable) -> None:
    """Names each output of `graph` that one of its equations defines (and `movable`
    allows) by its target, so that the equation assigns the target itself:
    `n_3 = n_2 // 2` where `n_4 = n_2 // 2` and `n_3 = n_4` would be."""
    defined = {v.id: k for k, eqn in enumerate(graph.eqns) for v in eqn.outputs}
    outputs = [a.id for a in graph.outputs if not isinstance(a, Literal)]
    for atom, target in zip(graph.outputs, targets):
        if not isinstance(atom, Literal) and atom.id in defined and \
                outputs.count(atom.id) == 1 and atom.id not in gen.alias and \
                movable(defined[atom.id], atom):
            gen.alias[atom.id] = target


def _inline(gen, graph, input_refs, indent, test=False):
    for var, ref in zip(graph.inputs, input_refs):
        gen.alias[var.id] = ref
    gen.block(graph, indent, test=test)
    return [gen.ref(a) for a in graph.outputs]


def _truth(gen, pred: str) -> str:
    """The test as generated code reads it: on a lazy backend, `__truth0(pred)` (computed)."""
    if gen.backend.truth is None:
        return pred
    return f"{gen.global_name(gen.backend.truth, 'truth')}({pred})"


def emit_cond(gen, eqn, refs, outs, indent):
    inner = indent + "    "
    gen.emit(indent, f"if {_truth(gen, refs[0])}:", eqn)
    for branch in ("true", "false"):
        if branch == "false":
            gen.emit(indent, "else:", eqn)
        start = len(gen.lines)
        _coalesce(gen, eqn.params[branch], outs, _writes_early(eqn.params[branch], refs[1:], outs))
        results = _inline(gen, eqn.params[branch], refs[1:], inner)
        _assign(gen, inner, outs, results, eqn)
        if len(gen.lines) == start:
            gen.emit(inner, "pass")


def emit_while(gen, eqn, refs, outs, indent):
    cond, body = eqn.params["cond"], eqn.params["body"]
    start, cond_captures, body_captures = split_while_operands(eqn.params, refs)
    inner = indent + "    "
    _assign(gen, indent, outs, start, eqn)
    counter = gen.namer._fresh("trips") if gen.trips is not None else None
    if counter:
        gen.emit(indent, f"{counter} = 0")
    steps = None   # a lazy backend persisting every k > 1 trips counts them
    if gen.backend.carry is not None and gen.backend.persist_every > 1:
        steps = gen.namer._fresh("steps")
        gen.emit(indent, f"{steps} = 0")
    gen.emit(indent, "while True:", eqn)
    head = len(gen.lines)
    (pred,) = _inline(gen, cond, outs + cond_captures, inner, test=True)
    pred = _truth(gen, pred)
    if len(gen.lines) == head:   # the test is one expression: `while n_2 != 1:`
        gen.lines[-1] = f"{indent}while {pred}:"
    else:
        gen.emit(inner, f"if not {pred}:", eqn)
        gen.emit(inner + "    ", "break")
    if counter:
        gen.emit(inner, f"{counter} += 1")
    _coalesce(gen, body, outs, _assigns_carry_last(body))
    results = _inline(gen, body, outs + body_captures, inner)
    _assign(gen, inner, outs, results, eqn)
    if gen.backend.carry is not None and outs:
        _emit_carry(gen, outs, inner, steps)
    if counter:
        report = gen.global_name(gen.trips, "trips")
        params = _params(gen)
        inputs = ", ".join(params) + ("," if len(params) == 1 else "")
        gen.emit(indent, f"{report}({counter}, ({inputs}))")


def _emit_carry(gen, outs, indent, steps):
    """On a lazy backend, the carried values persisted every `persist_every` trips:

        x, y, = __carry3(x, y)

    (under `if steps % 10 == 0:`, counting the trips in `steps`, for every 10th)."""
    carry = gen.global_name(gen.backend.carry, "carry")
    if steps is not None:
        gen.emit(indent, f"{steps} += 1")
        gen.emit(indent, f"if {steps} % {gen.backend.persist_every} == 0:")
        indent += "    "
    gen.emit(indent, f"{', '.join(outs)}, = {carry}({', '.join(outs)})")


def _assigns_carry_last(body: Graph):
    """Whether the body's equation `k` may assign the carried name of its result `atom`
    at once: one statement (`steps = steps + 1`), after which the body reads no carried
    input it replaces, and no carried input is a result (the carry's parallel assignment
    reads those)."""
    carried = {v.id for v in body.inputs[:len(body.outputs)]}
    passed_on = {a.id for a in body.outputs if not isinstance(a, Literal)}
    if carried & passed_on:
        return lambda k, atom: False
    last_read = {a.id: k for k, eqn in enumerate(body.eqns) for a in eqn.inputs
                 if not isinstance(a, Literal)}

    def movable(k, atom):
        eqn = body.eqns[k]
        slot = next(j for j, a in enumerate(body.outputs) if a is atom)
        carry = body.inputs[slot]
        if last_read.get(carry.id, -1) > k:
            return False
        return eqn.primitive is cond_p or _assigns_once(eqn, {carry.id})  # cond: `_writes_early`
    return movable


def _assigns_once(eqn, replaced: set) -> bool:
    """Whether `eqn`'s code is one assignment of its one result after it has read the
    values `replaced` names (so the result may take the name of one of them): not a
    statement that reads its operands again, as a `scalar`'s NumPy fallback does, unless
    that fallback takes its operand back from the result (`operand_from_result`)."""
    if len(eqn.outputs) != 1 or eqn.primitive in (cond_p, while_p):
        return False
    return eqn.primitive is not scalar_p or not rereads_operands(eqn) or \
        operand_from_result(eqn) is not None or \
        not any(not isinstance(a, Literal) and a.id in replaced for a in eqn.inputs)


def _writes_early(branch: Graph, operand_refs: list, targets: list):
    """`_coalesce`'s test for a branch of a `cond` whose results go to `targets`: whether
    the equation `k` may write the result `atom` to its target at once. Where the target
    names a value the branch reads (a loop's carry: `n_2 = n_2 >> 1`), the branch must
    not read that value after `k`, in `k` after the write, or in its closing assignment."""
    def movable(k, atom):
        target = targets[next(j for j, a in enumerate(branch.outputs) if a is atom)]
        bound = {v.id for v, ref in zip(branch.inputs, operand_refs) if ref == target}
        if not bound:
            return True   # a new name
        others = [a for a in branch.outputs if a is not atom]
        later = [a for e in branch.eqns[k + 1:] for a in e.inputs]
        return _assigns_once(branch.eqns[k], bound) and not any(
            not isinstance(a, Literal) and a.id in bound for a in others + later)
    return movable


def _params(gen) -> list[str]:
    """The names of the generated function's parameters (its unbound inputs)."""
    bound = {var.id for var, _ in gen.bound_inputs}
    return [gen.namer(v) for v in gen.graph.inputs if v.id not in bound]


def inlines_loops(graph: Graph) -> bool:
    """Whether `graph`'s code has a `while` statement (its own, or in an `if`'s branch)."""
    return any(eqn.primitive is while_p or eqn.primitive is cond_p and (
        inlines_loops(eqn.params["true"]) or inlines_loops(eqn.params["false"]))
        for eqn in graph.eqns)


primitives.emitters[cond_p] = emit_cond
primitives.emitters[while_p] = emit_while
