"""Functions the generated Numba code calls that choose by Numba type (imported only
where Numba is: by the generated code, in memory or from the disk cache).

`blas_operand(x)`: `x` itself where BLAS reads it as it is (C- or F-contiguous,
so `x.T` of a C array is not copied), a C-contiguous copy otherwise (a strided
view); Numba decides when it compiles, from `x`'s layout.
"""
from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload


def blas_operand(x):
    return np.ascontiguousarray(x)


@overload(blas_operand)
def _blas_operand(x):
    if isinstance(x, types.Array) and x.layout in ("C", "F"):
        return lambda x: x
    return lambda x: np.ascontiguousarray(x)
