"""ONNX lowerings of products: `matmul` (ONNX's `MatMul` is NumPy's, 1-d operands
included) and `dot` of operands of at most two dimensions (where it is `matmul`,
or a product with a scalar)."""
from __future__ import annotations

from ..ops.linalg import dot_p, matmul_p
from .lower import lowering


def _check(cx):
    if cx.out_dtype.kind not in "iuf" or cx.out_dtype == bool:
        raise cx.refuse(f"a product of {cx.out_dtype}")


@lowering(matmul_p)
def _matmul(cx):
    _check(cx)
    return [cx.node("MatMul", cx.args(cx.out_dtype))]


@lowering(dot_p)
def _dot(cx):
    _check(cx)
    ndims = [len(a.shape) for a in cx.in_avals]
    if max(ndims) > 2:
        raise cx.refuse("np.dot of arrays of more than two dimensions")
    op = "Mul" if min(ndims) == 0 else "MatMul"
    return [cx.node(op, cx.args(cx.out_dtype))]
