"""Functions the generated Numba code calls that choose by Numba type (imported only
where Numba is: by the generated code, in memory or from the disk cache).

`blas_operand(x)`: `x` itself where BLAS reads it as it is (C- or F-contiguous,
so `x.T` of a C array is not copied), a C-contiguous copy otherwise (a strided
view); Numba decides when it compiles, from `x`'s layout.

`call_numpy(kernel, shape, dtype, *operands)`: `(kernel(*operands) as a C-ordered
array, True)`, called from a `numba.objmode` block (`numpy_kernels`); `(an empty
array, False)`, which deopts, where NumPy raises, meets a floating-point error
(overflow, division by zero, invalid; underflow as the caller's `np.errstate`
says), or returns another shape or dtype than the graph's.
"""
from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload


def call_numpy(kernel, shape, dtype, *operands):
    try:
        with np.errstate(over="raise", divide="raise", invalid="raise"):
            out = kernel(*operands)
    except Exception:  # noqa: BLE001 - NumPy's warning or error comes from the NumPy tier
        return np.empty((0,) * len(shape), dtype), False
    if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != dtype:
        return np.empty((0,) * len(shape), dtype), False
    return np.ascontiguousarray(out), True


def blas_operand(x):
    return np.ascontiguousarray(x)


@overload(blas_operand)
def _blas_operand(x):
    if isinstance(x, types.Array) and x.layout in ("C", "F"):
        return lambda x: x
    return lambda x: np.ascontiguousarray(x)
