"""Converting at decoration: `ag.convert` converts a function before any trace.

The source is read, parsed and rewritten when the graph function is made,
outside tracing; tracing then only runs the converted function. What the
user sees is unchanged: a `ConversionWarning` (source that cannot be read)
is issued at the first trace, where the call that needs the function is, and
an unsupported construct (`ConversionError`) is raised by the first trace,
as by every one after it.
"""
from __future__ import annotations

import types
import warnings

from runtime.source import user_stacklevel

from .conversion import convert_function
from .operators import converted_call


class ConvertedAhead:
    """What tracing calls for `fn`: converted now, its warnings kept for the first trace."""

    __slots__ = ("function", "_target", "_warnings")

    def __init__(self, fn, autograph: bool = True):
        self.function = fn
        self._target = None
        self._warnings = ()
        if not autograph or getattr(fn, "_ag_method", False):
            self._target = fn  # a method's own wrapper converts the method it calls
        elif not isinstance(fn, types.FunctionType):
            self._target = lambda *args, **kwargs: converted_call(fn, args, kwargs)
        else:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    self._target = convert_function(fn)
                except Exception:  # noqa: BLE001  raised again by the first trace
                    self._target = None
            self._warnings = tuple(caught)

    def target(self):
        """The function to trace; the first call issues the warnings of the conversion."""
        pending, self._warnings = self._warnings, ()
        for caught in pending:
            warnings.warn(caught.message, caught.category, stacklevel=user_stacklevel())
        if self._target is None:
            return convert_function(self.function)  # raises the conversion's error again
        return self._target
