"""Every elementwise ufunc and operator, against the NumPy oracle, over dtypes and unknown dims.

The rows are generated from `runtime.ops.elementwise.ELEMENTWISE_UFUNCS` (its
`nin`/`nout`): each ufunc on arrays that broadcast, on NumPy scalars, and
(binary ones) with a weak Python scalar operand. `DOMAINS` picks inputs that
keep results finite where NumPy's functions have a restricted domain. The
operators (`x + y`, `2 - x`, `ndarray * x`, `-x`, `x @ y`, `y += z`, ...) reach
the same primitives through the Tracer's dunder methods.
"""
from __future__ import annotations

import operator

import numpy as np
import pytest
from oracle import ALL_DTYPES, A, Row, S, cases, check_row

from autograph_runtime.ops.elementwise import ELEMENTWISE_UFUNCS

NONZERO = dict(lo=1, hi=4, signed=True)
# ufunc name -> keyword arguments of `A` for each operand.
DOMAINS = {
    "arccos": [dict(lo=-0.9, hi=0.9)], "arcsin": [dict(lo=-0.9, hi=0.9)],
    "arctanh": [dict(lo=-0.9, hi=0.9)], "arccosh": [dict(lo=1.1, hi=4)],
    "log": [dict(lo=0.1, hi=5)], "log2": [dict(lo=0.1, hi=5)], "log10": [dict(lo=0.1, hi=5)],
    "sqrt": [dict(lo=0.1, hi=5)], "log1p": [dict(lo=0, hi=5)], "reciprocal": [NONZERO],
    "tan": [dict(lo=-1.2, hi=1.2)],
    "power": [dict(lo=0.5, hi=3), dict(lo=0, hi=3)],
    "float_power": [dict(lo=0.5, hi=3), dict(lo=0, hi=3)],
    "divide": [{}, NONZERO], "floor_divide": [{}, NONZERO], "remainder": [{}, NONZERO],
    "fmod": [{}, NONZERO], "divmod": [{}, NONZERO],
    "left_shift": [dict(lo=-8, hi=8), dict(lo=0, hi=4)],
    "right_shift": [dict(lo=-8, hi=8), dict(lo=0, hi=4)],
    "gcd": [dict(lo=-12, hi=12)] * 2, "lcm": [dict(lo=-12, hi=12)] * 2,
    "ldexp": [{}, dict(lo=-3, hi=3, dtype="int32")],
}
# Dtypes beyond the usual ones, for ufuncs that take no other.
EXTRA_DTYPES = {"isnat": ("datetime64[s]",)}


def _domain(ufunc, i):
    kinds = DOMAINS.get(ufunc.__name__, [])
    return kinds[i] if i < len(kinds) else kinds[0] if kinds and ufunc.nin == 1 else {}


def _applied(ufunc):
    """`ufunc` as a plain function (`ag.convert(ufunc)` would bind all its keywords)."""
    def apply(*xs):
        return ufunc(*xs)
    apply.__name__ = ufunc.__name__
    return apply


def _rows():
    rows = []
    for ufunc in ELEMENTWISE_UFUNCS:
        fn, name = _applied(ufunc), ufunc.__name__
        dtypes = ALL_DTYPES + EXTRA_DTYPES.get(name, ())
        shapes = [(2, 3)] if ufunc.nin == 1 else [(2, 3), (3,)]
        arrays = tuple(A(s, **_domain(ufunc, i)) for i, s in enumerate(shapes))
        scalars = tuple(S(**_domain(ufunc, i)) for i in range(ufunc.nin))
        rows.append(Row(name, fn, arrays, dtypes))
        rows.append(Row(f"{name}[scalars]", fn, scalars, dtypes))
        if ufunc.nin == 2:
            rows.append(Row(f"{name}[x,2]", fn, (arrays[0], 2), dtypes))
            left = 2.5 if any(t.startswith("dd") for t in ufunc.types) else 3
            rows.append(Row(f"{name}[{left},x]", fn, (left, arrays[1]), dtypes))
    return rows


UFUNC_ROWS = _rows()


# -- operators: binary and reflected (scalars and arrays on the left), unary, in place -------
X, V = A((2, 3)), A((3,))
C_LEFT = np.arange(1, 4)                      # a NumPy array on the left of an operator


def _add_in_place(x):
    y = x.copy()
    y += np.arange(3.0)
    return y


def _multiply_in_place(x):
    y = x.copy()
    y *= 2
    return y


# symbol -> (function, domain of the left operand, domain of the right operand)
BINARY = {
    "+": (operator.add, {}, {}), "-": (operator.sub, {}, {}), "*": (operator.mul, {}, {}),
    "/": (operator.truediv, {}, NONZERO), "//": (operator.floordiv, {}, NONZERO),
    "%": (operator.mod, {}, NONZERO), "**": (operator.pow, dict(lo=0.5, hi=3), dict(lo=0, hi=3)),
    "&": (operator.and_, {}, {}), "|": (operator.or_, {}, {}), "^": (operator.xor, {}, {}),
    "<<": (operator.lshift, {}, dict(lo=0, hi=4)), ">>": (operator.rshift, {}, dict(lo=0, hi=4)),
    "<": (operator.lt, {}, {}), "<=": (operator.le, {}, {}), ">": (operator.gt, {}, {}),
    ">=": (operator.ge, {}, {}), "==": (operator.eq, {}, {}), "!=": (operator.ne, {}, {}),
    "divmod": (divmod, {}, NONZERO),
}

INT_ONLY = {"&", "|", "^", "<<", ">>"}


def _operator_rows():
    rows = []
    for sym, (op, left, right) in BINARY.items():
        rows += [
            Row(f"x{sym}y", lambda x, y, op=op: op(x, y), (A((2, 3), **left), A((3,), **right))),
            Row(f"x{sym}2", lambda x, op=op: op(x, 2), (A((2, 3), **left),)),
            Row(f"2{sym}x", lambda x, op=op: op(2, x), (A((2, 3), **right),)),
            Row(f"2.5{sym}x", lambda x, op=op: op(2.5, x), (A((2, 3), **right),),
                error=sym in INT_ONLY),
            Row(f"ndarray{sym}x", lambda x, op=op: op(C_LEFT, x), (A((2, 3), **right),)),
            Row(f"float32{sym}x", lambda x, op=op: op(np.float32(1.5), x), (A((2, 3), **right),),
                error=sym in INT_ONLY),
        ]
    return rows + [
        Row("-x", operator.neg), Row("+x", operator.pos), Row("abs(x)", abs),
        Row("~x", operator.invert),
        Row("x@y", operator.matmul, (X, A((3, 4)))), Row("x@v", operator.matmul, (X, V)),
        Row("v@v", operator.matmul, (V, V)), Row("ndarray@x", lambda x: C_LEFT @ x, (A((3, 2)),)),
        Row("2@x", lambda x: 2 @ x, error=True),
        Row("y+=ndarray", _add_in_place),
        Row("y*=2", _multiply_in_place),
    ]


OPERATOR_ROWS = _operator_rows()


@pytest.mark.parametrize("row, dtype, mode", cases(UFUNC_ROWS))
def test_ufunc(row, dtype, mode):
    check_row(row, dtype, mode)


@pytest.mark.parametrize("row, dtype, mode", cases(OPERATOR_ROWS))
def test_operator(row, dtype, mode):
    check_row(row, dtype, mode)


@pytest.mark.parametrize("ufunc", ELEMENTWISE_UFUNCS, ids=lambda u: u.__name__)
def test_ufunc_with_dtype_argument(ufunc):
    """`dtype=` picks the loop, as in NumPy (where the ufunc has a float64 loop)."""
    row = Row(f"{ufunc.__name__}[dtype]", lambda *xs: ufunc(*xs, dtype=np.float64),
              tuple(A((3,), **_domain(ufunc, i)) for i in range(ufunc.nin)))
    check_row(row, "float32", "known")
