"""Abstract values: what the tracer knows about an array without its data.

An `AbstractValue` is a dtype and a shape whose dimensions are ints or `None`
(unknown until run time, as after a boolean mask or a loop that grows a value).
A *weak* value is a Python number the graph computes (a counter carried by a
staged loop, a branch's `0.5`): it is a Python `bool`, `int`, `float` or
`complex` when the graph runs, so NumPy promotes it as NEP 50 says (an int8
array times it is int8), and its dtype is nominal (`i64` for any int), as
JAX's `weak_type`.

>>> av = AbstractValue((None, 5), np.float32)
>>> av
f32[?,5]
>>> python_aval(3)
i64[]~weak
>>> broadcast_shapes((None, 1), (3, 4))
(3, 4)
"""
from __future__ import annotations

import numpy as np

Shape = tuple  # of int | None

_SHORT = {
    "float16": "f16", "float32": "f32", "float64": "f64", "longdouble": "f128",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "bool": "bool", "complex64": "c64", "complex128": "c128",
}


def short_dtype(dtype: np.dtype) -> str:
    """`float32` -> `f32`; dtypes without a short name keep their own."""
    return _SHORT.get(np.dtype(dtype).name, np.dtype(dtype).name)


class AbstractValue:
    """The type of a graph value: dtype plus shape, unknown dimensions as None.

    `weak` marks a Python number (0-d; see the module docstring).
    """

    __slots__ = ("shape", "dtype", "weak")

    def __init__(self, shape: Shape, dtype, weak: bool = False):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.weak = weak

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def fully_known(self) -> bool:
        return None not in self.shape

    def accepts(self, other: "AbstractValue") -> bool:
        """True where every value of type `other` is also of this type."""
        return (self.dtype == other.dtype and self.weak == other.weak and self.ndim == other.ndim
                and all(a is None or a == b for a, b in zip(self.shape, other.shape)))

    def __eq__(self, other):
        return (type(other) is type(self) and self.shape == other.shape
                and self.dtype == other.dtype and self.weak == other.weak)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak))

    def __repr__(self):
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"{short_dtype(self.dtype)}[{dims}]{'~weak' if self.weak else ''}"


class ResourceType(AbstractValue):
    """The type of a `Variable`'s handle in a graph; it prints as its value's type.

    >>> ResourceType((3,), np.float32)
    ref f32[3]
    """

    __slots__ = ()

    @property
    def value_type(self) -> AbstractValue:
        """The type of the values read from (and written to) the variable."""
        return AbstractValue(self.shape, self.dtype)

    def accepts(self, other: AbstractValue) -> bool:
        return isinstance(other, ResourceType) and super().accepts(other)

    def __hash__(self):
        return hash(("ref", self.shape, self.dtype))

    def __repr__(self):
        return f"ref {super().__repr__()}"


# A Python number's type -> the nominal dtype of its weak abstract value.
PYTHON_DTYPES = {bool: np.dtype(bool), int: np.dtype(np.int64),
                 float: np.dtype(np.float64), complex: np.dtype(np.complex128)}
_PYTHON_TYPES = {dtype: kind for kind, dtype in PYTHON_DTYPES.items()}


def is_python_number(value) -> bool:
    """True for a Python bool, int, float or complex (not a subclass such as np.float64)."""
    return type(value) in PYTHON_DTYPES


def python_aval(value) -> AbstractValue:
    """The weak abstract value of a Python number (any int is `i64[]~weak`)."""
    return AbstractValue((), PYTHON_DTYPES[type(value)], weak=True)


def python_type(aval: AbstractValue) -> type:
    """The Python type a weak value has when the graph runs (`int` for `i64[]~weak`)."""
    return _PYTHON_TYPES[aval.dtype]


def python_example(aval: AbstractValue):
    """A Python number of a weak value's type, for computing dtypes by example."""
    return python_type(aval)(1)


def join_weak(a: AbstractValue, b: AbstractValue) -> AbstractValue | None:
    """The type that holds a value of type `a` or `b` (shapes aside), or None.

    Two Python numbers join as Python promotes them (an int and a float: a
    float). A Python number and a NumPy value join as the NumPy value where
    NEP 50 lets its dtype absorb the number (an int with int8: int8; a float
    with float32: float32), as JAX joins a weak type with a strong one; None
    where it does not (a float with int8), and for two different NumPy dtypes.
    """
    if a.dtype == b.dtype and a.weak == b.weak:
        return a
    if a.weak and b.weak:
        return AbstractValue(a.shape, np.result_type(a.dtype, b.dtype), weak=True)
    weak, strong = (a, b) if a.weak else (b, a) if b.weak else (None, None)
    if weak is None or np.result_type(strong.dtype, python_example(weak)) != strong.dtype:
        return None
    return AbstractValue(strong.shape, strong.dtype)


def join_shapes(a: Shape, b: Shape) -> Shape:
    """The most specific shape both `a` and `b` fit; a rank change raises."""
    if len(a) != len(b):
        raise ValueError(f"rank changed from {len(a)} to {len(b)}")
    return tuple(x if x == y else None for x, y in zip(a, b))


def _broadcast_dim(x, y):
    if x == 1:
        return y
    if y == 1 or x == y:
        return x
    if x is None:
        return y  # an unknown dim broadcast against n > 1 must be 1 or n
    if y is None:
        return x
    raise ValueError(f"dimensions {x} and {y} do not broadcast")


def _numpy_shape_text(shape: Shape) -> str:
    """A shape as NumPy's broadcast error writes it: `(2,3)`, `(3,)` (`?`: unknown)."""
    dims = ["?" if d is None else str(d) for d in shape]
    return "(" + ",".join(dims) + ("," if len(dims) == 1 else "") + ")"


def broadcast_shapes(*shapes: Shape) -> Shape:
    """NumPy broadcasting over shapes that may hold unknown (None) dimensions."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for shape in shapes:
        for i, dim in enumerate(shape, ndim - len(shape)):
            try:
                out[i] = _broadcast_dim(out[i], dim)
            except ValueError:
                pretty = "".join(_numpy_shape_text(s) + " " for s in shapes)
                raise ValueError(
                    f"operands could not be broadcast together with shapes {pretty}"
                ) from None
    return tuple(out)


def normalize_axis(axis: int, ndim: int) -> int:
    """A possibly negative axis as a non-negative one, as NumPy checks it."""
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def normalize_axes(axis, ndim: int):
    """None, an int or a tuple of ints as a sorted tuple of axes (None: all)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(int(a), ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    return (normalize_axis(int(axis), ndim),)
