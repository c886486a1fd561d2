"""What lowerings write ONNX through: fresh names, constants, nodes, `Cast`s.

A `ModelBuilder` holds what the whole model shares (names, initializers, the
opset its lowerings need); a `Scope` is one ONNX graph being written (the
model's, or an `If` branch's or `Loop` body's) with its nodes and the ONNX name
of each graph value (`env`: Var id -> name, or a `VariableSlot` for a
variable's resource). Nodes are kept as plain records and made into protos by
`Scope.graph_proto` with `onnx.helper`, imported lazily (`modules.load`).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..errors import ExportError
from ..ir import Literal
from . import modules

BASE_OPSET = 13  # Squeeze/Unsqueeze/ReduceSum take axes as an input from here on


@dataclasses.dataclass
class Node:
    op: str
    inputs: list
    outputs: list
    attrs: dict
    name: str


@dataclasses.dataclass
class LazyConst:
    """A captured constant, made an initializer only where a node reads it."""

    value: object
    hint: str


@dataclasses.dataclass
class VariableSlot:
    """A variable's resource in the graph being written: the ONNX name of its value now."""

    variable: object
    name: str
    written: bool = False


def onnx_dtype(dtype) -> int:
    """The ONNX element type of a NumPy dtype (`TensorProto.FLOAT` for float32)."""
    dtype = np.dtype(dtype)
    try:
        return modules.load("onnx.helper").np_dtype_to_tensor_dtype(dtype)
    except (KeyError, TypeError, ValueError):
        raise ExportError(f"ONNX has no element type for {dtype}") from None


class ModelBuilder:
    """Names, initializers and the opset of one model being written.

    >>> model = ModelBuilder(opset_limit=18)
    >>> model.fresh("h"), model.fresh("h"), model.fresh(None), model.fresh(None)
    ('h', 'h_1', 't_0', 't_1')
    >>> model.const(2.0, np.float32) == model.const(np.float32(2))   # one initializer
    True
    """

    def __init__(self, opset_limit: int):
        self.opset_limit = opset_limit
        self.opset = BASE_OPSET
        self.initializers: list = []
        self._consts: dict = {}
        self._used: set = set()
        self._suffix: dict = {}

    def fresh(self, hint: str | None) -> str:
        """`hint`, else `hint_1`, `hint_2`, ...; `t` for values without a name."""
        hint = hint if hint and hint.isidentifier() else "t"
        n = self._suffix.get(hint, 0)
        name = f"{hint}_{n}" if n or hint == "t" else hint
        while name in self._used:
            n += 1
            name = f"{hint}_{n}"
        self._suffix[hint] = n + 1 if hint == "t" else n
        self._used.add(name)
        return name

    def reserve(self, name: str) -> None:
        self._used.add(name)

    def const(self, value, dtype=None, hint: str = "c") -> str:
        """An initializer holding `value` (as `dtype` where given), shared by equal ones."""
        array = np.asarray(value, dtype=dtype)
        onnx_dtype(array.dtype)
        key = (array.dtype.str, array.shape, array.tobytes())
        name = self._consts.get(key)
        if name is None:
            name = self._consts[key] = self.fresh(hint)
            self.initializers.append((name, np.array(array, order="C")))
        return name

    def need(self, opset: int, what: str, source=None) -> None:
        if opset > self.opset_limit:
            where = f" ({source})" if source else ""
            raise ExportError(f"{what} needs ONNX opset {opset}, above the requested opset "
                              f"{self.opset_limit}{where}")
        self.opset = max(self.opset, opset)


class Scope:
    """One ONNX graph being written: its nodes and the names of the IR values in it."""

    def __init__(self, model: ModelBuilder, env: dict | None = None, depth: int = 0):
        self.model = model
        self.env = dict(env or {})
        self.nodes: list[Node] = []
        self.produced: set = set()   # names nodes of this scope compute
        self.depth = depth           # 0: the model's graph; >0: inside an If or a Loop

    def inline(self) -> "Scope":
        """A scope writing into this one's nodes, with its own names for the values of a
        graph written in place (a call's, a loop condition's)."""
        inner = Scope(self.model, self.env, self.depth)
        inner.nodes, inner.produced = self.nodes, self.produced
        return inner

    def node(self, op: str, inputs, n_out: int = 1, hint: str | None = None, **attrs):
        """Appends `op`; returns its output name (a list of them where `n_out != 1`)."""
        outs = [self.model.fresh(hint) for _ in range(n_out)]
        self.nodes.append(Node(op, list(inputs), outs, attrs, self.model.fresh(f"{op}_node")))
        self.produced.update(outs)
        return outs[0] if n_out == 1 else outs

    def const(self, value, dtype=None) -> str:
        return self.model.const(value, dtype)

    def cast(self, name: str, source, to) -> str:
        """`name` as `to`: a `Cast` where the dtypes differ."""
        if np.dtype(source) == np.dtype(to):
            return name
        return self.node("Cast", [name], to=onnx_dtype(to))

    def atom(self, atom, dtype=None) -> str:
        """The ONNX name of an IR atom, as `dtype` where given (a literal is made so)."""
        if isinstance(atom, Literal):
            value = atom.value
            if dtype is None:
                dtype = atom.aval.dtype
            return self.model.const(np.asarray(value).astype(dtype), hint="c")
        found = self.env[atom.id]
        if isinstance(found, LazyConst):
            found = self.env[atom.id] = self.model.const(found.value, hint=found.hint)
        if isinstance(found, VariableSlot):
            raise ExportError("a variable's handle used as a value")
        return found if dtype is None else self.cast(found, atom.aval.dtype, dtype)

    def renamable(self, name: str, since: int) -> bool:
        """Whether a value a node `since` on produces can be renamed: no `If` or `Loop`
        after its producer may read it (their subgraphs read it by name)."""
        producers = [i for i, n in enumerate(self.nodes[since:], since) if name in n.outputs]
        return bool(producers) and not any(
            any(hasattr(v, "node") for v in n.attrs.values())
            for n in self.nodes[producers[0] + 1:])

    def rename(self, old: str, new: str, since: int) -> None:
        """Renames a value that nodes `since` on produce (the user's name for it)."""
        for node in self.nodes[since:]:
            node.outputs = [new if o == old else o for o in node.outputs]
            node.inputs = [new if i == old else i for i in node.inputs]
        self.produced.discard(old)
        self.produced.add(new)

    def graph_proto(self, name: str, inputs: list, outputs: list, initializers=()):
        """The scope as a `GraphProto`; inputs/outputs are `(name, dtype, shape)`."""
        helper = modules.load("onnx.helper")
        numpy_helper = modules.load("onnx.numpy_helper")
        nodes = [helper.make_node(n.op, n.inputs, n.outputs, name=n.name, **n.attrs)
                 for n in self.nodes]
        return helper.make_graph(
            nodes, name, [value_info(*i) for i in inputs], [value_info(*o) for o in outputs],
            initializer=[numpy_helper.from_array(v, k) for k, v in initializers])


def value_info(name, dtype, shape):
    """A typed ONNX value; `shape` entries are ints, symbolic names or None (unknown)."""
    helper = modules.load("onnx.helper")
    return helper.make_tensor_value_info(name, onnx_dtype(dtype), shape)
