"""Hypothesis strategies for inputs that match `TensorSpec`s (Hypothesis is a test dependency).

`arrays(spec)` draws NumPy arrays of the spec's dtype and shape, each unknown
(None) dimension between `min_side` and `max_side`; a structure of specs
(list, tuple, dict) draws the same structure of arrays. Elements are small
and finite by default (`default_elements`).

>>> from hypothesis import find
>>> find(arrays(TensorSpec((None, 3), np.float32)), lambda a: a.shape[0] == 2).shape
(2, 3)
>>> find(arrays([TensorSpec((), np.int64), 7]), lambda args: args[0] > 2)
[array(3), 7]
"""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from autograph_runtime.tree import flatten

from ..specs import TensorSpec

BOUND = 10  # default elements lie in [-BOUND, BOUND]


def default_elements(dtype) -> st.SearchStrategy:
    """Small finite values of `dtype`: booleans, integers and floats in [-10, 10]."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return st.integers(max(info.min, -BOUND), min(info.max, BOUND))
    if dtype.kind == "f":
        return st.floats(-BOUND, BOUND, width=min(8 * dtype.itemsize, 64))
    if dtype.kind == "c":
        return st.complex_numbers(max_magnitude=BOUND, width=min(8 * dtype.itemsize, 128))
    return hnp.from_dtype(dtype)


def _array(spec: TensorSpec, elements, min_side: int, max_side: int):
    shape = st.tuples(*(st.just(d) if d is not None else st.integers(min_side, max_side)
                        for d in spec.shape))
    values = elements if elements is not None else default_elements(spec.dtype)
    return shape.flatmap(lambda s: hnp.arrays(spec.dtype, s, elements=values))


def arrays(spec, *, elements: st.SearchStrategy | None = None, min_side: int = 1,
           max_side: int = 4) -> st.SearchStrategy:
    """Arrays matching `spec` (a `TensorSpec`, or a structure of specs and fixed values).

    Args:
      spec: the spec; in a structure, leaves that are not specs are drawn as they are.
      elements: the strategy of every element (default: `default_elements(dtype)`);
        it must give values the dtype holds exactly (`st.floats(0, 1, width=32)` for
        float32).
      min_side, max_side: the bounds of each unknown dimension.
    """
    leaves, tree = flatten(spec, is_leaf=lambda x: isinstance(x, TensorSpec))
    parts = [_array(x, elements, min_side, max_side) if isinstance(x, TensorSpec)
             else st.just(x) for x in leaves]
    if len(parts) == 1 and isinstance(spec, TensorSpec):
        return parts[0]
    return st.tuples(*parts).map(tree.unflatten)
