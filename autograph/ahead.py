"""Converting at decoration: `ag.convert` converts a function before any trace.

The source is read, parsed and rewritten when the graph function is made,
outside tracing; tracing then only runs the converted function. What the
user sees is unchanged: a function that cannot be converted is left to its
first trace, which warns (`ConversionWarning`, source that cannot be read) or
raises (`ConversionError`) there, as it did before; a function whose code
or `autograph` setting changed since decoration is converted again. (What can
never convert, a generator or a coroutine, is refused before this, by
`conversion.check_convertible`.) A `functools.partial` or a callable object
is called through `converted_call`, which converts the function it wraps or
its class's `__call__`.
"""
from __future__ import annotations

import types

from .conversion import convert_function, convert_quietly
from .operators import converted_call


class ConvertedAhead:
    """What tracing calls for `fn`, converted now where that succeeds quietly."""

    __slots__ = ("function", "autograph", "_code", "_target")

    def __init__(self, fn, autograph: bool = True):
        self.function = fn
        self.autograph = autograph
        self._code = getattr(fn, "__code__", None)
        self._target = self._convert()

    def _convert(self):
        fn = self.function
        if not self.autograph or getattr(fn, "_ag_method", False):
            return fn  # a method's own wrapper converts the method it calls
        if not isinstance(fn, types.FunctionType):
            return lambda *args, **kwargs: converted_call(fn, args, kwargs)
        return convert_quietly(fn)

    def target(self, autograph: bool | None = None):
        """The function to trace (converting `fn` now if that could not be done ahead)."""
        if (autograph is not None and autograph != self.autograph) or \
                getattr(self.function, "__code__", None) is not self._code:
            self.__init__(self.function, self.autograph if autograph is None else autograph)
        if self._target is None:
            return convert_function(self.function)  # warns, or raises the conversion's error
        return self._target
