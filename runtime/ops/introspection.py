"""NumPy functions that only read what tracing already knows: ndim, shape, size."""
from __future__ import annotations

import numpy as np

from ..dispatch import implements


@implements(np.ndim)
def ndim(a):
    return a.ndim


@implements(np.shape)
def shape(a):
    return a.shape


@implements(np.size)
def size(a, axis=None):
    return a.size if axis is None else a.shape[axis]
