"""ONNX lowerings of the reductions: sum, prod, mean, var, std, max, min, any, all,
argmax, argmin, cumsum, and sort.

Axes are an input from opset 18 on (`ReduceSum` from 13), so these need 18. An
input is cast to the result's dtype first (NumPy sums int32 as int64, bools as
int64). Over empty axes NumPy's identities hold: a sum is 0, a product 1, `any`
False and `all` True (counted, never ONNX's empty max); `mean` is the sum over
the count, NaN for none, as NumPy divides. `max`/`min` give NaN where a NaN is
reduced (NumPy's rule), whatever the ONNX kernel does with NaNs; `argmax` and
`argmin` the first NaN's index, as NumPy's do. `var` is NumPy's two passes (the
mean, then the mean square of the deviations, over `n - ddof`).
"""
from __future__ import annotations

import numpy as np

from ..ops.reductions import _p as reduction_p
from ..ops.sorting import sort_p
from .arithmetic import is_float
from .lower import lowering


def _axes(cx):
    axis, ndim = cx.params.get("axis"), len(cx.in_avals[0].shape)
    return tuple(range(ndim)) if axis is None else tuple(axis)


def reduce(cx, op, x, dtype=None):
    """`op` over the equation's axes (none: the value itself) with its keepdims."""
    axes, keepdims = _axes(cx), int(bool(cx.params.get("keepdims", False)))
    if not axes:
        return x
    return cx.node(op, [x, cx.ints(axes)], keepdims=keepdims)


def _check(cx):
    if cx.params.get("ddof") or cx.params.get("where") is not None:
        raise cx.refuse("ddof= or where=")


@lowering(reduction_p["var"], reduction_p["std"], opset=18)
def _var(cx):
    dtype, ddof = cx.out_dtype, cx.params.get("ddof", 0)
    if not is_float(dtype) or np.dtype(cx.in_avals[0].dtype).kind not in "biuf":
        raise cx.refuse(f"var/std as {dtype}")
    x = cx.arg(0, dtype)
    n = cx.cast(count(cx), np.int64, dtype)
    axes = _axes(cx)
    mean = cx.node("Div", [cx.node("ReduceSum", [x, cx.ints(axes)], keepdims=1), n]) \
        if axes else x
    deviation = cx.node("Sub", [x, mean])
    total = reduce(cx, "ReduceSum", cx.node("Mul", [deviation, deviation]))
    divisor = cx.node("Max", [cx.node("Sub", [n, cx.const(ddof, dtype)]),
                              cx.const(0, dtype)])
    result = cx.node("Div", [total, divisor])
    return [cx.node("Sqrt", [result]) if cx.eqn.primitive is reduction_p["std"] else result]


def _arg_extreme(op):
    def rule(cx):
        axis, keepdims = cx.params.get("axis"), int(bool(cx.params.get("keepdims", False)))
        x, dtype = cx.arg(0), np.dtype(cx.in_avals[0].dtype)
        if axis is None:
            x, axis = cx.node("Reshape", [x, cx.ints([-1])]), 0
            keepdims_shape = cx.out_avals[0].shape if keepdims else None
        else:
            keepdims_shape = None
        if dtype == bool:
            x = cx.cast(x, bool, np.int32)
        index = cx.node(op, [x], axis=axis, keepdims=keepdims if keepdims_shape is None else 0)
        if is_float(dtype):   # NumPy: the first NaN
            nans = cx.cast(cx.node("IsNaN", [x]), bool, np.int32)
            first_nan = cx.node("ArgMax", [nans], axis=axis,
                                keepdims=keepdims if keepdims_shape is None else 0)
            has_nan = cx.node("Greater", [cx.node("ReduceMax", [nans, cx.ints([axis])],
                                                  keepdims=keepdims if keepdims_shape is None
                                                  else 0), cx.const(0, np.int32)])
            index = cx.node("Where", [has_nan, first_nan, index])
        if keepdims_shape is not None:
            index = cx.node("Reshape", [index, cx.ints(keepdims_shape)])
        return [cx.cast(index, np.int64, cx.out_dtype)]
    return rule


lowering(reduction_p["argmax"], opset=18)(_arg_extreme("ArgMax"))
lowering(reduction_p["argmin"], opset=18)(_arg_extreme("ArgMin"))


@lowering(reduction_p["sum"], reduction_p["prod"], opset=18)
def _sum(cx):
    _check(cx)
    dtype = cx.out_dtype
    op = "ReduceSum" if cx.eqn.primitive is reduction_p["sum"] else "ReduceProd"
    if dtype == bool or dtype.kind not in "iuf":
        raise cx.refuse(f"{op} of {dtype}")
    return [reduce(cx, op, cx.arg(0, dtype))]


def count(cx):
    """How many elements each result reduces (the product of the reduced dimensions)."""
    shape = cx.node("Shape", [cx.arg(0)])
    dims = cx.node("Gather", [shape, cx.ints(_axes(cx))], axis=0)
    return cx.node("ReduceProd", [dims], keepdims=0)


@lowering(reduction_p["mean"], opset=18)
def _mean(cx):
    _check(cx)
    dtype = cx.out_dtype
    if not is_float(dtype):
        raise cx.refuse(f"mean as {dtype}")
    total = reduce(cx, "ReduceSum", cx.arg(0, dtype))
    n = cx.cast(count(cx), np.int64, dtype)
    return [cx.node("Div", [total, n])]


def _extreme(op):
    def rule(cx):
        _check(cx)
        dtype, source = cx.out_dtype, np.dtype(cx.in_avals[0].dtype)
        x = cx.arg(0, dtype)
        if dtype == bool:   # max of booleans: any; min: all
            x = cx.cast(x, bool, np.int32)
            return [cx.cast(reduce(cx, op, x), np.int32, bool)]
        result = reduce(cx, op, x)
        if is_float(source) and _axes(cx):
            nans = cx.cast(cx.node("IsNaN", [x]), bool, np.int32)
            any_nan = cx.cast(reduce(cx, "ReduceMax", nans), np.int32, bool)
            result = cx.node("Where", [any_nan, cx.const(np.nan, dtype), result])
        return [result]
    return rule


lowering(reduction_p["max"], opset=18)(_extreme("ReduceMax"))
lowering(reduction_p["min"], opset=18)(_extreme("ReduceMin"))


def _truth(want_all):
    def rule(cx):
        _check(cx)
        x = cx.arg(0, bool)
        if want_all:
            x = cx.node("Not", [x])
        hits = reduce(cx, "ReduceSum", cx.cast(x, bool, np.int64))
        found = cx.node("Greater", [hits, cx.const(0, np.int64)])
        return [cx.node("Not", [found]) if want_all else found]
    return rule


lowering(reduction_p["any"], opset=18)(_truth(False))
lowering(reduction_p["all"], opset=18)(_truth(True))


@lowering(reduction_p["cumsum"])
def _cumsum(cx):
    if cx.params.get("dtype") is not None and np.dtype(cx.params["dtype"]) != cx.out_dtype:
        raise cx.refuse("dtype=")
    dtype, axis = cx.out_dtype, cx.params.get("axis")
    if dtype == bool or dtype.kind not in "iuf":
        raise cx.refuse(f"cumsum of {dtype}")
    x = cx.arg(0, dtype)
    if axis is None or not cx.in_avals[0].shape:
        x, axis = cx.node("Reshape", [x, cx.ints([-1])]), 0
    return [cx.node("CumSum", [x, cx.const(axis, np.int64)])]


@lowering(sort_p, opset=15)   # Shape(start=, end=)
def _sort(cx):
    """`np.sort`: ONNX's `TopK` of every element, smallest first (values only, so how it
    orders equal ones does not show); NaNs last, as NumPy sorts them."""
    axis, dtype = cx.params.get("axis", -1), cx.out_dtype
    x = cx.arg(0)
    if axis is None:
        x, axis = cx.node("Reshape", [x, cx.ints([-1])]), 0
    ndim = len(cx.out_avals[0].shape)
    axis %= ndim
    if dtype.kind not in "biuf":
        raise cx.refuse(f"sorting {dtype}")
    work = np.dtype(np.int32) if dtype == bool else dtype
    x = cx.cast(x, dtype, work)
    n = cx.node("Shape", [x], start=axis, end=axis + 1)
    if not is_float(dtype):
        return [cx.cast(cx.node("TopK", [x, n], 2, axis=axis, largest=0)[0], work, dtype)]
    is_nan = cx.node("IsNaN", [x])
    finite_first = cx.node("Where", [is_nan, cx.const(np.inf, dtype), x])
    ordered = cx.node("TopK", [finite_first, n], 2, axis=axis, largest=0)[0]
    nans = cx.node("ReduceSum", [cx.cast(is_nan, bool, np.int64), cx.ints([axis])], keepdims=1)
    position = cx.node("Range", [cx.const(0, np.int64), cx.node("Squeeze", [n, cx.ints([0])]),
                                 cx.const(1, np.int64)])
    position = cx.node("Reshape", [position, cx.ints([-1] + [1] * (ndim - 1 - axis))])
    tail = cx.node("GreaterOrEqual", [position, cx.node("Sub", [n, nans])])
    return [cx.node("Where", [tail, cx.const(np.nan, dtype), ordered])]
