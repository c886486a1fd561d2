"""Text formatted from traced values: an f-string whose text exists only when the graph runs.

`f"mean={m:.3f}"` with `m` traced cannot be a Python string while tracing: its
text depends on `m`'s value. Converted code makes it a `FormattedText` (the
f-string's literal parts, and each field's value, `!r`/`!s`/`!a` conversion
and format spec), which `print` and an `assert`'s message accept: they format
it when the graph runs (`runtime/ops/effects.py`), so the text is what eager
code prints. Any other use of it (`str()`, `+`, `len`, a dict key, returning
it) needs the text now, and raises `TracingError` saying so, never a string
that differs from eager's (`Tracer(m:f64[])`).
"""
from __future__ import annotations

from .errors import TracingError
from .source import location_note, user_source

_CONVERSIONS = {None: lambda v: v, "s": str, "r": repr, "a": ascii}


def format_field(value, conversion, spec: str) -> str:
    """One f-string field as Python formats it: the conversion, then `format(value, spec)`."""
    return format(_CONVERSIONS[conversion](value), spec)


def render(parts: tuple, values) -> str:
    """The text of an f-string's `parts` (strings, and `(k, conversion, spec)` fields)
    given the fields' values."""
    return "".join(p if type(p) is str else format_field(values[p[0]], p[1], p[2])
                   for p in parts)


class FormattedText:
    """An f-string with traced fields. `parts`: strings, and `(k, conversion, spec)`
    for the k-th of `values`."""

    __slots__ = ("parts", "values", "where")

    def __init__(self, parts: tuple, values: list):
        self.parts, self.values = parts, values
        self.where = user_source()   # the f-string's line, for a refusal made elsewhere

    def _needs_text(self, *args, **kwargs):
        raise TracingError(
            f"an f-string of traced values has its text only when the graph runs, so it "
            f"cannot be used as a Python string{location_note(user_source())}: print it "
            f"(print is staged and formats it then), use it as an assert's message, or "
            f"format Python values")

    def returned(self, function: str):
        raise TracingError(
            f"an f-string of traced values has its text only while the graph runs, so "
            f"{function!r} cannot give it as a result{location_note(self.where)}: print "
            f"it where it is made, or return the values and format them outside")

    __str__ = __repr__ = __format__ = __len__ = __hash__ = __eq__ = __add__ = __radd__ = \
        __mul__ = __iter__ = __getitem__ = __contains__ = _needs_text

    def __getattr__(self, name):   # `text.upper()`, `text.split()`
        self._needs_text()
