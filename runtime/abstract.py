"""Abstract values: what the tracer knows about an array without its data.

An `AbstractValue` is a dtype and a shape whose dimensions are ints or `None`
(unknown until run time, as after a boolean mask or a loop that grows a value).

>>> av = AbstractValue((None, 5), np.float32)
>>> av
f32[?,5]
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
    """The type of a graph value: dtype plus shape, unknown dimensions as None."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: Shape, dtype):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = np.dtype(dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def fully_known(self) -> bool:
        return None not in self.shape

    def accepts(self, other: "AbstractValue") -> bool:
        """True where every value of type `other` is also of this type."""
        return (self.dtype == other.dtype and self.ndim == other.ndim
                and all(a is None or a == b for a, b in zip(self.shape, other.shape)))

    def __eq__(self, other):
        return (type(other) is type(self) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __repr__(self):
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"{short_dtype(self.dtype)}[{dims}]"


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


def broadcast_shapes(*shapes: Shape) -> Shape:
    """NumPy broadcasting over shapes that may hold unknown (None) dimensions."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for shape in shapes:
        for i, dim in enumerate(shape, ndim - len(shape)):
            try:
                out[i] = _broadcast_dim(out[i], dim)
            except ValueError:
                pretty = " ".join(str(tuple("?" if d is None else d for d in s))
                                  for s in shapes)
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
