"""The `while_loop` primitive: its params, kernel and rules (`runtime.primitives`).

A `while_loop` equation's operands are the carry's start values, then the
constants its condition reads, then those its body reads; its params hold the
two subgraphs and the counts that split the operands:

    t0:i64[]~weak, t1:f64[3] = while_loop 0 x n x
      cond(t2:i64[]~weak, x_1:f64[3], n_1:i64[]) {
        t3:bool[] = less t2 n_1
        return t3
      }
      body(t4:i64[]~weak, x_2:f64[3], x_3:f64[3]) {
        t5:i64[]~weak = python_op[op='add'] t4 1
        t6:f64[3] = multiply x_2 2.0
        t7:f64[3] = add t6 x_3
        return t5, t7
      }

has `num_carry=2` and `num_cond_consts=1` (printing leaves them out). The
user-facing `while_loop` that stages it is in `ops/while_loop.py`.
"""
from __future__ import annotations

from ..backend import DASK_OVERRIDES
from ..ir import Var
from .higher_order import bound_storage, define_higher_order


def split_while_operands(params, operands) -> tuple:
    """A `while_loop`'s operands split by its params' counts: `(carry, cond_consts, body_consts)`.

    Anything laid out like the operands splits the same way (their references
    in generated code, their activity flags in autodiff).
    """
    n, n_cond = params["num_carry"], params["num_cond_consts"]
    return operands[:n], operands[n:n + n_cond], operands[n + n_cond:]


def while_params(cond, body, num_carry: int, num_cond_consts: int) -> dict:
    """The params of a `while_loop` equation."""
    return {"cond": cond, "body": body, "num_carry": num_carry,
            "num_cond_consts": num_cond_consts}


def _abstract_eval(*operands, cond, body, num_carry, num_cond_consts):
    return [v.aval for v in body.inputs[:num_carry]]


def _kernel(xp, run_graph, **params):
    run_cond, run_body = run_graph(params["cond"]), run_graph(params["body"])

    def run(*args):
        carry, cond_consts, body_consts = split_while_operands(params, args)
        while run_cond(*carry, *cond_consts)[0]:
            carry = run_body(*carry, *body_consts)
        return carry
    return run


def _lazy_kernel(xp, run_graph, **params):
    """On Dask (the interpreter's; generated code calls `backend.truth` and `carry`):
    the test computed, the carry persisted after every trip."""
    run_cond, run_body = run_graph(params["cond"]), run_graph(params["body"])

    def run(*args):
        carry, cond_consts, body_consts = split_while_operands(params, args)
        while bool(xp.compute(run_cond(*carry, *cond_consts)[0])[0]):
            carry = xp.persist(*run_body(*carry, *body_consts))
        return carry
    return run


def _bindings(eqn):
    """The condition takes the carry then its constants; the body, the carry then its own."""
    carry, cond_consts, body_consts = split_while_operands(eqn.params, eqn.inputs)
    return [(eqn.params["cond"], carry + cond_consts), (eqn.params["body"], carry + body_consts)]


def _check(eqn):
    """Start values and body outputs fit the carry; the condition takes the carry."""
    cond, body, n = eqn.params["cond"], eqn.params["body"], eqn.params["num_carry"]
    carry = [v.aval for v in body.inputs[:n]]
    return (list(zip(carry, [a.aval for a in eqn.inputs[:n]]))
            + list(zip(carry, [a.aval for a in body.outputs]))
            + list(zip([v.aval for v in cond.inputs[:n]], carry)))


def _aliased_outputs(eqn, shared, storage_outputs):
    """A carried value is storage if it starts as, or becomes, storage: a fixpoint."""
    carry, _, body_consts = split_while_operands(eqn.params, eqn.inputs)
    body = eqn.params["body"]
    consts = bound_storage(body.inputs[len(carry):], body_consts, shared)
    carried = {i for i, a in enumerate(carry) if isinstance(a, Var) and a.id in shared}
    while True:
        grown = carried | storage_outputs(body, consts | {body.inputs[i].id for i in carried})
        if grown == carried:
            return carried
        carried = grown


def _load(params):
    """Graphs saved before the counts were params: derive them from the subgraphs."""
    if "num_carry" in params:
        return params
    n = len(params["body"].outputs)
    return while_params(params["cond"], params["body"], n, len(params["cond"].inputs) - n)


while_p = define_higher_order("while_loop", _abstract_eval, _kernel, bindings=_bindings,
                              check=_check, alias=_aliased_outputs, load=_load,
                              hidden=("num_carry", "num_cond_consts"))
DASK_OVERRIDES[while_p] = _lazy_kernel
