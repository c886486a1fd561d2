"""The inputs of a graph-equivalence check: fresh copies, and second inputs derived from the first.

The second inputs keep every dtype, shape and Python value of the first (so
the graph function must not trace again) and change every number in an array:

- floats and complex numbers are scaled by 0.75 (zeros become 0.125), which
  keeps signs and keeps values inside [0, 1] or [-1, 1];
- integers above 1 step down by one, the others up by one (an index stays in
  range for an axis of length 2 or more, a loop count stays positive);
- booleans are flipped.

>>> second_inputs((np.array([0.0, 2.0]), np.int64(5), 3), {"mask": np.array([True])})
((array([0.125, 1.5  ]), np.int64(4), 3), {'mask': array([False])})
"""
from __future__ import annotations

import numpy as np

from autograph_runtime.tree import flatten


def _is_array(x) -> bool:
    return isinstance(x, (np.ndarray, np.generic))


def copied(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """`(args, kwargs)` with every NumPy array copied, so a call cannot change the next one's."""
    leaves, tree = flatten((tuple(args), dict(kwargs)))
    return tree.unflatten([x.copy() if isinstance(x, np.ndarray) else x for x in leaves])


def has_arrays(args: tuple, kwargs: dict) -> bool:
    """True where some argument is a NumPy array or scalar (a graph input)."""
    return any(_is_array(x) for x in flatten((tuple(args), dict(kwargs)))[0])


def other_values(x):
    """`x` (a NumPy array or scalar) with the same dtype and shape and other values."""
    array = np.asarray(x)
    kind = array.dtype.kind
    if kind == "b":
        changed = ~array
    elif kind in "iu":
        changed = np.where(array > 1, array - 1, array + 1).astype(array.dtype)
    elif kind in "fc":
        changed = np.where(array == 0, 0.125, array * 0.75).astype(array.dtype)
    else:
        return x  # strings, dates and objects stay as they are
    return changed[()] if isinstance(x, np.generic) else changed


def second_inputs(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """Inputs with the signature of `(args, kwargs)` and other values in every array."""
    leaves, tree = flatten((tuple(args), dict(kwargs)))
    return tree.unflatten([other_values(x) if _is_array(x) else x for x in leaves])
