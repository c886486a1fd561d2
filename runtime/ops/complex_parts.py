"""`np.real`, `np.imag` and the ndarray attributes `.real`, `.imag`, `.conjugate()`, `.conj()`.

`real` and `imag` are primitives (NumPy's functions, not ufuncs): of a complex
array, its parts as floats of the same width; of a real one, itself and zeros.
Both are views, as in NumPy: a write to the array is seen by the `real` of a
real array (`runtime.views.SAME`); the parts of a complex array, and the
read-only zeros of a real one, are views the graph does not follow, so writing
them or, while they are used, the array is a `TracingError`.
`x.conjugate()` is the `np.conjugate` ufunc (of a real array, the array itself,
as NumPy returns it). Their gradients (autodiff/rules_other.py)
follow the project's convention for real-valued functions: `real` passes the
cotangent through, `imag` of a real array has none.
"""
from __future__ import annotations

import numpy as np

from .. import primitives, views
from ..abstract import AbstractValue, python_type
from ..dispatch import implements
from ..tracer import bind
from ..tracer_value import Tracer, tracer_method
from .python_numbers import python_op
from .shape_ops import operand


def _part_rule(part):
    def rule(x):
        return AbstractValue(x.aval.shape, part(np.zeros((), x.aval.dtype)).dtype)
    return rule


real_p = primitives.define("real", _part_rule(np.real), lambda xp: xp.real, views=True)
imag_p = primitives.define("imag", _part_rule(np.imag), lambda xp: xp.imag, views=True)
views.view_rules.update({  # of a real array, `real` is the array itself; the other parts
    real_p: lambda x: None if x.dtype.kind == "c" else views.SAME,   # are strided views
    imag_p: lambda x: None})  # of its memory, or read-only zeros: writing either is refused


@implements(np.real)
def real(x):
    """`np.real(x)`, `x.real`: of a Python number (weak), Python's own (`(1+2j).real`
    is the Python float 1.0, as NumPy returns it)."""
    if isinstance(x, Tracer) and x.aval.weak:
        return python_op("real", x)
    return bind(real_p, operand(x))


@implements(np.imag)
def imag(x):
    if isinstance(x, Tracer) and x.aval.weak:
        return python_op("imag", x)
    return bind(imag_p, operand(x))


tracer_method("real")(property(real))
tracer_method("imag")(property(imag))


@tracer_method("conjugate")
def conjugate(self):
    """`x.conjugate()`: `np.conjugate` of a complex array; a real one is returned itself;
    a Python number's is Python's (a Python complex, or the number itself)."""
    if self.aval.weak:
        return python_op("conjugate", self)
    return np.conjugate(self) if self.dtype.kind == "c" else self


def _conj(self):
    """`x.conj`: `x.conjugate`; a Python number has no `conj` (`hasattr` is False)."""
    if self.aval.weak:
        raise AttributeError(f"'{python_type(self.aval).__name__}' object has no attribute "
                             f"'conj'")
    return lambda: conjugate(self)


tracer_method("conj")(property(_conj))
