"""0-d int64 and float64 arithmetic as Python numbers, exactly as NumPy's scalars do it.

A Python `int` or `float` operation costs 15-25 ns where the same on a NumPy
scalar costs 30-90 ns. `runtime.passes.scalar_lowering` rewrites a loop's 0-d
int64 and float64 work into `scalar` equations on Python numbers for the NumPy
tier; each one computes what NumPy computes, or hands the operation to NumPy:

    t0 = 3 * n_2                         # scalar[op='multiply', dtype=int64]
    if t0 > 1073741823 or t0 < -1073741823:          # (cheap: one-digit ints)
        if t0 > 9223372036854775807 or t0 < -9223372036854775808:
            t0 = __numpy1(3, n_2)        # NumPy's: wrapped, with its warning

- Python and NumPy agree on `+ - *`, `//`, `%` and comparisons of in-range
  int64 values, and on `+ - * /` and comparisons of float64 values (IEEE
  double arithmetic both). Where Python's result leaves the dtype's range, or
  is not finite, or the divisor is zero, or a float product or quotient is
  tiny (it may have underflowed; an exact 0.0 too), NumPy computes it on NumPy scalars:
  int64 wrap-around, `inf` and `nan`, and the warnings or errors of
  `np.errstate`, are NumPy's own.
- `box` makes a Python number a NumPy scalar again (`np.int64(n)`) for
  everything else; `unbox` makes a NumPy value a Python number
  (`operator.index(x)`, `float(x)`).
"""
from __future__ import annotations

import operator

import numpy as np

from .. import primitives
from ..abstract import AbstractValue
from ..ir import Literal

INT64, FLOAT64, BOOL = np.dtype(np.int64), np.dtype(np.float64), np.dtype(bool)

BINARY = {"add": "+", "subtract": "-", "multiply": "*", "floor_divide": "//",
          "remainder": "%", "divide": "/"}
COMPARISONS = {"less": "<", "less_equal": "<=", "greater": ">", "greater_equal": ">=",
               "equal": "==", "not_equal": "!="}
OPERATORS = {"negative": operator.neg, **{op: getattr(operator, name) for op, name in [
    ("add", "add"), ("subtract", "sub"), ("multiply", "mul"), ("floor_divide", "floordiv"),
    ("remainder", "mod"), ("divide", "truediv"), ("less", "lt"), ("less_equal", "le"),
    ("greater", "gt"), ("greater_equal", "ge"), ("equal", "eq"), ("not_equal", "ne")]}}

# dtype -> the operations computed on its Python numbers
LOWERED = {
    INT64: {"add", "subtract", "multiply", "floor_divide", "remainder", "negative",
            *COMPARISONS},
    FLOAT64: {"add", "subtract", "multiply", "divide", "negative", *COMPARISONS},
}
_DIVISIONS = {"floor_divide", "remainder", "divide"}   # NumPy's where the divisor is 0
_RANGE = {INT64: (-2 ** 63, 2 ** 63 - 1),
          FLOAT64: (-float(np.finfo(np.float64).max), float(np.finfo(np.float64).max))}
_TINY = float(np.finfo(np.float64).tiny)   # below, a product or quotient may underflow
# An int within +-_SMALL is one digit of CPython's: comparing two of them costs a few ns,
# where comparing one with int64's bounds (three digits) costs about 20 ns; so an int's
# range check tests against these first, and against int64's only where they fail.
_SMALL = 2 ** 30 - 1


def _out_of_range(op: str, dtype, bounds=None) -> str:
    """The test, on `{0}` (the result), under which Python's result may not be NumPy's
    without a flag raised: out of range, not finite (nan too), or (products, quotients)
    tiny. An int's is two plain comparisons, cheaper than `not low <= r <= high`."""
    low, high = bounds or _RANGE[dtype]
    if dtype == FLOAT64 and op in ("multiply", "divide"):
        return f"not ({_TINY!r} <= {{0}} <= {high!r} or {low!r} <= {{0}} <= {-_TINY!r})"
    if dtype == INT64:
        return f"{{0}} > {high!r} or {{0}} < {low!r}"
    return f"not {low!r} <= {{0}} <= {high!r}"   # nan compares false


def _checks_range(op: str, dtype, divisor=None) -> bool:
    """Whether Python's result may leave what NumPy's dtype holds (or be inf or nan);
    `divisor`: a literal one, where known."""
    if op in COMPARISONS or op == "remainder":
        return False
    if op == "floor_divide" and type(divisor) is int and divisor not in (0, -1):
        return False   # |n // d| <= |n|
    return not (op == "negative" and dtype == FLOAT64)


def _literal_divisor(eqn):
    """The divisor of a division `eqn` where it is a nonzero literal, else None."""
    divisor = eqn.inputs[1] if len(eqn.inputs) == 2 else None
    return divisor.value if type(divisor) is Literal and divisor.value else None


def _within(op: str, dtype):
    """`_out_of_range`'s complement as a function."""
    low, high = _RANGE[dtype]
    if dtype == FLOAT64 and op in ("multiply", "divide"):
        return lambda result: _TINY <= result <= high or low <= result <= -_TINY
    return lambda result: low <= result <= high


def _abstract_eval(*operands, op, dtype, lowered=(), then=None):
    if op == "box":
        return AbstractValue((), dtype)
    return AbstractValue((), BOOL if op in COMPARISONS else dtype, weak=True)


def numpy_fallback(op: str, dtype, lowered: tuple, then=None):
    """`op` on NumPy scalars of `dtype` (the operands `lowered` says are Python numbers
    standing for them) by the operator NumPy's scalars run, and `then` on its result:
    the result as a Python number."""
    function, box = OPERATORS[op], dtype.type

    def fallback(*operands):
        numpy = [box(x) if is_lowered else x for x, is_lowered in zip(operands, lowered)]
        result = function(*numpy)
        if then is not None:
            second, literal, literal_first = then
            pair = (literal, result) if literal_first else (result, literal)
            result = OPERATORS[second](*pair)
        return result.item()
    return fallback


def _then_bounds(then) -> tuple:
    """The range of an int64 result `r = t op2 c` (`c op2 t`) in which neither step left
    int64: where both r and the first step's t, taken back from r, are in int64's range
    (for `c - t`, t = c - r: r from c - high, not low + c, which let `7 - 2 * x` miss
    NumPy's overflow of `2 * x` where r is `low + 7`)."""
    second, c, c_first = then
    low, high = _RANGE[INT64]
    if second == "add":
        first_low, first_high = low + c, high + c
    elif c_first:
        first_low, first_high = c - high, c - low
    else:
        first_low, first_high = low - c, high - c
    return max(low, first_low), min(high, first_high)


def _kernel(xp, op, dtype, lowered=(), then=None):
    if op == "box":
        return dtype.type
    if op == "unbox":   # `operator.index` of an int64: `int`'s result in a third of its time
        return operator.index if dtype == INT64 else float
    function, fallback = OPERATORS[op], numpy_fallback(op, dtype, lowered, then)
    in_range = _within(op, dtype) if _checks_range(op, dtype) else None
    if then is not None:
        second, literal, literal_first = then
        low, high = _then_bounds(then)
        first, function = function, lambda *operands: OPERATORS[second](
            *((literal, first(*operands)) if literal_first else (first(*operands), literal)))
        in_range = lambda result: low <= result <= high   # noqa: E731

    def run(*operands):
        if op in _DIVISIONS and not operands[1]:
            return fallback(*operands)
        result = function(*operands)
        return result if in_range is None or in_range(result) else fallback(*operands)
    return run


scalar_p = primitives.define("scalar", _abstract_eval, _kernel)
"""`scalar[op, dtype, lowered, then]`: `op` of `OPERATORS` on Python numbers standing for
NumPy scalars of `dtype` (`lowered[k]`: operand k is one; a literal is not), or `box` /
`unbox`. `then=(op2, c, c_first)`: an int64 `+`/`-` of the literal c follows (`3 * n + 1`),
one range check for both (`runtime.passes.scalar_lowering` fuses the pair)."""


def rereads_operands(eqn) -> bool:
    """Whether the code of the `scalar` equation `eqn` reads its operands again after it
    assigns its result (NumPy's fallback where Python's result is out of range):
    its result cannot be written to the name of an operand it replaces."""
    op = eqn.params["op"]
    if op in ("box", "unbox"):
        return False
    divisor = _literal_divisor(eqn) if op in _DIVISIONS else None
    return _checks_range(op, eqn.params["dtype"], divisor)


def operand_from_result(eqn):
    """For an int64 `+`, `-`, `*` or negation (and its `then`) of one traced operand and
    int literals: (the operand's position, a function making the operand's text from the
    result's), so NumPy's fallback can take the operand back from Python's exact result
    once that replaced it (`n_2 = 3 * n_2 + 1`, then `__numpy1(3, (n_2 - 1) // 3)`);
    else None."""
    op, then = eqn.params["op"], eqn.params.get("then")
    variable = [k for k, a in enumerate(eqn.inputs) if type(a) is not Literal]
    literals = [a.value for a in eqn.inputs if type(a) is Literal]
    if eqn.params["dtype"] != INT64 or op not in ("add", "subtract", "multiply", "negative") \
            or len(variable) != 1 or any(type(v) is not int for v in literals) \
            or (then is not None and type(then[1]) is not int) \
            or (op == "multiply" and literals[0] == 0):
        return None
    k = variable[0]

    def operand(result: str) -> str:
        t = result
        if then is not None:   # undo `t op2 c` (or `c op2 t`)
            second, c, c_first = then
            t = f"({t} - {c!r})" if second == "add" else \
                f"({c!r} - {t})" if c_first else f"({t} + {c!r})"
        if op == "negative":
            return f"(-{t})"
        literal = literals[0]
        if op == "add":
            return f"({t} - {literal!r})"
        if op == "subtract":
            return f"({t} + {literal!r})" if k == 0 else f"({literal!r} - {t})"
        return f"({t} // {literal!r})"   # exact: t is the operand times the literal
    return k, operand


def _emit(gen, eqn, refs, outs, indent):
    op, dtype = eqn.params["op"], eqn.params["dtype"]
    out = outs[0]
    if op in ("box", "unbox"):
        convert = gen.global_name(_kernel(None, op, dtype), op)
        return gen.emit(indent, f"{out} = {convert}({refs[0]})", eqn)
    refs = [_parenthesized(r) for r in refs]
    if op == "negative":
        expression = f"-{refs[0]}"
    else:
        symbol, divisor_ref = _binary_operator(eqn)
        expression = f"{refs[0]} {symbol} {divisor_ref or refs[1]}"
    then = eqn.params.get("then")
    checked = rereads_operands(eqn)
    zero_check = op in _DIVISIONS and _literal_divisor(eqn) is None
    if zero_check or checked:
        fallback = gen.global_name(numpy_fallback(op, dtype, eqn.params["lowered"], then),
                                   "numpy")
        recovered = operand_from_result(eqn) if checked else None
        operands = list(refs)
        if recovered is not None and refs[recovered[0]] == out:   # the result replaced it
            operands[recovered[0]] = recovered[1](out)
        fallback = f"{fallback}({', '.join(operands)})"
    inner = indent
    if zero_check:   # `if d:` ... `else: NumPy's`, which computes it once
        gen.emit(indent, f"if {refs[1]}:", eqn)
        inner = indent + "    "
    condition = _out_of_range(op, dtype)
    if then is not None:
        second, literal, literal_first = then
        c = _parenthesized(repr(literal))
        expression = f"{c} {BINARY[second]} ({expression})" if literal_first \
            else f"{expression} {BINARY[second]} {c}"
        condition = _out_of_range(op, dtype, _then_bounds(then))
    gen.emit(inner, f"{out} = {expression}", eqn)
    if checked:
        bounds = _then_bounds(then) if then is not None else _RANGE[dtype]
        if dtype == INT64 and bounds[0] <= -_SMALL and _SMALL <= bounds[1]:
            gen.emit(inner, f"if {_out_of_range(op, dtype, (-_SMALL, _SMALL)).format(out)}:",
                     eqn)
            inner += "    "
        gen.emit(inner, f"if {condition.format(out)}:", eqn)
        gen.emit(inner + "    ", f"{out} = {fallback}", eqn)
    if zero_check:
        gen.emit(indent, "else:", eqn)
        gen.emit(inner, f"{out} = {fallback}", eqn)


primitives.emitters[scalar_p] = _emit


def _inline(eqn):
    """A comparison, or an int's `%` or `//` by a literal that needs no check, as one
    expression (`primitives.inline_expressions`)."""
    op, dtype = eqn.params["op"], eqn.params["dtype"]
    divisor = _literal_divisor(eqn) if op in ("remainder", "floor_divide") else None
    if op not in COMPARISONS and not (dtype == INT64 and divisor is not None
                                      and not _checks_range(op, dtype, divisor)):
        return None
    zero = _compared_with_zero(eqn)
    if zero is not None:   # `not x`, a bool as `x == 0` is, tested without a comparison
        return lambda gen, refs: f"not {_parenthesized(refs[1 - zero])}"
    symbol, divisor_ref = _binary_operator(eqn)
    return lambda gen, refs: " ".join([_parenthesized(refs[0]), symbol,
                                       divisor_ref or _parenthesized(refs[1])])


def _compared_with_zero(eqn) -> int | None:
    """Which operand of an `x == 0` (`0 == x`) is the literal 0, else None. For an int or a
    float `x`, `not x` is `x == 0` (`not -0.0` and `not nan` too), and costs less."""
    if eqn.params["op"] != "equal":
        return None
    for i, atom in enumerate(eqn.inputs):
        if type(atom) is Literal and type(atom.value) in (int, float) and atom.value == 0:
            return i
    return None


def _binary_operator(eqn) -> tuple[str, str | None]:
    """The operator `eqn` is written with, and the right operand's text where the operator
    makes it another: an int's `// 2**k` as `>> k` and `% 2**k` as `& 2**k - 1`, which are
    the same on Python ints, negative ones too (`-7 // 2 == -7 >> 1 == -4`), and cheaper."""
    op = eqn.params["op"]
    divisor = _literal_divisor(eqn) if eqn.params["dtype"] == INT64 else None
    if op in ("floor_divide", "remainder") and type(divisor) is int and divisor > 0 \
            and divisor & (divisor - 1) == 0:
        return (">>", str(divisor.bit_length() - 1)) if op == "floor_divide" else \
            ("&", str(divisor - 1))
    return COMPARISONS.get(op) or BINARY[op], None


def _parenthesized(ref: str) -> str:
    return f"({ref})" if ref.startswith("-") else ref


primitives.inline_expressions[scalar_p] = _inline
