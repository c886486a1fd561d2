"""The error types users see; `autograph` re-exports them unchanged.

The converter's own `ConversionError` lives in `autograph.pyct.errors`;
importing `autograph` makes it a subclass of `AutographError`.
"""


class AutographError(Exception):
    """Base class of this project's own errors."""


class TracingError(AutographError):
    """Tracing found a problem in the user's function (see the message)."""


class PathTypeError(TracingError):
    """A value's type depends on which way a traced `if` or loop goes, in a way a graph
    value (of one type) cannot follow: a Python number on one path and a NumPy value on
    another that NumPy promotes differently (`runtime.weak_joins`)."""


class ContainerStagingError(TracingError):
    """A staged `if` or loop cannot carry how it changes a Python list, dict or set (a
    list used as a stack, a list of another length on each path). autograph runs a loop
    refused so as Python when the graph runs instead (`autograph.operators.loop_islands`)."""


class UnhashableTracedValue(TracingError, TypeError):
    """A traced number used as a dict key or a set member: eager code hashes the NumPy
    scalar, which a traced value has no value for while tracing. Python's `TypeError`
    for an unhashable object too, so code catching that catches it; a loop refused for
    it runs as Python when the graph runs instead, as for `ContainerStagingError`."""


class UnsupportedAttributeError(TracingError, AttributeError):
    """An ndarray attribute or method with no traced version (`x.flags`, `x.tofile`): an
    `AttributeError`, so `hasattr` is False as user code may test, and a refusal, so a
    call meeting it runs eagerly (`autograph.eager_fallback`)."""


class NoneOnThisPathError(TypeError):
    """Raised by a graph on a path where the function returns None while another path
    returns a value (a graph returns one type on every path). Eager code returns None
    there, so a graph function whose graph has no effects runs that call eagerly
    instead (`autograph.eager_fallback`); saved, it is a `TypeError`."""

    __ag_saved_as__ = TypeError


def add_note_once(error: BaseException, note: str) -> None:
    """Adds `note` to `error` unless an identical note is already there."""
    if note not in getattr(error, "__notes__", ()):
        error.add_note(note)


class IslandTypeError(TypeError):
    """Raised by a loop run as Python in the graph (`python_block`) whose run gave a
    variable another type than it had at the loop (`total = 0` then a float64): eager
    code goes on there, so a graph function whose graph and loop have no effects runs
    that call eagerly instead (`autograph.eager_fallback`); saved, it is a `TypeError`."""

    __ag_saved_as__ = TypeError


class ExportError(AutographError):
    """A graph cannot be written as an ONNX model: a primitive without an ONNX
    lowering (named with the user's `file:line`), or an ONNX package missing."""


class DaskGatherError(AutographError):
    """On Dask, a primitive with no chunked form would gather more into one chunk than the
    device's `max_gather` allows; the message names the primitive, the operand, the limit,
    the user's `file:line` and the ways out (docs/dask.md)."""
