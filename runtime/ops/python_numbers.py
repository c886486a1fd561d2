"""Python numbers as traced values: `python_op` and `from_python`.

A Python number that a graph computes (a counter a staged loop carries, a
branch's `0.5`) is *weak* (`AbstractValue.weak`, printed `i64[]~weak`): when the
graph runs it is a Python `bool`, `int`, `float` or `complex`, as in eager code.
So NumPy kernels promote it by NEP 50 themselves (`x8 * steps` is int8, and
raises NumPy's `OverflowError` where `steps` does not fit int8), an int never
wraps at 64 bits, and dtypes computed by example see a Python number too
(`_rules.example`).

Operators whose operands are all Python numbers (`steps + 1`, `n // d`,
`-k`, `i < 3`) are Python's own: `python_op[op=...]` runs the `operator`
function, so `10 // d` raises `ZeroDivisionError` for `d == 0` and `2 ** 70`
stays exact (`int_pow`, a traced exponent of an int, raises `TypeError` where
a negative one would make the int-typed result a float). Its generated code
is the Python expression itself:

    steps_3:i64[]~weak = python_op[op='add'] steps_2 1     # steps_3 = steps_2 + 1

A NumPy function of a Python number (`np.add(k, 1)`) is NumPy's: an int64.
`from_python[dtype=...]` converts a weak value to a NumPy scalar of `dtype`
where a loop or a branch joins it with a NumPy value (`join_weak`): NumPy's
conversion, so an int that does not fit raises `OverflowError` when it runs.
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from .. import primitives, weak_joins
from ..backend import DASK_OVERRIDES
from ..abstract import AbstractValue, is_python_number, python_aval, python_type
from ..ir import Literal
from ..tracer import bind, current_builder
from ..tracer_value import Tracer, tracer_method


def _int_pow(a, b):
    """`a ** b` for Python ints `a` and a traced `b`, typed an int: a negative `b` (whose
    result Python makes a float) raises rather than change the value's type."""
    result = a ** b
    if type(result) is not int:
        raise TypeError(f"{a} ** {b}: a traced Python int raised to a negative power is "
                        f"a float, and the graph typed it as an int; write float(x) ** n")
    return result


# op -> (the Python function, the expression codegen writes)
PYTHON_OPS = {
    "add": (operator.add, "{} + {}"), "sub": (operator.sub, "{} - {}"),
    "mul": (operator.mul, "{} * {}"), "truediv": (operator.truediv, "{} / {}"),
    "floordiv": (operator.floordiv, "{} // {}"), "mod": (operator.mod, "{} % {}"),
    "pow": (operator.pow, "{} ** {}"), "int_pow": (_int_pow, None), "and": (operator.and_, "{} & {}"), "or": (operator.or_, "{} | {}"),
    "xor": (operator.xor, "{} ^ {}"), "lshift": (operator.lshift, "{} << {}"),
    "rshift": (operator.rshift, "{} >> {}"),
    "lt": (operator.lt, "{} < {}"), "le": (operator.le, "{} <= {}"),
    "gt": (operator.gt, "{} > {}"), "ge": (operator.ge, "{} >= {}"),
    "eq": (operator.eq, "{} == {}"), "ne": (operator.ne, "{} != {}"),
    "neg": (operator.neg, "-{}"), "pos": (operator.pos, "+{}"), "abs": (abs, "abs({})"),
    "invert": (operator.invert, "~{}"),
    "bool": (bool, "bool({})"), "int": (int, "int({})"), "float": (float, "float({})"),
    "complex": (complex, "complex({})"),
    "real": (operator.attrgetter("real"), "({}).real"),
    "imag": (operator.attrgetter("imag"), "({}).imag"),
    "conjugate": (operator.methodcaller("conjugate"), "({}).conjugate()"),
}
_BINARY = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
           "lshift", "rshift")
_COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")
_UNARY = ("neg", "pos", "abs", "invert")


def _example(atom):
    """A Python number of `atom`'s type: its value where that cannot fail (not a zero
    divisor), so `k ** -1` is typed a float as Python computes it."""
    if isinstance(atom, Literal) and is_python_number(atom.value) and atom.value != 0:
        return atom.value
    return python_type(atom.aval)(1)


def _python_op_rule(*atoms, op):
    function = PYTHON_OPS[op][0]
    try:
        result = function(*[_example(a) for a in atoms])
    except ZeroDivisionError:  # 0 ** -1 with a literal base
        result = function(*[python_type(a.aval)(1) for a in atoms])
    return python_aval(result)


python_op_p = primitives.define(
    "python_op", _python_op_rule, lambda xp, op: PYTHON_OPS[op][0])


def _emit_python_op(gen, eqn, refs, outs, indent):
    refs = [f"({ref})" if ref.startswith("-") else ref for ref in refs]  # (-1) ** k
    template = PYTHON_OPS[eqn.params["op"]][1]
    if template is None:
        kernel = gen.global_name(PYTHON_OPS[eqn.params["op"]][0], "k")
        return gen.emit(indent, f"{outs[0]} = {kernel}({', '.join(refs)})", eqn)
    gen.emit(indent, f"{outs[0]} = {template.format(*refs)}", eqn)


primitives.emitters[python_op_p] = _emit_python_op
primitives.inline_expressions[python_op_p] = lambda eqn: (
    lambda gen, refs: PYTHON_OPS[eqn.params["op"]][1].format(*refs)) \
    if eqn.params["op"] in _COMPARISONS else None   # Python's comparisons never raise


def _from_python_kernel(xp, dtype, exact=False):
    if exact:  # where a branch or a loop joined it with a NumPy value
        return weak_joins.exact_conversion(xp, dtype)
    return lambda value: xp.asarray(value, dtype=dtype)[()]


from_python_p = primitives.define(
    "from_python", lambda x, dtype, exact=False: AbstractValue((), dtype), _from_python_kernel)
# a Python number lives on the host: on Dask too it becomes a NumPy scalar
DASK_OVERRIDES[from_python_p] = lambda xp, **params: _from_python_kernel(np, **params)


def python_op(op: str, *operands):
    """`op` (a key of `PYTHON_OPS`) on Python numbers, traced or not: a weak value."""
    if op == "pow" and all(_int_typed(x) for x in operands) and isinstance(operands[1], Tracer):
        op = "int_pow"  # `k ** e`: an int unless e < 0, which only the run knows
    return bind(python_op_p, *operands, op=op)


def _int_typed(x) -> bool:
    return (python_type(x.aval) if isinstance(x, Tracer) else type(x)) in (int, bool)


def conversion(aval: AbstractValue, exact: bool = False) -> tuple:
    """`(primitive, params)` converting a weak value to type `aval`: a Python number of
    another kind (`float(k)`; `+b` makes a bool an int), or a NumPy scalar (`from_python`;
    `exact`: an error when the graph runs where the value would change)."""
    if aval.weak:
        kind = python_type(aval).__name__
        return python_op_p, {"op": kind if kind in PYTHON_OPS else "pos"}
    return from_python_p, {"dtype": np.dtype(aval.dtype), **({"exact": True} if exact else {})}


def convert_weak(x, aval: AbstractValue):
    """The Python number `x` (weak traced, or not) as a value of type `aval`, converted
    when the graph runs (itself where it has that type)."""
    if (x.aval if isinstance(x, Tracer) else python_aval(x)) == aval:
        return x
    prim, params = conversion(aval)
    return bind(prim, x, **params)


def weak_constant(value):
    """The Python number `value` as a traced value of the current graph: weak, a Python
    number again when the graph runs (a loop counter that must be traced, say)."""
    builder = current_builder()
    return convert_weak(Tracer(builder, builder.const(np.asarray(value))), python_aval(value))


def python_number_output(expr: str, aval: AbstractValue, xp, global_name) -> str:
    """The expression a graph function returns for its output `expr`: a Python number
    (weak) as a 0-d array of its dtype, as every traced value is returned (an int
    beyond int64 raises NumPy's `OverflowError` rather than wrapping); a 0-d string
    as Python's `str` (`"neg"` chosen by a staged `if`), which eager code holds."""
    if aval.ndim == 0 and aval.dtype.kind in "UST":   # a text: Python's str (bytes)
        return f"{global_name(_text, 'text')}({expr})"
    if not aval.weak:
        return expr
    return f"{global_name(_as_array(xp, aval.dtype), 'py')}({expr})"


def _text(value):
    """A 0-d string result as the `str` (or `bytes`) eager code holds, not a 0-d array."""
    return value.item()


def _as_array(xp, dtype):
    """A function making a Python number a 0-d array of `dtype` (0.3 µs a call: a
    closure, not a `functools.partial`, which costs 0.3 µs more); a Python int that
    no int64 holds stays the int (eager code's exact value)."""
    asarray = xp.asarray

    def convert(value):
        try:
            return asarray(value, dtype)
        except OverflowError:   # a Python int beyond int64: the int itself, as eager code has
            return value
    return convert


def all_python_numbers(*operands) -> bool:
    """True where every operand is a Python number, or a weak traced one."""
    return all(x.aval.weak if isinstance(x, Tracer) else is_python_number(x) for x in operands)


# -- the operators of a weak Tracer: Python's where all operands are Python numbers --------
def _install_binary(name):
    numpy_method = getattr(Tracer, f"__{name}__")
    reflected = getattr(Tracer, f"__r{name}__", None)
    rule = functools.partial(_python_op_rule, op=name)

    def method(self, other):
        if all_python_numbers(self, other) or _complex_takes_float(self, other, name):
            return python_op(name, self, other)
        return _noting_python_paths(numpy_method(self, other), (self, other), rule)
    tracer_method(f"__{name}__")(method)
    if name not in _COMPARISONS:
        def rmethod(self, other):
            if all_python_numbers(self, other) or _complex_takes_float(other, self, name):
                return python_op(name, other, self)
            return _noting_python_paths(reflected(self, other), (other, self), rule)
        tracer_method(f"__r{name}__")(rmethod)
        in_place = getattr(Tracer, f"__i{name}__")

        def imethod(self, other):  # a Python number is immutable: `k += 1` rebinds k
            if all_python_numbers(self, other) or _complex_takes_float(self, other, name):
                return python_op(name, self, other)
            return _noting_python_paths(in_place(self, other), (self, other), rule)
        tracer_method(f"__i{name}__")(imethod)


def _complex_takes_float(left, right, op) -> bool:
    """Python's `complex + np.float64(...)` is a Python complex: np.float64 subclasses
    float, which complex's own operators take (only `complex` on the left; a float64
    on the left, or any other NumPy type, gives NumPy's complex128)."""
    if op in _COMPARISONS:
        return False
    if not (type(left) is complex or isinstance(left, Tracer) and left.aval.weak
            and python_type(left.aval) is complex):
        return False
    if isinstance(right, Tracer):
        return (right.aval.dtype == np.float64 and not right.aval.weak and right.ndim == 0
                and right.node.id not in right.builder.maybe_arrays)
    return type(right) is np.float64


def _install_unary(name):
    numpy_method = getattr(Tracer, f"__{name}__")
    rule = functools.partial(_python_op_rule, op=name)

    def method(self):
        if self.aval.weak:
            return python_op(name, self)
        return _noting_python_paths(numpy_method(self), (self,), rule)
    tracer_method(f"__{name}__")(method)


def _noting_python_paths(result, operands, rule):
    """`result`, remembered as a Python number on the paths where its operands are
    (`runtime.weak_joins`)."""
    if isinstance(result, Tracer) and result.builder.joined_weak:
        weak_joins.mark_python_result(result, operands, rule)
    return result


def _divmod(numpy_divmod, reflected=False):
    """`divmod` (`reflected`: `__rdivmod__`) as Python's own on Python numbers."""
    def method(self, other):
        if all_python_numbers(self, other):
            a, b = (other, self) if reflected else (self, other)
            return python_op("floordiv", a, b), python_op("mod", a, b)
        return numpy_divmod(self, other)
    return method


for _name in _BINARY + _COMPARISONS:
    _install_binary(_name)
for _name in _UNARY:
    _install_unary(_name)
tracer_method("__divmod__")(_divmod(Tracer.__divmod__))
tracer_method("__rdivmod__")(_divmod(Tracer.__rdivmod__, reflected=True))
del _name
