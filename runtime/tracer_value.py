"""`Tracer`: a symbolic array that records what is done to it.

Operators and methods go through NumPy's own protocols (`__array_ufunc__`,
`__array_function__`), so `x + 1`, `np.add(x, 1)` and `x.sum()` all reach the
same handlers in `runtime.dispatch`. Using a traced value where Python needs a
concrete one (`bool(x)`, `int(x)`, `np.asarray(x)`) raises `TracingError`.
"""
from __future__ import annotations

import sys

import numpy as np

from . import dispatch, views
from .errors import TracingError, UnhashableTracedValue
from .hints import hint
from .ir import Var
from .source import (called_by_user, is_user_file, location_note, numpy_caller, user_frame,
                     user_source)
from .texts import FormattedText, formatting_user_values


def _concrete_needed(tracer, what: str, situation: str = "") -> TracingError:
    """The error for `tracer` used as `what`, with the hint for `situation` (runtime.hints)."""
    name = tracer.node.name
    subject = f"traced value {name!r} ({tracer.aval})" if name else \
        f"a traced value ({tracer.aval})"
    source, converted = user_frame()
    text = hint(situation, converted, source.function if source else "",
                numpy_caller() or "NumPy") if situation else ""
    return TracingError(
        f"{subject} is known only when the graph runs, so it cannot be used as "
        f"{what}{location_note(source)}" + (f"; {text}" if text else ""))


class Tracer:
    """A value of a graph being traced: `builder` records it, `node` is its `Var`.

    A NumPy view of another Tracer (`x[1:]`, `x.T`) holds how (`viewing`, a
    `runtime.views.View`); a Tracer with views holds weak references to them
    (`views`), so that a write in place reaches every value sharing its memory.
    """

    __slots__ = ("builder", "node", "viewing", "views", "__weakref__")
    __array_priority__ = 1000

    def __hash__(self):   # unhashable, like ndarray; Python's TypeError, saying why
        error = UnhashableTracedValue if self.ndim == 0 else TypeError   # a refusal, or eager's
        raise error(f"unhashable type: 'Tracer' ("
                    f"{_concrete_needed(self, 'a dict key or a set member')})")

    def __init__(self, builder, node):
        self.builder = builder
        self.node = node
        self.viewing = None
        self.views = None

    # -- what is known statically --------------------------------------------
    @property
    def aval(self):
        return self.node.aval

    @property
    def shape(self):
        """The shape; unknown dimensions are None (`runtime.dynamic_shape` traces them).

        Reading a shape with an unknown dimension is noted on the trace's root
        builder (`read_unknown_dims`): a caller that made dimensions unknown on
        its own (`reduce_retracing`) then knows the Python code may depend on them.
        """
        shape = self.node.aval.shape
        if None in shape:
            self.builder.note_unknown_dim_read()
        return shape

    @property
    def dtype(self):
        return self.node.aval.dtype

    @property
    def ndim(self):
        return len(self.node.aval.shape)

    @property
    def size(self):
        shape = self.node.aval.shape
        if None in shape:
            raise _concrete_needed(self, "a Python int (.size of an unknown shape)", "size")
        return int(np.prod(shape, dtype=np.int64))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        if self.shape[0] is None:
            raise _concrete_needed(self, "a Python int (len() of an unknown dimension)",
                                   "length")
        return self.shape[0]

    def __repr__(self):   # `str([x, y])` in the user's code: eager's text is the values'
        return self._text("a Python string (repr(), str() of a list)")

    def __str__(self):   # `"%s" % x` in the user's code: the text eager code has is a value's
        return self._text("a Python string (str(), %-formatting)")

    def __format__(self, spec):   # `"{}".format(x)`; converted f-strings are staged instead
        return format(self._text("a Python string (str.format)"), spec)

    def _text(self, what: str) -> str:
        """This Tracer's own description, for the library's messages; asked for by the
        user's code (the caller's caller), a `TracingError`: eager's text is the value's."""
        if is_user_file(sys._getframe(2).f_code.co_filename) or formatting_user_values():
            raise _concrete_needed(self, what, "text")
        return f"Tracer({self.node.name or '_'}:{self.aval})"

    # -- NumPy protocols -------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return dispatch.call_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return dispatch.call_array_function(func, args, kwargs)

    def __array__(self, dtype=None, copy=None):
        raise _concrete_needed(self, "a NumPy array (np.asarray/np.array)", "array")

    # -- places Python needs a concrete value ----------------------------------
    def __bool__(self):
        raise _concrete_needed(self, "a Python bool (if/while/and/or)", "bool")

    def __index__(self):
        raise _concrete_needed(self, "a Python int (an index or range bound)")

    def __int__(self):
        raise _concrete_needed(self, "a Python int")

    def __float__(self):
        raise _concrete_needed(self, "a Python float")

    def __complex__(self):
        raise _concrete_needed(self, "a Python complex")

    def item(self, *args):
        raise _concrete_needed(self, "a Python scalar (.item())")

    def tolist(self):
        raise _concrete_needed(self, "a Python list (.tolist())")

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(len(self)))

    # -- array methods ---------------------------------------------------------
    # `__getitem__`, `__setitem__` and `astype` are installed by the ops that implement
    # them (runtime/ops/indexing.py, updates.py, creation.py), with `tracer_method`.

    @property
    def T(self):
        return np.transpose(self)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return _user_s(np.reshape(self, tuple(shape), order=order), self)

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = axes[0]
        return np.transpose(self, axes or None)

    def copy(self, order="C"):
        return np.copy(self, order=order)

    def ravel(self):
        return np.ravel(self)

    def flatten(self, order="C"):
        return np.copy(np.ravel(self, order))   # always a copy, unlike ravel

    def squeeze(self, axis=None):
        return _user_s(np.squeeze(self, axis), self)

    # Reductions and scans take ndarray's own signatures: NumPy's function of
    # the same name has them after its first argument.
    def sum(self, *args, **kwargs):
        return np.sum(self, *args, **kwargs)

    def prod(self, *args, **kwargs):
        return np.prod(self, *args, **kwargs)

    def mean(self, *args, **kwargs):
        return np.mean(self, *args, **kwargs)

    def std(self, *args, **kwargs):
        return np.std(self, *args, **kwargs)

    def var(self, *args, **kwargs):
        return np.var(self, *args, **kwargs)

    def max(self, *args, **kwargs):
        return np.max(self, *args, **kwargs)

    def min(self, *args, **kwargs):
        return np.min(self, *args, **kwargs)

    def argmax(self, *args, **kwargs):
        return np.argmax(self, *args, **kwargs)

    def argmin(self, *args, **kwargs):
        return np.argmin(self, *args, **kwargs)

    def any(self, *args, **kwargs):
        return np.any(self, *args, **kwargs)

    def all(self, *args, **kwargs):
        return np.all(self, *args, **kwargs)

    def cumsum(self, *args, **kwargs):
        return np.cumsum(self, *args, **kwargs)

    def cumprod(self, *args, **kwargs):
        return np.cumprod(self, *args, **kwargs)

    def clip(self, min=None, max=None):
        return np.clip(self, min, max)

    def dot(self, other):
        return np.dot(self, other)

    def sort(self, axis=-1, kind=None, order=None):
        """`x.sort()`: x is rewritten to `np.sort(x)` (see `write_in_place`)."""
        if order is not None:
            raise TracingError(f"x.sort(order=...) is not supported on traced values"
                               f"{location_note(user_source())}")
        write_in_place(self, np.sort(self, axis=axis), "sort")

    def fill(self, value):
        """`x.fill(v)`: x is rewritten to v broadcast to its shape, cast to its dtype."""
        write_in_place(self, np.full_like(self, value), "fill")

    def argsort(self, axis=-1):
        return np.argsort(self, axis=axis)


def zero_d_array(result, operands=()):
    """`result`, where it is a 0-d traced value, noted as the 0-d array eager NumPy holds
    (`GraphBuilder.maybe_arrays`); one of `operands` itself (a NumPy scalar passed
    through) is copied first, so that the operand stays a scalar. Made by a view's
    primitive from the traced `operands[0]` (`x.reshape(())`, `np.squeeze(x)`,
    `x[..., 0]`), it is linked as NumPy's 0-d view of it (`runtime.views`): `+=` on it
    writes `x`. (The tracer links no 0-d result: the runtime's own 0-d reshapes are
    NumPy scalars to the user.)"""
    if not isinstance(result, Tracer) or result.ndim or result.aval.weak or \
            result.node.id in result.builder.maybe_arrays:
        return result
    if any(result is a for a in operands):
        result = np.copy(result)
    builder = result.builder
    builder.maybe_arrays.add(result.node.id)
    base = operands[0] if operands else None
    eqn = builder.eqns[-1] if builder.eqns else None
    if isinstance(base, Tracer) and base.builder is builder and eqn is not None and \
            eqn.outputs[0] is result.node and eqn.primitive.views and \
            eqn.inputs[0] is base.node and eqn.primitive in views.view_rules:
        rule = views.view_rules[eqn.primitive]
        extra = [Tracer(builder, a) if isinstance(a, Var) else a.value for a in eqn.inputs[1:]]
        how = rule(base, *extra, **eqn.params)
        if how is not views.COPY:
            builder.shares_memory.update([base.node.id, result.node.id])
            views.link(result, base, how)
    return result




dispatch.zero_d_array = zero_d_array


def _user_s(result, base):
    """A method's 0-d view of `base` (`x.reshape(())`), called by the user's code: the 0-d
    array eager NumPy gives (`dispatch.zero_d_array`), which `+=` writes through."""
    if called_by_user(2):
        return zero_d_array(result, (base,))
    return result


def _binary(ufunc, reflected=False):
    if reflected:
        return lambda self, other: ufunc(other, self)
    return lambda self, other: ufunc(self, other)


_BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
    "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power,
    "matmul": np.matmul, "and": np.bitwise_and, "or": np.bitwise_or,
    "xor": np.bitwise_xor, "lshift": np.left_shift, "rshift": np.right_shift,
    "divmod": np.divmod,
}
for _name, _ufunc in _BINARY.items():
    setattr(Tracer, f"__{_name}__", _binary(_ufunc))
    setattr(Tracer, f"__r{_name}__", _binary(_ufunc, reflected=True))


def _repeating(multiply):
    """`multiply`, but a str times a traced int is the str repeated (`"*" * n`), a text
    formatted when the graph runs, as eagerly (NumPy would multiply a string array)."""
    def apply(self, other):
        if type(other) is str and self.ndim == 0 and self.dtype.kind in "iu":
            return FormattedText(((0, ("repeat", other), ""),), [self])
        return multiply(self, other)
    return apply


Tracer.__mul__, Tracer.__rmul__ = _repeating(Tracer.__mul__), _repeating(Tracer.__rmul__)
def _in_place(ufunc):
    """`x op= y`: NumPy keeps x's dtype and shape (casting "same_kind") and writes into x.

    A 0-d NumPy scalar (`x[0]`, `x.sum()`, a scalar argument) is immutable:
    `s += y` rebinds s to `s + y` with full NumPy promotion (an int8 `s` plus
    `np.int64(300)` is an int64 301), as eager NumPy does; a 0-d array (an
    argument, a constant) is cast in place like any array (int8 45).
    """
    def apply(self, other):
        result = ufunc(self, other)
        if self.ndim == 0 and not _maybe_array(self):
            return result
        return write_in_place(self, result, ufunc.__name__, ufunc, other, rebinds=True)
    return apply


def _maybe_array(x) -> bool:
    """True for a 0-d value that may be a 0-d array rather than a NumPy scalar: a
    root graph's input not keyed as a scalar, a constant, or what one of those is
    passed on as (`GraphBuilder.maybe_arrays`); values computed in the graph
    (`x[0]`, `x.sum()`) are NumPy scalars."""
    return x.node.id in x.builder.maybe_arrays


def write_in_place(target, result, what, ufunc=None, other=None, rebinds=False):
    """Makes the traced `target` hold `result`, as NumPy writes an array in place.

    `result` is cast to target's dtype (NumPy's "same_kind" rule for ufuncs, with
    NumPy's own error) and must have its shape. The traced value then holds the
    result, so every name bound to it sees the change, as with an array; a view
    writes its base, and the base's other views follow (`runtime.views.write`;
    `TracingError` where the sharing cannot be followed). A value of an
    enclosing graph that the staged block carries (an input stands for it)
    has that input written; one it does not carry is not rewritten: `x op= y`
    returns the result, rebinding x (a converted staged block carries x as its
    state), and other writes (`np.add(a, b, out=x)`, `x.fill(v)`) raise
    `runtime.views.CarryNeeded`, to trace the block again carrying x's memory.
    Returns target (or the value written or returned).
    """
    if result.shape != target.shape and None not in result.shape + target.shape:
        raise ValueError(f"non-broadcastable output operand with shape {target.shape} "
                         f"doesn't match the broadcast shape {result.shape}")
    if result.dtype != target.dtype:
        if ufunc is not None:
            _check_in_place_cast(ufunc, target, other)
        result = result.astype(target.dtype)
    if target.builder is not result.builder:
        inner = views.inner_version(result.builder, target) if result.builder.stand_ins \
            else None
        if inner is not None:  # the block carries it: its input is written
            views.write(inner, result, what)
            return inner
        if rebinds:
            return result
        refusal = result.builder.caller_write_error(target, f"`{what}`")
        if refusal is not None:
            raise refusal
        raise views.CarryNeeded(views.root_of(target), result.builder, TracingError(
            f"in-place `{what}` on a value from outside the staged block"
            f"{location_note(user_source())}: it would be written once, while tracing; "
            f"assign the result to the variable instead"))
    views.write(target, result, what)
    return target


dispatch.out_writer = write_in_place
dispatch.is_traced = lambda x: isinstance(x, Tracer)


def _check_in_place_cast(ufunc, target, other):
    """Raises NumPy's own error where it would refuse to write the result into `target`."""
    out = np.ones((), target.dtype)
    value = np.ones((), other.dtype) if hasattr(other, "dtype") else other
    with np.errstate(all="ignore"):
        if ufunc.nin == 1:
            ufunc(value, out=out)
        else:
            ufunc(out, value, out=out)


def _pow(self, other):
    """`x ** 2` is `np.square(x)`, as ndarray computes it (int8 for bool, not int64)."""
    if type(other) is int and other == 2:
        return np.square(self)
    return np.power(self, other)


Tracer.__pow__ = _pow
for _name, _ufunc in _BINARY.items():
    if _name != "divmod":
        setattr(Tracer, f"__i{_name}__", _in_place(_ufunc))
for _name, _ufunc in {"lt": np.less, "le": np.less_equal, "gt": np.greater,
                      "ge": np.greater_equal, "eq": np.equal, "ne": np.not_equal}.items():
    setattr(Tracer, f"__{_name}__", _binary(_ufunc))
for _name, _ufunc in {"neg": np.negative, "pos": np.positive, "abs": np.absolute,
                      "invert": np.invert}.items():
    setattr(Tracer, f"__{_name}__", lambda self, _ufunc=_ufunc: _ufunc(self))
del _name, _ufunc


def tracer_method(name: str):
    """Installs the decorated function as `Tracer.<name>`.

    The ops that implement a method register it when they are imported
    (`Tracer.__getitem__` by runtime/ops/indexing.py, `Tracer.astype` by
    runtime/ops/creation.py), so this module imports no op.
    """
    def install(method):
        setattr(Tracer, name, method)
        return method
    return install
