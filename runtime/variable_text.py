"""How a `Variable` prints: the same text eagerly and from a graph's `print`.

>>> import numpy as np
>>> variable_text("lr", np.float32(0.5))
"<Variable 'lr' shape=() dtype=float32 value=0.5>"
"""
from __future__ import annotations

import numpy as np


def variable_text(name: str, value) -> str:
    """`repr` of a variable called `name` holding `value`."""
    value = np.asarray(value.get() if hasattr(value, "get") and not isinstance(
        value, np.ndarray) else value)
    text = np.array2string(value, threshold=10, edgeitems=2)
    return f"<Variable {name!r} shape={value.shape} dtype={value.dtype.name} value={text}>"
