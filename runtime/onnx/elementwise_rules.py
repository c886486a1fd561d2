"""ONNX lowerings of the elementwise primitives: ufuncs, `astype`, `where`, `clip`,
and Python's operators on Python numbers (`python_op`, `from_python`).

Operands are cast to the dtype NumPy computes in (the output's, which the graph's
abstract values already resolved by NEP 50; a comparison's is its operands'
promoted dtype), so `int32 + int64` adds int64s and `x_f32 * 2.0` multiplies
float32s. A Python int is an int64 here (Python's own never overflows), and
where Python raises (`1 // 0`) the model cannot: it gives NumPy's answer.
"""
from __future__ import annotations

import numpy as np

from ..abstract import python_example
from ..ops.creation import astype_p
from ..ops.elementwise import ufunc_primitive
from ..ops.joining import where_p
from ..ops.python_calls import python_call_p
from ..ops.python_numbers import from_python_p, python_op_p
from ..ops.shape_ops import clip_p
from ..ops.updates import element_cast_p
from .arithmetic import divmod_, extreme, is_float, select
from .lower import lowering

_BINARY = {"add": "Add", "subtract": "Sub", "multiply": "Mul", "divide": "Div",
           "power": "Pow"}
_BOOL_BINARY = {"add": "Or", "multiply": "And"}
_UNARY = {"negative": "Neg", "absolute": "Abs", "sqrt": "Sqrt", "exp": "Exp", "log": "Log",
          "sin": "Sin", "cos": "Cos", "tan": "Tan", "tanh": "Tanh", "sinh": "Sinh",
          "cosh": "Cosh", "arcsin": "Asin", "arccos": "Acos", "arctan": "Atan",
          "arcsinh": "Asinh", "arccosh": "Acosh", "arctanh": "Atanh"}
_ROUNDING = {"floor": "Floor", "ceil": "Ceil", "rint": "Round"}
_COMPARE = {"equal": "Equal", "not_equal": "Equal", "less": "Less",
            "less_equal": "LessOrEqual", "greater": "Greater",
            "greater_equal": "GreaterOrEqual"}
_LOGICAL = {"logical_and": "And", "logical_or": "Or", "logical_xor": "Xor"}
_BITWISE = {"bitwise_and": ("And", "BitwiseAnd"), "bitwise_or": ("Or", "BitwiseOr"),
            "bitwise_xor": ("Xor", "BitwiseXor")}


def loop_dtype(cx):
    """The dtype NumPy computes a comparison in: its operands' promoted by NEP 50."""
    examples = [python_example(a) if a.weak else np.empty((), a.dtype) for a in cx.in_avals]
    return np.result_type(*examples)


def _no_dtype(cx):
    if cx.params.get("dtype") is not None:
        raise cx.refuse("a ufunc's dtype= argument")


def binary(op, bool_op=None):
    def rule(cx):
        _no_dtype(cx)
        dtype = cx.out_dtype
        if dtype == bool and bool_op is None:
            raise cx.refuse("this operator of booleans")
        if dtype.kind == "c":
            raise cx.refuse("complex values (ONNX has no complex arithmetic)")
        return [cx.node(bool_op if dtype == bool else op, cx.args(dtype))]
    return rule


for _name, _op in _BINARY.items():
    lowering(ufunc_primitive(getattr(np, _name)))(binary(_op, _BOOL_BINARY.get(_name)))


def compare(op, negate=False):
    def rule(cx):
        dtype = loop_dtype(cx)
        if dtype == bool and op not in ("Equal",):
            dtype = np.dtype(np.int32)   # ONNX orders no booleans; False < True as ints
        result = cx.node(op, cx.args(dtype))
        return [cx.node("Not", [result]) if negate else result]
    return rule


for _name, _op in _COMPARE.items():
    lowering(ufunc_primitive(getattr(np, _name)))(compare(_op, _name == "not_equal"))


def unary(op):
    def rule(cx):
        _no_dtype(cx)
        dtype = cx.out_dtype
        if dtype.kind not in "iuf" or (op not in ("Neg", "Abs") and dtype.kind != "f"):
            raise cx.refuse(f"{op} of {dtype}")
        return [cx.node(op, [cx.arg(0, dtype)])]
    return rule


for _name, _op in _UNARY.items():
    lowering(ufunc_primitive(getattr(np, _name)))(unary(_op))


def rounding(op):
    def rule(cx):
        _no_dtype(cx)
        x = cx.arg(0, cx.out_dtype)
        return [cx.node(op, [x]) if is_float(cx.out_dtype) else x]
    return rule


for _name, _op in _ROUNDING.items():
    lowering(ufunc_primitive(getattr(np, _name)))(rounding(_op))


@lowering(ufunc_primitive(np.trunc))
def _trunc(cx):
    x = cx.arg(0, cx.out_dtype)
    if not is_float(cx.out_dtype):
        return [x]
    negative = cx.node("Less", [x, cx.const(0, cx.out_dtype)])
    return [cx.node("Where", [negative, cx.node("Ceil", [x]), cx.node("Floor", [x])])]


@lowering(ufunc_primitive(np.positive))
def _positive(cx):
    return [cx.arg(0, cx.out_dtype)]


@lowering(ufunc_primitive(np.square))
def _square(cx):
    x = cx.arg(0, cx.out_dtype)
    return [cx.node("And" if cx.out_dtype == bool else "Mul", [x, x])]


@lowering(ufunc_primitive(np.reciprocal))
def _reciprocal(cx):
    if not is_float(cx.out_dtype):
        raise cx.refuse("the reciprocal of integers")
    return [cx.node("Div", [cx.const(1, cx.out_dtype), cx.arg(0, cx.out_dtype)])]


@lowering(ufunc_primitive(np.sign))
def _sign(cx):
    x = cx.arg(0, cx.out_dtype)
    sign = cx.node("Sign", [x])
    if is_float(cx.out_dtype):   # NumPy's sign of NaN is NaN
        sign = cx.node("Where", [cx.node("IsNaN", [x]), x, sign])
    return [sign]


def _divmod_rule(part):
    def rule(cx):
        _no_dtype(cx)
        dtype = cx.out_dtype
        if dtype == bool or dtype.kind not in "iuf":
            raise cx.refuse(f"// or % of {dtype}")
        return [divmod_(cx, *cx.args(dtype), dtype, _int_literal(cx, 1), part)[part]]
    return rule


def _int_literal(cx, i):
    """Operand i's value where it is an integer literal, else None."""
    value = cx.literal(i)
    return int(value) if isinstance(value, (int, np.integer)) and not isinstance(
        value, (bool, np.bool_)) else None


lowering(ufunc_primitive(np.floor_divide))(_divmod_rule(0))
lowering(ufunc_primitive(np.remainder))(_divmod_rule(1))


def _extreme_rule(op, propagate):
    def rule(cx):
        return [extreme(cx, op, *cx.args(cx.out_dtype), cx.out_dtype, propagate)]
    return rule


for _name, _op, _propagate in (("maximum", "Max", True), ("minimum", "Min", True),
                               ("fmax", "Max", False), ("fmin", "Min", False)):
    lowering(ufunc_primitive(getattr(np, _name)))(_extreme_rule(_op, _propagate))


def _logical(op):
    def rule(cx):
        return [cx.node(op, cx.args(bool))]
    return rule


for _name, _op in _LOGICAL.items():
    lowering(ufunc_primitive(getattr(np, _name)))(_logical(_op))


@lowering(ufunc_primitive(np.logical_not))
def _logical_not(cx):
    return [cx.node("Not", [cx.arg(0, bool)])]


def _bitwise(bool_op, int_op):
    def rule(cx):
        if cx.out_dtype == bool:
            return [cx.node(bool_op, cx.args(bool))]
        cx.need(18, f"{int_op} of integers")
        return [cx.node(int_op, cx.args(cx.out_dtype))]
    return rule


for _name, (_bool_op, _int_op) in _BITWISE.items():
    lowering(ufunc_primitive(getattr(np, _name)))(_bitwise(_bool_op, _int_op))


@lowering(ufunc_primitive(np.invert))
def _invert(cx):
    if cx.out_dtype == bool:
        return [cx.node("Not", [cx.arg(0, bool)])]
    cx.need(18, "BitwiseNot of integers")
    return [cx.node("BitwiseNot", [cx.arg(0, cx.out_dtype)])]


def _float_test(test):
    def rule(cx):
        dtype = cx.in_avals[0].dtype
        x = cx.arg(0)
        if not is_float(dtype):   # no integer is NaN or infinite
            finite = cx.node("Equal", [x, x])
            return [finite if test == "isfinite" else cx.node("Not", [finite])]
        if test == "isnan":
            return [cx.node("IsNaN", [x])]
        if test == "isinf":
            return [cx.node("IsInf", [x])]
        return [cx.node("Not", [cx.node("Or", [cx.node("IsNaN", [x]), cx.node("IsInf", [x])])])]
    return rule


for _name in ("isnan", "isinf", "isfinite"):
    lowering(ufunc_primitive(getattr(np, _name)))(_float_test(_name))


@lowering(astype_p, from_python_p, element_cast_p)
def _cast(cx):
    source = np.dtype(cx.in_avals[0].dtype)
    if source.kind == "c" or cx.out_dtype.kind == "c":
        raise cx.refuse("complex values")
    return [cx.arg(0, cx.out_dtype)]


@lowering(where_p)
def _where(cx):
    if len(cx.eqn.inputs) != 3:
        raise cx.refuse("np.where with one argument")
    cond = cx.arg(0, bool)
    return [select(cx, cond, cx.arg(1, cx.out_dtype), cx.arg(2, cx.out_dtype), cx.out_dtype)]


@lowering(clip_p)
def _clip(cx):
    dtype, bounds = cx.out_dtype, cx.params.get("bounds", "both")
    x, *limits = cx.args(dtype)
    ops = {"both": ("Max", "Min"), "min": ("Max",), "max": ("Min",)}[bounds]
    for op, limit in zip(ops, limits):
        x = extreme(cx, op, x, limit, dtype)
    return [x]


# -- Python's operators on Python numbers --------------------------------------------
_PY_ARITH = {"add": "Add", "sub": "Sub", "mul": "Mul", "truediv": "Div", "pow": "Pow",
             "int_pow": "Pow"}
_PY_COMPARE = {"lt": ("Less", False), "le": ("LessOrEqual", False),
               "gt": ("Greater", False), "ge": ("GreaterOrEqual", False),
               "eq": ("Equal", False), "ne": ("Equal", True)}
_PY_BITS = {"and": ("And", "BitwiseAnd"), "or": ("Or", "BitwiseOr"),
            "xor": ("Xor", "BitwiseXor")}


@lowering(python_call_p)
def _python_call(cx):
    """`float(x)`, `int(x)`, `bool(x)` of a traced value: Python's conversions."""
    fn = cx.params["fn"]
    if fn not in ("float", "int", "bool") or any(d != 1 for d in cx.in_avals[0].shape):
        raise cx.refuse(f"the Python call {fn}(...)")
    return [_convert(cx, fn, cx.out_dtype, cx.node("Reshape", [cx.arg(0), cx.ints([])]))]


def _convert(cx, op, dtype, x=None):
    """Python's `int`, `float`, `bool` (or `+`) of operand 0 (or of `x`, of its dtype)."""
    source = cx.in_avals[0].dtype
    x = cx.arg(0) if x is None else x
    if op == "int" and is_float(source):   # Python's int() truncates
        negative = cx.node("Less", [x, cx.const(0, source)])
        x = cx.node("Where", [negative, cx.node("Ceil", [x]), cx.node("Floor", [x])])
    return cx.cast(x, source, dtype)


@lowering(python_op_p)
def _python_op(cx):
    op, dtype = cx.params["op"], cx.out_dtype
    if dtype.kind == "c" or any(a.dtype.kind == "c" for a in cx.in_avals):
        raise cx.refuse("complex Python numbers")
    if op in _PY_ARITH:
        if op == "pow" and dtype.kind == "f" and all(a.dtype.kind != "f" for a in cx.in_avals):
            raise cx.refuse("an int to a negative power")
        return [cx.node(_PY_ARITH[op], cx.args(dtype))]
    if op in ("floordiv", "mod"):
        part = int(op == "mod")
        return [divmod_(cx, *cx.args(dtype), dtype, _int_literal(cx, 1), part)[part]]
    if op in _PY_COMPARE:
        onnx_op, negate = _PY_COMPARE[op]
        compute = loop_dtype(cx)
        if compute == bool:
            compute = np.dtype(np.int64)
        result = cx.node(onnx_op, cx.args(compute))
        return [cx.node("Not", [result]) if negate else result]
    if op in _PY_BITS:
        bool_op, int_op = _PY_BITS[op]
        if dtype == bool:
            return [cx.node(bool_op, cx.args(bool))]
        cx.need(18, f"{int_op} of Python ints")
        return [cx.node(int_op, cx.args(dtype))]
    if op == "neg":
        return [cx.node("Neg", [cx.arg(0, dtype)])]
    if op == "abs":
        return [cx.node("Abs", [cx.arg(0, dtype)])]
    if op == "invert":
        cx.need(18, "BitwiseNot of Python ints")
        return [cx.node("BitwiseNot", [cx.arg(0, dtype)])]
    if op in ("pos", "int", "float", "bool"):
        return [_convert(cx, op, dtype)]
    raise cx.refuse(f"Python's {op!r} operator")
