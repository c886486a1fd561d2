"""Vector-Jacobian rules of the run-time-size primitives (`runtime/ops/sizes.py`).

`full`: the fill value gets the cotangent summed down to its shape (the sizes, ints,
none). `arange` is `start + i * step`: start gets `sum(g)`, step `sum(g * i)`, stop
none (it only sets the length). `linspace` of 0-d `start` and `stop` is
`start + (stop - start) * t`, `t = i / div` (`div` = num - 1 with the endpoint, else
num; at least 1): start gets `sum(g * (1 - t))`, stop `sum(g * t)`; of array
`start`/`stop`, `TracingError`. `eye` has integer operands only.
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..errors import TracingError
from ..ops.building import arange_along
from ..ops.sizes import arange_p, eye_p, full_p, linspace_p
from .cotangents import sum_to_shape


def _full(g, out, fill, *dims, shape, dtype):
    return (sum_to_shape(g, fill.aval, fill),) + (None,) * len(dims)


def _arange(g, out, start, stop, step, *, dtype):
    i = arange_along(g, 0)
    return np.sum(g), None, np.sum(g * i)


def _linspace(g, out, start, stop, num, *, endpoint, axis, dtype):
    if np.ndim(start) or np.ndim(stop):
        raise TracingError("no gradient for np.linspace of array start or stop (only of "
                           "0-d ones)")
    div = np.maximum(num - 1 if endpoint else num, 1)
    t = arange_along(g, 0) / div
    return np.sum(g * (1 - t)), np.sum(g * t), None


def _eye(g, out, n, m, *, k, dtype):
    return None, None


primitives.vjp_rules.update({full_p: _full, arange_p: _arange, linspace_p: _linspace,
                             eye_p: _eye})
