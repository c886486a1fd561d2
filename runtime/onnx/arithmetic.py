"""NumPy's (and Python's) arithmetic written as ONNX nodes, for the lowerings to share.

ONNX's integer `Div` truncates and divides by zero undefined; NumPy floors, and
gives 0 for a zero divisor; its float `//` and `%` are `npy_divmod`'s (Python's
own algorithm). These helpers write NumPy's answer, bit for bit, from nodes
whose answers are defined for every operand.
"""
from __future__ import annotations

import numpy as np


def is_float(dtype) -> bool:
    return np.dtype(dtype).kind == "f"


def where(cx, cond, a, b):
    return cx.node("Where", [cond, a, b])


WHERE_DTYPES = {np.dtype(t) for t in (np.uint8, np.int32, np.int64, np.float32, np.float64)}


def select(cx, cond, a, b, dtype):
    """`where(cond, a, b)` of values of `dtype`: onnxruntime's `Where` takes no booleans
    (`(cond and a) or (not cond and b)`) and few integer widths (int64 in between)."""
    dtype = np.dtype(dtype)
    if dtype == bool:
        if a == b:
            return a
        keep_a = cx.node("And", [cond, a])
        keep_b = cx.node("And", [cx.node("Xor", [cond, cx.const(True, bool)]), b])
        return cx.node("Or", [keep_a, keep_b])
    if dtype in WHERE_DTYPES:
        return where(cx, cond, a, b)
    wide = np.dtype(np.float64) if dtype.kind == "f" else np.dtype(np.int64)
    picked = where(cx, cond, cx.cast(a, dtype, wide), cx.cast(b, dtype, wide))
    return cx.cast(picked, wide, dtype)


def where_signed(cx, cond, a, b):
    """`where(cond, a, b)` for an `a` that may be -0.0: onnxruntime's `Where` gives +0.0
    for a -0.0 it takes from its second input, and keeps one from its third. The
    condition is negated by `Xor` with True: a `Not` before a `Where` it fuses away."""
    negated = cx.node("Xor", [cond, cx.const(True, bool)])
    return cx.node("Where", [negated, b, a])


def negative_zero_sign(cx, s, dtype):
    """True where `s` is negative, -0.0 included (`copysign(1, s) < 0` but for NaN)."""
    zero = cx.const(0, dtype)
    below = cx.node("Less", [s, zero])
    inverse = cx.node("Div", [cx.const(1, dtype), s])
    neg_zero = cx.node("And", [cx.node("Equal", [s, zero]), cx.node("Less", [inverse, zero])])
    return cx.node("Or", [below, neg_zero])


def signed_zero(cx, negative, dtype):
    return where_signed(cx, negative, cx.const(-0.0, dtype), cx.const(0.0, dtype))


def int_divmod(cx, a, b, dtype):
    """NumPy's integer `(a // b, a % b)`: floored, 0 for a zero divisor; `MIN // -1` wraps."""
    zero, one = cx.const(0, dtype), cx.const(1, dtype)
    is_zero = cx.node("Equal", [b, zero])
    signed = np.dtype(dtype).kind == "i"
    special = is_zero
    if signed:  # MIN // -1 traps in C: divide by 1 and negate instead
        is_minus_one = cx.node("Equal", [b, cx.const(-1, dtype)])
        special = cx.node("Or", [is_zero, is_minus_one])
    safe = where(cx, special, one, b)
    q = cx.node("Div", [a, safe])
    r = cx.node("Sub", [a, cx.node("Mul", [q, safe])])
    if signed:
        opposite = cx.node("Xor", [cx.node("Less", [r, zero]), cx.node("Less", [safe, zero])])
        adjust = cx.node("And", [cx.node("Not", [cx.node("Equal", [r, zero])]), opposite])
        q = where(cx, adjust, cx.node("Sub", [q, one]), q)
        r = where(cx, adjust, cx.node("Add", [r, safe]), r)
        q = where(cx, is_minus_one, cx.node("Neg", [a]), q)
    return where(cx, is_zero, zero, q), where(cx, is_zero, zero, r)


def float_divmod(cx, a, b, dtype):
    """NumPy's float `(a // b, a % b)` (`npy_divmod`, as Python's float `//` and `%`)."""
    zero = cx.const(0, dtype)
    mod = cx.node("Mod", [a, b], fmod=1)
    div = cx.node("Div", [cx.node("Sub", [a, mod]), b])
    b_negative = cx.node("Less", [b, zero])
    opposite = cx.node("Xor", [b_negative, cx.node("Less", [mod, zero])])
    mod_zero = cx.node("Equal", [mod, zero])
    adjust = cx.node("And", [cx.node("Not", [mod_zero]), opposite])
    div = where(cx, adjust, cx.node("Sub", [div, cx.const(1, dtype)]), div)
    fixed_mod = where(cx, adjust, cx.node("Add", [mod, b]), mod)
    fixed_mod = where_signed(cx, mod_zero, signed_zero(cx, b_negative, dtype), fixed_mod)
    floor = cx.node("Floor", [div])
    up = cx.node("Greater", [cx.node("Sub", [div, floor]), cx.const(0.5, dtype)])
    floor = where(cx, up, cx.node("Add", [floor, cx.const(1, dtype)]), floor)
    quotient = cx.node("Div", [a, b])
    zero_div = signed_zero(cx, negative_zero_sign(cx, quotient, dtype), dtype)
    floor = where_signed(cx, cx.node("Equal", [div, zero]), zero_div, floor)
    b_zero = cx.node("Equal", [b, zero])
    return where(cx, b_zero, quotient, floor), where(cx, b_zero, mod, fixed_mod)


def divmod_(cx, a, b, dtype, divisor=None, part=None):
    """NumPy's `(a // b, a % b)` (only `part` 0 or 1 of it is needed where given); `divisor`
    is b's value where it is a literal."""
    if divisor is not None and not is_float(dtype) and divisor not in (0, -1):
        if part == 1:
            return None, cx.node("Mod", [a, b], fmod=0)   # the divisor's sign, as NumPy's
        q = cx.node("Div", [a, b])   # truncated: one less where the remainder's sign is not b's
        r = cx.node("Sub", [a, cx.node("Mul", [q, b])])
        wrong = cx.node("Less" if divisor > 0 else "Greater", [r, cx.const(0, dtype)])
        q = cx.node("Sub", [q, cx.cast(wrong, bool, dtype)])
        return q, (cx.node("Mod", [a, b], fmod=0) if part is None else None)
    return (float_divmod if is_float(dtype) else int_divmod)(cx, a, b, dtype)


def extreme(cx, op, a, b, dtype, propagate_nan=True):
    """NumPy's `maximum`/`minimum` (NaN wins) or `fmax`/`fmin` (NaN loses)."""
    if np.dtype(dtype) == bool:
        return cx.node("Or" if op == "Max" else "And", [a, b])
    result = cx.node(op, [a, b])
    if not is_float(dtype):
        return result
    a_nan, b_nan = cx.node("IsNaN", [a]), cx.node("IsNaN", [b])
    if propagate_nan:
        return where(cx, a_nan, a, where(cx, b_nan, b, result))
    return where(cx, a_nan, b, where(cx, b_nan, a, result))
