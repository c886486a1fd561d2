"""`np.real`, `np.imag` and the ndarray attributes `.real`, `.imag`, `.conjugate()`, `.conj()`.

`real` and `imag` are primitives (NumPy's functions, not ufuncs): of a complex
array, its parts as floats of the same width; of a real one, itself and zeros.
`x.conjugate()` is the `np.conjugate` ufunc (of a real array, the array itself,
as NumPy returns it). Their gradients (autodiff/rules_other.py)
follow the project's convention for real-valued functions: `real` passes the
cotangent through, `imag` of a real array has none.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import AbstractValue
from ..dispatch import implements
from ..tracer import bind
from ..tracer_value import tracer_method
from .shape_ops import operand


def _part_rule(part):
    def rule(x):
        return AbstractValue(x.aval.shape, part(np.zeros((), x.aval.dtype)).dtype)
    return rule


real_p = primitives.define("real", _part_rule(np.real), lambda xp: xp.real)
imag_p = primitives.define("imag", _part_rule(np.imag), lambda xp: xp.imag)


@implements(np.real)
def real(x):
    return bind(real_p, operand(x))


@implements(np.imag)
def imag(x):
    return bind(imag_p, operand(x))


tracer_method("real")(property(real))
tracer_method("imag")(property(imag))


@tracer_method("conjugate")
def conjugate(self):
    """`x.conjugate()`: `np.conjugate` of a complex array; a real one is returned itself."""
    return np.conjugate(self) if self.dtype.kind == "c" else self


tracer_method("conj")(conjugate)
