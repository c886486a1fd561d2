"""What tracing knows statically (ndim, shape, size), and `dynamic_shape` for the rest.

`x.shape` of a traced value has `None` for a dimension unknown until run time,
as in `tf.function`; `dynamic_shape(x)` gives every dimension as a value:
a Python int where known, a traced int64 scalar where not (like `tf.shape`).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import primitives
from ..abstract import AbstractValue, normalize_axis
from ..dispatch import implements
from ..tracer import Tracer, bind


@implements(np.ndim)
def ndim(a):
    return a.ndim


@implements(np.shape)
def shape(a):
    return a.shape


@implements(np.size)
def size(a, axis=None):
    return a.size if axis is None else a.shape[axis]


dim_p = primitives.define(
    "dim", lambda x, axis: AbstractValue((), np.int64),
    lambda xp, axis: lambda x: np.int64(x.shape[axis]))


def dynamic_shape(x: Any) -> tuple:
    """The shape of `x`, with traced int64 scalars for dimensions unknown while tracing."""
    if not isinstance(x, Tracer):
        return np.shape(x)
    return tuple(d if d is not None else bind(dim_p, x, axis=normalize_axis(i, x.ndim))
                 for i, d in enumerate(x.shape))
