"""The ndarray methods a traced value has beyond runtime/tracer_value.py's own.

Each is the NumPy function of the same name (ndarray's signature, as NumPy's
methods have it), so it has that function's dtypes, errors and gradient:
`x.take`, `x.round`, `x.astype(dtype, casting=...)`, `x.nonzero`,
`x.searchsorted`, `x.swapaxes`, `x.mT`, and the static `x.itemsize`,
`x.nbytes`. NumPy 2 has no `x.ptp()`, so neither does a traced value.

`x.item()` stages Python's number (`python_call`, see python_calls.py): an
`int` for an integer array, a `float`, `bool` or `complex`, weak in the graph,
so it computes on as the Python number eager code gets. It is staged here, not
refused: unlike `float(x)`, whose result Python checks is a float, a method
may return a traced value. `x.tolist()` of a known shape is the nested lists
of its items (a 0-d value's is its item); an unknown dimension makes the
list's length unknown, so it is refused, naming the ways out.
"""
from __future__ import annotations

import numpy as np

from .. import views
from ..dispatch import unsupported
from ..errors import TracingError, UnsupportedAttributeError
from ..source import location_note, user_source
from ..tracer_value import Tracer, tracer_method
from .creation import astype as _astype
from .shape_ops import as_layout
from .python_calls import ITEM, python_call


@tracer_method("item")
def item(self, *args):
    """`x.item()`, `x.item(i)`, `x.item(i, j)`: the element as a Python number."""
    if len(args) == 1 and isinstance(args[0], tuple):
        args = args[0]
    if not args:
        if None not in self.aval.shape and self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        value = self.reshape(()) if self.ndim else self
    elif len(args) == 1:
        value = self.reshape(-1)[args[0]]
    else:
        value = self[tuple(args)]
    return python_call(ITEM[self.dtype.kind], value) if self.dtype.kind in ITEM else value


@tracer_method("tolist")
def tolist(self):
    """`x.tolist()`: nested Python lists of `x.item()`s, for a shape known when tracing."""
    if None in self.aval.shape:
        raise TracingError(
            f"x.tolist() of traced value {self.node.name or '_'!r} ({self.aval}) "
            f"{location_note(user_source())}: its length is known only when the graph "
            f"runs; use the array itself (NumPy functions take it), `list(x)` after "
            f"fixing its shape, or ag.py_function(lambda a: a.tolist(), ...)")
    if not self.ndim:
        return item(self)
    return [tolist(self[i]) for i in range(self.shape[0])]


@tracer_method("astype")
def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """`x.astype(dtype, casting=...)`: NumPy's `TypeError` where `casting` forbids the cast
    (replaces creation.py's, which this module imports first). With `copy=False` and
    x's own dtype, x itself, as NumPy returns it (a write to one is a write to both)."""
    dtype = np.dtype(dtype)
    if casting != "unsafe" and not np.can_cast(self.dtype, dtype, casting):
        raise TypeError(f"Cannot cast array data from {self.dtype!r} to {dtype!r} "
                        f"according to the rule {casting!r}")
    if not copy and dtype == self.dtype and not self.aval.weak:
        return self if order in ("K", "A") else as_layout(self, order)
    return _astype(self, dtype)


@tracer_method("view")
def view(self, dtype=None, type=None):
    """`x.view()`: another name for x's memory (`runtime.views.SAME`); a view as another
    dtype or type reinterprets the bytes, which a graph does not follow (refused)."""
    if type is not None or dtype is not None and np.dtype(dtype) != self.dtype:
        raise unsupported("ndarray.view(dtype) (a reinterpretation of the memory)")
    same = Tracer(self.builder, self.node)
    views.link(same, self, views.SAME)
    self.builder.shares_memory.add(self.node.id)
    return same


@tracer_method("take")
def take(self, indices, axis=None, out=None, mode="raise"):
    return np.take(self, indices, axis=axis, out=out, mode=mode)


@tracer_method("round")
def round_(self, decimals=0, out=None):
    return np.round(self, decimals, out)


@tracer_method("nonzero")
def nonzero(self):
    return np.nonzero(self)


@tracer_method("searchsorted")
def searchsorted(self, v, side="left", sorter=None):
    return np.searchsorted(self, v, side=side, sorter=sorter)


@tracer_method("swapaxes")
def swapaxes(self, axis1, axis2):
    return np.swapaxes(self, axis1, axis2)


def _matrix_transpose(self):
    """`x.mT`: the last two axes swapped (NumPy's ValueError under 2 dimensions)."""
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return np.swapaxes(self, -1, -2)


@tracer_method("__getattr__")
def _missing(self, name):
    """An ndarray attribute a traced value lacks (`x.partition`, `x.tofile`): NumPy's
    `AttributeError` (so `hasattr` stays False), naming the line and the way out."""
    if self.dtype.kind in "UST" and self.ndim == 0 and hasattr(str, name) \
            and not name.startswith("__"):   # a text a staged `if` chose: str's methods
        raise UnsupportedAttributeError(
            f"str.{name} of a text a traced condition chose is not supported"
            f"{location_note(user_source())}: its value exists only when the graph runs")
    if name.startswith("__") or not hasattr(np.ndarray, name):
        raise AttributeError(f"'Tracer' object has no attribute {name!r}")
    raise UnsupportedAttributeError(
        f"ndarray.{name} is not supported on traced values{location_note(user_source())}; "
        f"docs/numpy.md lists what is; to run NumPy's when the graph runs, write "
        f"`ag.py_function(lambda a: a.{name}(...), x, out=ag.TensorSpec(shape, dtype))`")


tracer_method("mT")(property(_matrix_transpose))
tracer_method("itemsize")(property(lambda self: self.dtype.itemsize))
tracer_method("nbytes")(property(lambda self: self.size * self.dtype.itemsize))
