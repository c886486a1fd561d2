"""Elementwise equations as loop nests, chains of them fused into one loop.

An `Elementwise` lowering knows one element (`element(code, eqn, refs) -> name`);
on 0-d values that is the whole equation, on arrays it runs inside a loop over
the result's indices, with the deferred producers' elements computed in the same
iteration (`emit.fusion`). Operands broadcast as NumPy broadcasts them; where a
dimension is known only when the graph runs and does not match the loop's (a
size-1 dimension NumPy would stretch, or a mismatch NumPy would refuse), the call
deopts to the NumPy tier, which does what NumPy does.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..ir import Literal
from . import numpy_kernels
from .scalars import ScalarCode, is_literal, numba_type


class Elementwise:
    """The lowering of an elementwise primitive, given how it computes one element."""

    elementwise = True

    def __init__(self, element):
        self.element = element

    def emit(self, gen, eqn, indent, fused):
        out = eqn.outputs[0]
        if out.aval.ndim == 0:
            code = ScalarCode(gen, indent)
            result = self.element(code, eqn, [gen.ref(a) for a in eqn.inputs])
            gen.assign_scalar(indent, gen.namer(out), result, out.aval)
            return
        _emit_loop(gen, eqn, indent, fused)


def named(code, expr: str) -> str:
    """`expr` as a name (or a literal), so that it can be an operand of any expression:
    an element may be `a if c else b`, which `+` would otherwise split."""
    if expr.isidentifier() or is_literal(expr):
        return expr
    name = code.fresh()
    code.stmt(f"{name} = {expr}")
    return name


def _tree(eqn, fused) -> list:
    """`eqn` and the deferred equations it reads, producers first."""
    order = []

    def visit(e):
        for atom in e.inputs:
            producer = fused.producer.get(getattr(atom, "id", None))
            if producer is not None and producer not in order:
                visit(producer)
        order.append(e)
    visit(eqn)
    return order


def _emit_loop(gen, eqn, indent, fused):
    out = eqn.outputs[0]
    shape = out.aval.shape
    tree = _tree(eqn, fused)
    if numpy_kernels.takes(tree):   # large, with exp/tanh/...: NumPy's SIMD loops
        numpy_kernels.emit(gen, indent, tree)
        return
    leaves = _leaves(tree)
    dims = _loop_dims(gen, shape, leaves.values())
    for leaf in leaves.values():
        _check_leaf(gen, indent, leaf, shape, dims)
    target = gen.namer(out)
    gen.emit(indent, f"{target} = np.empty(({''.join(d + ', ' for d in dims)}), "
                     f"{numba_type(out.aval.dtype)})")
    index = [gen.fresh("i") for _ in shape]
    inner = indent
    for i, d in zip(index, dims):
        gen.emit(inner, f"for {i} in range({d}):")
        inner += "    "
    result = _tree_element(gen, inner, tree, leaves, shape, index)
    gen.emit(inner, f"{target}[{', '.join(index)}] = {result}")


def _leaves(tree) -> dict:
    """The array operands `tree` reads from memory (not made inside it), by Var id."""
    made = {e.outputs[0].id for e in tree}
    leaves = {}
    for e in tree:
        for atom in e.inputs:
            if not isinstance(atom, Literal) and atom.aval.ndim and atom.id not in made:
                leaves.setdefault(atom.id, atom)
    return leaves


def _tree_element(gen, inner, tree, leaves, shape, index) -> str:
    """Emits, at `inner`, the element of `tree`'s root at `index` (a loop over `shape`)."""
    code = ScalarCode(gen, inner)
    names = {}
    for leaf in leaves.values():
        names[leaf.id] = element = gen.fresh("e")
        gen.emit(inner, f"{element} = {gen.ref(leaf)}[{_leaf_index(leaf, shape, index)}]")
    for e in tree:
        refs = [names.get(getattr(a, "id", None)) or gen.ref(a) for a in e.inputs]
        names[e.outputs[0].id] = named(code, _lowering(e).element(code, e, refs))
    return names[tree[-1].outputs[0].id]


class Operand:
    """An array operand of a loop nest that a non-elementwise lowering writes (a
    reduction): read from memory, or, where its producer is deferred (`emit.fusion`),
    computed element by element inside the loop, so that `((a - b) ** 2).sum(axis=2)`
    is one loop nest and no temporary.

    `dims`: the loop bounds (a known dimension as a number); `load(indent, index)`
    emits what the element at `index` takes and returns its name or expression."""

    def __init__(self, gen, indent, atom, fused):
        self.gen, self.atom = gen, atom
        producer = fused.producer.get(atom.id)
        shape = atom.aval.shape
        if producer is None:
            self.tree = None
            name = gen.ref(atom)
            self.dims = [str(d) if d is not None else f"{name}.shape[{k}]"
                         for k, d in enumerate(shape)]
            return
        self.tree = _tree(producer, fused)
        self.leaves = _leaves(self.tree)
        self.dims = _loop_dims(gen, shape, self.leaves.values())
        for leaf in self.leaves.values():
            _check_leaf(gen, indent, leaf, shape, self.dims)

    def load(self, indent, index) -> str:
        if self.tree is None:
            return f"{self.gen.ref(self.atom)}[{', '.join(index)}]"
        return _tree_element(self.gen, indent, self.tree, self.leaves, self.atom.aval.shape,
                             index)


def _lowering(eqn):
    return primitives.native_lowerings[eqn.primitive]


def _loop_dims(gen, shape, leaves) -> list[str]:
    """Each loop bound: the known dimension, or an operand's that is not 1 there."""
    dims = []
    for j, d in enumerate(shape):
        if d is not None:
            dims.append(str(d))
            continue
        for leaf in leaves:
            k = j - (len(shape) - leaf.aval.ndim)
            if k >= 0 and leaf.aval.shape[k] != 1:
                dims.append(f"{gen.ref(leaf)}.shape[{k}]")
                break
        else:
            dims.append("1")
    return dims


def _check_leaf(gen, indent, leaf, shape, dims):
    """Deopt where a dimension known only at run time does not match the loop's."""
    offset = len(shape) - leaf.aval.ndim
    for k, d in enumerate(leaf.aval.shape):
        loop = shape[offset + k]
        if d == 1 and loop != 1:
            continue   # stretched: index 0
        if d is None or loop is None:
            gen.emit(indent, f"if {gen.ref(leaf)}.shape[{k}] != {dims[offset + k]}:")
            gen.emit(indent + "    ", "raise Deopt()")


def _leaf_index(leaf, shape, index) -> str:
    offset = len(shape) - leaf.aval.ndim
    parts = ["0" if d == 1 and shape[offset + k] != 1 else index[offset + k]
             for k, d in enumerate(leaf.aval.shape)]
    return ", ".join(parts)


def dtype_kind(aval) -> str:
    return np.dtype(aval.dtype).kind
