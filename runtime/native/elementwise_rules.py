"""Lowerings of the elementwise primitives: NumPy's ufuncs, `astype`, `where`, and the
Python numbers' `python_op` and `from_python` (rows of `primitives.native_lowerings`).

A Python int is an int64 here: where Python's own int would leave int64 (or divide
by zero, or meet a type the native code does not model) the call deopts, so the
NumPy tier computes it with Python's arbitrary precision and its errors.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import python_type
from ..ops.creation import astype_p
from ..ops.elementwise import ELEMENTWISE_UFUNCS, ufunc_primitive
from ..ops.joining import where_p
from ..ops.python_numbers import from_python_p, python_op_p
from ..ops.shape_ops import clip_p
from .loops import Elementwise
from .scalars import UFUNCS, Unsupported, numba_type, operand_type, ufunc_element


def _ufunc_element(ufunc):
    def element(code, eqn, refs):
        if eqn.params.get("dtype") is not None:
            raise Unsupported(f"numpy.{ufunc.__name__}(..., dtype=...)")
        return ufunc_element(code, ufunc, eqn.inputs, refs, eqn.outputs[0].aval.dtype)
    return element


for _ufunc in ELEMENTWISE_UFUNCS:
    if _ufunc.__name__ in UFUNCS:
        primitives.native_lowerings[ufunc_primitive(_ufunc)] = Elementwise(_ufunc_element(_ufunc))


def _astype_element(code, eqn, refs):
    (x,), to = eqn.inputs, np.dtype(eqn.params["dtype"])
    source = np.dtype(x.aval.dtype)
    numba_type(source), numba_type(to)
    if source.kind == "f" and to.kind in "iu":  # NumPy warns: invalid value in cast
        info = np.iinfo(to)
        code.deopt_if(f"not ({refs[0]} >= {info.min} and {refs[0]} <= {info.max})")
    if to == bool:
        return code.cast(f"{refs[0]} != 0", to, np.dtype(bool))
    return code.cast(refs[0], to, source)


def _where_element(code, eqn, refs):
    cond, a, b = eqn.inputs
    out = np.dtype(eqn.outputs[0].aval.dtype)
    picked = [code.cast(r, out, operand_type(x)) for r, x in zip(refs[1:], (a, b))]
    return f"{picked[0]} if {refs[0]} else {picked[1]}"


def _from_python_element(code, eqn, refs):
    (x,), to = eqn.inputs, np.dtype(eqn.params["dtype"])
    source = python_type(x.aval)
    if source is complex or to.kind not in "biuf":
        raise Unsupported(f"a Python {source.__name__} as {to}")
    result = code.cast(refs[0], to, source)
    if eqn.params.get("exact") and to.kind == "f":   # PathTypeError where it changes
        code.deopt_if(f"{result} != {refs[0]} and {refs[0]} == {refs[0]}")
    return result


def _clip_element(code, eqn, refs):
    """NumPy's clip: `minimum(maximum(x, lo), hi)` in the result's dtype (NaNs kept)."""
    out = np.dtype(eqn.outputs[0].aval.dtype)
    if out.kind not in "iuf":
        raise Unsupported(f"clip of {out}")
    x, *bounds = [code.cast(r, out, operand_type(a)) for r, a in zip(refs, eqn.inputs)]
    kinds = {"both": (">=", "<="), "min": (">=",), "max": ("<=",)}[eqn.params.get("bounds",
                                                                                  "both")]
    for bound, keep in zip(bounds, kinds):
        clipped = code.fresh()
        code.stmt(f"{clipped} = {x} if ({x} != {x} or {x} {keep} {bound}) else {bound}")
        x = clipped
    return x


primitives.native_lowerings[clip_p] = Elementwise(_clip_element)
primitives.native_lowerings[astype_p] = Elementwise(_astype_element)
primitives.native_lowerings[where_p] = Elementwise(_where_element)
primitives.native_lowerings[from_python_p] = Elementwise(_from_python_element)


# -- Python's operators on Python numbers (weak values) --------------------------------
_INT64 = (-2 ** 63, 2 ** 63 - 1)
_EXACT_FLOAT = 2 ** 53   # ints beyond it are not exact as floats


def _python_element(code, eqn, refs):
    op = eqn.params["op"]
    kinds = [python_type(a.aval) for a in eqn.inputs]
    if complex in kinds or any(a.aval.ndim for a in eqn.inputs):
        raise Unsupported(f"python_op[{op}] on {kinds}")
    out = python_type(eqn.outputs[0].aval)
    rule = _PYTHON_RULES.get(op)
    if rule is None:
        raise Unsupported(f"python_op[op={op!r}]")
    if float in kinds and len(set(kinds)) > 1:   # an int next to a float: exact as one?
        for r, k in zip(refs, kinds):
            if k is not float:
                code.deopt_if(f"{r} > {_EXACT_FLOAT} or {r} < -{_EXACT_FLOAT}")
        refs = [r if k is float else f"np.float64({r})" for r, k in zip(refs, kinds)]
    return rule(code, refs, out)


def _int_checked(symbol):
    def rule(code, refs, out):
        a, b = refs
        if out is float:
            result = code.fresh()
            code.stmt(f"{result} = {a} {symbol} {b}")
            return result
        result = code.fresh()
        code.stmt(f"{result} = np.int64({a}) {symbol} np.int64({b})")
        if symbol == "*":
            code.deopt_if(f"({a} > 3037000499 or {a} < -3037000499 or {b} > 3037000499 or "
                          f"{b} < -3037000499) and {a} != 0 and {b} != 0")
        elif symbol == "+":
            code.deopt_if(f"((np.int64({a}) ^ {result}) & (np.int64({b}) ^ {result})) < 0")
        else:
            code.deopt_if(f"((np.int64({a}) ^ np.int64({b})) & (np.int64({a}) ^ {result})) < 0")
        return result
    return rule


def _divisions(symbol):
    def rule(code, refs, out):
        a, b = refs
        code.deopt_if(f"{b} == 0")          # Python's ZeroDivisionError
        if out is int:
            code.deopt_if(f"{b} == -1")     # MIN // -1 leaves int64; the rest is exact
            return f"np.int64({a}) {symbol} np.int64({b})"
        if symbol == "/":
            for r in refs:
                code.deopt_if(f"{r} > {_EXACT_FLOAT} or {r} < -{_EXACT_FLOAT}")
            return f"np.float64({a}) / np.float64({b})"
        return f"{a} {symbol} {b}"
    return rule


def _compare(symbol):
    return lambda code, refs, out: f"{refs[0]} {symbol} {refs[1]}"


def _negate(code, refs, out):
    if out is int:
        code.deopt_if(f"{refs[0]} == {_INT64[0]}")
        return f"-np.int64({refs[0]})"
    return f"-{refs[0]}"


def _absolute(code, refs, out):
    if out is int:
        code.deopt_if(f"{refs[0]} == {_INT64[0]}")
    return f"abs({refs[0]})"


def _to_int(code, refs, out):
    code.deopt_if(f"not ({refs[0]} > -9.2e18 and {refs[0]} < 9.2e18)")   # inf, NaN, big
    return f"np.int64({refs[0]})"


_PYTHON_RULES = {
    "add": _int_checked("+"), "sub": _int_checked("-"), "mul": _int_checked("*"),
    "truediv": _divisions("/"), "floordiv": _divisions("//"), "mod": _divisions("%"),
    "lt": _compare("<"), "le": _compare("<="), "gt": _compare(">"), "ge": _compare(">="),
    "eq": _compare("=="), "ne": _compare("!="),
    "neg": _negate, "pos": lambda code, refs, out: refs[0], "abs": _absolute,
    "bool": lambda code, refs, out: f"{refs[0]} != 0",
    "float": lambda code, refs, out: f"np.float64({refs[0]})",
    "int": _to_int,
}


def _python_op_element(code, eqn, refs):
    result = _python_element(code, eqn, refs)
    out = eqn.outputs[0].aval
    return code.cast(result, out.dtype, None) if not out.ndim else result


primitives.native_lowerings[python_op_p] = Elementwise(_python_op_element)
