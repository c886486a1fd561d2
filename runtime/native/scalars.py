"""One element of an elementwise primitive, as Numba statements on machine numbers.

Every value is a scalar of its exact NumPy dtype: operands are cast to the dtype
of the loop NumPy's ufunc picks (`np.add.resolve_dtypes`, weak Python numbers
included, as NEP 50 says), the operation runs, and its result is cast to the
output's dtype, so `int8 + int8` wraps as NumPy's int8 loop does and
`float32 + float32` rounds once, in float32.

Where NumPy would warn or raise (a float operation that makes an inf or a NaN
from finite or non-NaN operands, an integer division by zero, an overflow of a
NumPy scalar or of a Python int, a Python number that does not fit), the code
raises `Deopt`: the call is run again on the NumPy tier, which gives NumPy's
own warning or error. So the native tier computes the common case and never
decides an exceptional one.

>>> import numpy as np
>>> loop_dtypes(np.add, [np.dtype("int8"), int])
([dtype('int8'), dtype('int8')], dtype('int8'))
"""
from __future__ import annotations

import re

import numpy as np

from ..abstract import python_type


class Unsupported(Exception):
    """The native tier has no lowering for this (the graph runs on the NumPy tier)."""


def numba_type(dtype) -> str:
    """The constructor Numba code converts a number to `dtype` with (`np.float32`)."""
    dtype = np.dtype(dtype)
    if dtype == bool:
        return "np.bool_"
    if dtype.kind not in "iuf":
        raise Unsupported(f"dtype {dtype}")
    return f"np.{dtype.name}"


def loop_dtypes(ufunc, operand_types) -> tuple:
    """The dtypes of NumPy's loop for operands of these dtypes (a Python type for a
    weak number): `(input dtypes, output dtype)`."""
    try:
        dtypes = ufunc.resolve_dtypes(tuple(operand_types) + (None,) * ufunc.nout)
    except Exception as error:  # noqa: BLE001 - no such loop: NumPy's error when it runs
        raise Unsupported(f"{ufunc.__name__} on {operand_types}: {error}") from None
    return list(dtypes[:ufunc.nin]), dtypes[ufunc.nin]


def operand_type(atom):
    """What NumPy's promotion sees: a dtype, or a Python type for a weak number."""
    if atom.aval.weak and python_type(atom.aval) is not bool:
        return python_type(atom.aval)
    return np.dtype(atom.aval.dtype)


# name -> (template on the cast operands, the dtype kinds it is defined for).
# `{0}`, `{1}`: operands; the result is cast to the output dtype afterwards.
UFUNCS = {
    "add": ("{0} + {1}", "iuf"), "subtract": ("{0} - {1}", "iuf"),
    "multiply": ("{0} * {1}", "iuf"), "divide": ("{0} / {1}", "f"),
    "negative": ("-{0}", "iuf"), "positive": ("+{0}", "iuf"),
    "absolute": ("abs({0})", "iuf"), "square": ("{0} * {0}", "iuf"),
    "sqrt": ("np.sqrt({0})", "f"), "exp": ("np.exp({0})", "f"), "log": ("np.log({0})", "f"),
    "tanh": ("np.tanh({0})", "f"), "sin": ("np.sin({0})", "f"), "cos": ("np.cos({0})", "f"),
    "floor": ("np.floor({0})", "f"), "ceil": ("np.ceil({0})", "f"),
    "sign": ("np.sign({0})", "if"),
    "maximum": ("{0} if ({0} != {0} or {0} >= {1}) else {1}", "iuf"),
    "minimum": ("{0} if ({0} != {0} or {0} <= {1}) else {1}", "iuf"),
    "less": ("{0} < {1}", "biuf"), "less_equal": ("{0} <= {1}", "biuf"),
    "greater": ("{0} > {1}", "biuf"), "greater_equal": ("{0} >= {1}", "biuf"),
    "equal": ("{0} == {1}", "biuf"), "not_equal": ("{0} != {1}", "biuf"),
    "logical_and": ("({0} != 0) and ({1} != 0)", "biuf"),
    "logical_or": ("({0} != 0) or ({1} != 0)", "biuf"),
    "logical_xor": ("({0} != 0) != ({1} != 0)", "biuf"),
    "logical_not": ("{0} == 0", "biuf"),
    "bitwise_and": ("{0} & {1}", "biu"), "bitwise_or": ("{0} | {1}", "biu"),
    "bitwise_xor": ("{0} ^ {1}", "biu"),
    "floor_divide": (None, "iuf"), "remainder": (None, "iuf"), "power": (None, "iuf"),
}
# Float results of these are never an inf or a NaN that NumPy warns about.
NO_FLOAT_CHECK = {"negative", "positive", "absolute", "maximum", "minimum", "floor", "ceil",
                  "tanh", "sign"}

_OVERFLOWING = ("add", "subtract", "multiply", "negative", "absolute", "square")
_INT_MIN = {np.dtype(t): np.iinfo(t).min for t in (np.int8, np.int16, np.int32, np.int64)}


class ScalarCode:
    """Statements of one scope (a loop body, a block): fresh names and checks."""

    def __init__(self, gen, indent: str):
        self.gen = gen
        self.indent = indent

    def stmt(self, text: str):
        self.gen.emit(self.indent, text)

    def fresh(self) -> str:
        return self.gen.fresh("v")

    def deopt_if(self, condition: str):
        self.stmt(f"if {condition}:")
        self.gen.emit(self.indent + "    ", "raise Deopt()")

    def cast(self, expr: str, to, source=None) -> str:
        """`expr` (of type `source`: a dtype, or a Python type for a weak number) as a
        value of dtype `to`; where NumPy would raise or warn converting it, a deopt."""
        to = np.dtype(to)
        if source is not None and not isinstance(source, type) and np.dtype(source) == to:
            return expr
        if is_literal(expr):   # a constant: converted and checked now
            value = eval(expr, {"np": np})  # noqa: S307 - a number this module wrote
            with np.errstate(all="ignore"):
                fits = _fits(value, to)
            if not fits:
                self.deopt_if("True")
            return f"{numba_type(to)}({expr})"
        name = self.fresh()
        self.stmt(f"{name} = {numba_type(to)}({expr})")
        if to.kind in "iu" and (isinstance(source, type) and source is not bool or
                                isinstance(source, np.dtype) and source.kind == "f"):
            info = np.iinfo(to)  # NumPy's OverflowError (a Python int), or a cast warning
            self.deopt_if(f"not ({expr} >= {info.min} and {expr} <= {info.max})")
        elif to.kind == "f" and source is not None and (
                source is float or isinstance(source, np.dtype) and source.kind == "f"):
            self.deopt_if(f"({name} - {name} != 0) and ({expr} - {expr} == 0)")  # overflow
        return name

    def float_check(self, result: str, operands: list[str]):
        """Deopt where `result` is an inf from finite operands or a NaN from non-NaN ones
        (NumPy's overflow, divide-by-zero and invalid warnings)."""
        operands = [x for x in operands if not is_literal(x)]   # finite, not NaN
        finite = " and ".join(f"({x} - {x} == 0)" for x in operands) or "True"
        not_nan = " and ".join(f"({x} == {x})" for x in operands) or "True"
        # one test where the result is finite (the common case); the operands' after
        self.stmt(f"if {result} - {result} != 0:")
        self.gen.emit(self.indent + "    ", f"if ({result} != {result} and {not_nan}) or "
                                           f"({result} == {result} and {finite}):")
        self.gen.emit(self.indent + "        ", "raise Deopt()")


_LITERAL = re.compile(r"^(np\.\w+\()?-?(\d[\d.e+-]*|True|False)\)?$")


def is_literal(expr: str) -> bool:
    """Whether `expr` is a finite number written by this module (`2`, `np.float32(0.5)`)."""
    return bool(_LITERAL.match(expr))


def _fits(value, to: np.dtype) -> bool:
    """Whether NumPy converts the Python number `value` to `to` without error or warning."""
    if to.kind in "iu" and not isinstance(value, (bool, np.bool_)):
        info = np.iinfo(to)
        return info.min <= value <= info.max and value == int(value)
    if to.kind == "f":
        return bool(np.isfinite(np.asarray(value, dtype=to)))
    return True


def ufunc_element(code: ScalarCode, ufunc, atoms, refs, out_dtype) -> str:
    """The statements computing one element of `ufunc(*operands)`; returns its name."""
    name = ufunc.__name__
    if name not in UFUNCS:
        raise Unsupported(f"numpy.{name}")
    template, kinds = UFUNCS[name]
    types = [operand_type(a) for a in atoms]
    ins, out = loop_dtypes(ufunc, types)
    if any(np.dtype(d).kind not in kinds for d in ins) or np.dtype(out).kind not in "biuf":
        raise Unsupported(f"numpy.{name} on {', '.join(str(d) for d in ins)}")
    args = [code.cast(r, d, t) for r, d, t in zip(refs, ins, types)]
    if name == "power":
        if np.dtype(ins[0]).kind in "iu" and not any(a.aval.ndim for a in atoms):
            raise Unsupported("an integer power of NumPy scalars (NumPy checks its overflow)")
        expr = _power(code, args, np.dtype(ins[0]))
    elif template is None:
        expr = _division(code, name, args, np.dtype(ins[0]))
    else:
        expr = template.format(*args)
    if np.dtype(ins[0]).kind in "iu" and name in _OVERFLOWING \
            and not any(a.aval.ndim for a in atoms):
        expr = _checked_int(code, name, args, np.dtype(ins[0]))
    result = code.fresh()
    code.stmt(f"{result} = {numba_type(out)}({expr})")
    if np.dtype(out).kind == "f" and name not in NO_FLOAT_CHECK and not name.startswith(
            ("less", "greater", "equal", "not_equal", "logical")):
        code.float_check(result, args)
    if np.dtype(out) != np.dtype(out_dtype):
        result = code.cast(result, out_dtype, np.dtype(out))
    return result


def _division(code, name, args, dtype) -> str:
    a, b = args
    if dtype.kind == "f":
        code.deopt_if(f"{b} == 0")
        return f"{a} // {b}" if name == "floor_divide" else f"{a} % {b}"
    code.deopt_if(f"{b} == 0")
    if dtype in _INT_MIN:  # MIN // -1 overflows (NumPy warns); % -1 is 0
        code.deopt_if(f"{b} == -1 and {a} == {_INT_MIN[dtype]}")
    wide = "np.int64" if dtype.kind == "i" else "np.uint64"
    return f"{wide}({a}) // {wide}({b})" if name == "floor_divide" else \
        f"{wide}({a}) % {wide}({b})"


def _power(code, args, dtype) -> str:
    """`a ** b`: C's `pow` for floats; for ints, squaring in 64 bits (wrapping as NumPy's
    loop does in its own width), and NumPy's ValueError for `b < 0` through a deopt."""
    a, b = args
    if dtype.kind == "f":
        return f"{a} ** {b}"
    wide = "np.int64" if dtype.kind == "i" else "np.uint64"
    if dtype.kind == "i":
        code.deopt_if(f"{b} < 0")
    result, base, exponent = code.fresh(), code.fresh(), code.fresh()
    code.stmt(f"{result} = {wide}(1)")
    code.stmt(f"{base} = {wide}({a})")
    code.stmt(f"{exponent} = {wide}({b})")
    code.stmt(f"while {exponent} > 0:")
    code.gen.emit(code.indent + "    ", f"if {exponent} & 1:")
    code.gen.emit(code.indent + "        ", f"{result} = {result} * {base}")
    code.gen.emit(code.indent + "    ", f"{base} = {base} * {base}")
    code.gen.emit(code.indent + "    ", f"{exponent} = {exponent} >> 1")
    return result


def _checked_int(code, name, args, dtype) -> str:
    """A signed integer operation on NumPy scalars: NumPy warns where it overflows, so a
    deopt there (computed in int64, where int8 to int32 cannot overflow)."""
    info = np.iinfo(dtype)
    if dtype == np.uint64:
        raise Unsupported("uint64 arithmetic on NumPy scalars")
    wide = code.fresh()
    if dtype == np.int64:
        if name in ("negative", "absolute"):
            code.deopt_if(f"{args[0]} == {info.min}")
            return UFUNCS[name][0].format(*args)
        a, b = (args * 2)[:2]
        if name in ("multiply", "square"):
            code.deopt_if(f"({a} > 3037000499 or {a} < -3037000499 or {b} > 3037000499 or "
                          f"{b} < -3037000499) and {a} != 0 and {b} != 0")
            return f"{a} * {b}"
        sign = "+" if name == "add" else "-"
        code.stmt(f"{wide} = {a} {sign} {b}")
        check = f"(({a} ^ {wide}) & ({b} ^ {wide})) < 0" if name == "add" else \
            f"(({a} ^ {b}) & ({a} ^ {wide})) < 0"
        code.deopt_if(check)
        return wide
    code.stmt(f"{wide} = " + UFUNCS[name][0].format(*[f"np.int64({x})" for x in args]))
    code.deopt_if(f"{wide} < {info.min} or {wide} > {info.max}")
    return wide
