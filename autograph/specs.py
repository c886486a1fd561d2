"""`TensorSpec`: the description of an array input, and the SPEC strings of `agc`.

>>> TensorSpec((None, 5), np.float32)
TensorSpec(shape=(None, 5), dtype=float32)
>>> TensorSpec[np.float32, (None, 5)] == TensorSpec((None, 5), np.float32)
True
>>> parse_spec("int64[]"), parse_spec("py:3")
(TensorSpec(shape=(), dtype=int64), 3)
"""
from __future__ import annotations

import ast
import re

import numpy as np

from autograph_runtime import AbstractValue
from autograph_runtime.abstract import short_dtype


class TensorSpec:
    """An array input: a shape (None for an unknown dimension) and a dtype.

    Usable as a parameter annotation: `def f(x: TensorSpec[np.float32, (None, 5)])`.
    """

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype=np.float32, name: str | None = None):
        if isinstance(shape, int):
            shape = (shape,)
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.name = name

    def __class_getitem__(cls, item):
        if not (isinstance(item, tuple) and len(item) == 2):
            raise TypeError("use TensorSpec[dtype, shape], e.g. TensorSpec[np.float32, (None, 5)]")
        dtype, shape = item
        return cls(shape, dtype)

    @classmethod
    def from_value(cls, value) -> "TensorSpec":
        return cls(np.shape(value), np.result_type(value))

    @property
    def aval(self) -> AbstractValue:
        return AbstractValue(self.shape, self.dtype)

    def is_compatible_with(self, value) -> bool:
        """True where `value` (an array or spec) has this dtype and a fitting shape."""
        shape, dtype = np.shape(value) if not isinstance(value, TensorSpec) else value.shape, \
            getattr(value, "dtype", None)
        return (dtype == self.dtype and len(shape) == len(self.shape)
                and all(a is None or a == b for a, b in zip(self.shape, shape)))

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __repr__(self):
        name = f", name={self.name!r}" if self.name else ""
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype.name}{name})"


LONG_DTYPE_NAMES = {short_dtype(np.dtype(name)): name for name in (
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "uint32", "uint64", "bool", "complex64", "complex128")}
_SPEC = re.compile(r"^\s*([a-z]+[0-9]*)\s*\[\s*([^\]]*)\]\s*$")


def parse_spec(text: str):
    """A SPEC string as a `TensorSpec` (`float32[None,5]`, or as graphs print types:
    `f32[?,5]`) or a Python value (`py:3`)."""
    if text.startswith("py:"):
        try:
            return ast.literal_eval(text[3:])
        except (ValueError, SyntaxError):
            raise ValueError(f"malformed SPEC {text!r}: after 'py:' write a Python "
                             f"literal, like py:3 or py:'abc'") from None
    match = _SPEC.match(text)
    if not match:
        raise ValueError(f"malformed SPEC {text!r}: write DTYPE[DIMS] like float32[None,5] "
                         f"or int64[], or py:VALUE")
    dtype_name, dims = match.groups()
    try:
        dtype = np.dtype(LONG_DTYPE_NAMES.get(dtype_name, dtype_name))   # f64[3], as printed
    except TypeError:
        raise ValueError(f"malformed SPEC {text!r}: unknown dtype {dtype_name!r}") from None
    shape = []
    for dim in filter(None, (d.strip() for d in dims.split(","))):
        if dim in ("None", "?"):
            shape.append(None)
        elif dim.isdigit():
            shape.append(int(dim))
        else:
            raise ValueError(f"malformed SPEC {text!r}: dimension {dim!r} is neither an "
                             f"int nor None")
    return TensorSpec(tuple(shape), dtype)
