"""Primitives and the tables that interpret them.

Each interpretation of a primitive lives in its own table keyed by the
`Primitive`, filled next to the primitive's definition in `runtime/ops/`
(JAX style: `impl_rules[cond_p]`); a pass looks its rule up, it never
switches on a primitive's name.

- `abstract_eval[p](*atoms, **params)`: the output `AbstractValue` (a list of
  them when `p.multiple_results`) from the input atoms (`Var`s or `Literal`s).
- `kernels[p](xp, **params)`: binds the kernel to an array module (`numpy`
  or `cupy`) and static params; returns a function of the input arrays.
  A `higher_order` primitive's kernel is `kernels[p](xp, run_graph, **params)`:
  `run_graph(graph)` returns a function running a subgraph, given by whoever
  runs the equation (compiled code compiles it, the `Executor` interprets it).
  Backends merge overrides over this table (see `runtime.backend`).
- `vjp_rules[p](ct, out, *inputs, **params)`: the cotangents of the inputs
  (None where there is none) from that of the output(s); see `runtime.autodiff`.

The rules of higher-order primitives (those holding subgraphs in their params):

- `subgraph_bindings[p](eqn)`: `[(subgraph, outer atoms bound to its inputs)]`;
  `runtime.effects` maps a subgraph's effects through it (the default effect).
- `effect_rules[p](eqn) -> Effects`: the equation's effects, where the default
  above does not fit.
- `check_rules[p](eqn)`: `[(expected, actual)]` pairs of `AbstractValue`s
  that `runtime.verify` checks (`expected.accepts(actual)`).
- `alias_rules[p](eqn, shared, storage_outputs)`: the indices of the outputs
  that may share memory with storage, given the ids of the storage `Var`s
  (`shared`) and `runtime.aliasing.storage_outputs` to apply to subgraphs.
- `prune_rules[p](eqn, prune)`: the equation with its subgraphs pruned by
  `prune(graph)` (a primitive without a rule keeps its subgraphs as they are).
- `emitters[p](gen, eqn, refs, outs, indent)`: writes the equation as Python
  statements in `runtime.codegen` (real `if` and `while`), instead of a call.
- `inline_expressions[p](eqn)`: where the equation is a 0-d test that cannot raise or
  warn, a function `(gen, refs) -> str` writing it as one Python expression (None where
  it is not), which `runtime.codegen` writes into the line reading it.
- `native_lowerings[p]`: how the native tier (`runtime.native`) writes the equation as
  Numba code: an object with `emit(gen, eqn, indent, fused)` (and `elementwise = True`
  with `element(code, eqn, refs)` where one element is computed alone, for fusion).
- `onnx_lowerings[p]`: how `runtime.onnx` writes the equation as ONNX nodes: a
  `runtime.onnx.lower.Lowering` with `fn(cx) -> output names` (`cx` gives the operands'
  ONNX names and types and appends nodes) and `opset`, the ONNX opset its nodes need.
- `load_rules[p](params) -> params`: completes params read by
  `runtime.serialization` (older saved graphs lack some); `save_rules[p](eqn)`
  says why an equation cannot be saved (None where it can).
- `hidden_params[p]`: names of params that printing leaves out (bookkeeping
  the subgraphs already show).
- `kernel_errors[p]`: the exception types p's kernel may raise when the graph runs
  beyond those every kernel may (`runtime.ops.kernel_errors`).
"""
from __future__ import annotations


class Primitive:
    """A named operation of the IR.

    `effectful` ones are never reordered or dropped; the outputs of `views` ones
    may share memory with their first input, as NumPy views do. `state` is
    "read" or "write" for the primitives that access a `Variable` (their first
    input is its resource); writes are effectful, reads only ordered (see
    `runtime.effects`). `higher_order` ones hold subgraphs in their params and
    their kernels take a `run_graph` callback.
    """

    __slots__ = ("name", "multiple_results", "effectful", "views", "state", "higher_order")

    def __init__(self, name: str, *, multiple_results: bool = False, effectful: bool = False,
                 views: bool = False, state: str | None = None, higher_order: bool = False):
        if state not in (None, "read", "write"):
            raise ValueError(f"state must be None, 'read' or 'write', not {state!r}")
        self.name = name
        self.multiple_results = multiple_results
        self.effectful = effectful or state == "write"
        self.views = views
        self.state = state
        self.higher_order = higher_order

    def __repr__(self):
        return self.name


abstract_eval: dict = {}
kernels: dict = {}
vjp_rules: dict = {}  # filled by runtime.autodiff: rule(ct, out, *inputs, **params) -> input cts
subgraph_bindings: dict = {}
effect_rules: dict = {}
check_rules: dict = {}
alias_rules: dict = {}
prune_rules: dict = {}
emitters: dict = {}  # filled by runtime.codegen_control
inline_expressions: dict = {}
callee_params: dict = {}   # p -> the param holding the graph a `call`-like p calls (printing)
native_lowerings: dict = {}  # filled by runtime.native: how the native tier computes each
onnx_lowerings: dict = {}  # filled by runtime.onnx: how an ONNX model computes each
load_rules: dict = {}
save_rules: dict = {}
hidden_params: dict = {}
kernel_errors: dict = {}  # filled by runtime.ops.kernel_errors: what each kernel may raise
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
