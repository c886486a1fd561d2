"""Text formatted from traced values: an f-string whose text exists only when the graph runs.

`f"mean={m:.3f}"` with `m` traced cannot be a Python string while tracing: its
text depends on `m`'s value. Converted code makes it a `FormattedText` (the
f-string's literal parts, and each field's value, `!r`/`!s`/`!a` conversion
and format spec), which `print`, an `assert`'s message and the message of an
exception raised in a staged branch or loop accept: they format it when the
graph runs (`runtime/ops/effects.py`), so the text is what eager code prints.
`str(m)`, `format(m, ".2f")` and `"{:.2f}".format(m)` make one too
(`autograph/operators/conversions.py`), and `+` joins texts and strings into
one. Any other use of it (`len`, a dict key, a method, returning it) needs the
text now, and raises `TracingError` saying so, never a string that differs
from eager's (`Tracer(m:f64[])`).
"""
from __future__ import annotations

import contextlib
import operator
import string
import threading

from .errors import TracingError
from .source import location_note, user_source

_CONVERSIONS = {None: lambda v: v, "s": str, "r": repr, "a": ascii}


def format_field(value, conversion, spec: str) -> str:
    """One f-string field as Python formats it: the conversion, then `format(value, spec)`;
    the conversion `("repeat", s)` is `s * value` (`"*" * n` of a traced n), and
    `("percent", "%5.2f")` is `"%5.2f" % (value,)`, `("call", f)` is `f(value)`."""
    if type(conversion) is tuple:   # ("repeat", s): `s * value`; ("percent", "%.2f")
        how, text = conversion
        if how == "call":   # ("call", f): `f(value)`, `np.array2string(x, precision=2)`
            return format(text(value), spec)
        return text % (value,) if how == "percent" else \
            format(text * operator.index(value), spec)
    return format(_CONVERSIONS[conversion](value), spec)


def render(parts: tuple, values) -> str:
    """The text of an f-string's `parts` (strings, and `(k, conversion, spec)` fields)
    given the fields' values."""
    return "".join(p if type(p) is str else format_field(values[p[0]], p[1], p[2])
                   for p in parts)


def formatted_call(template: str, args: tuple, kwargs: dict):
    """`template.format(*args, **kwargs)` as a `FormattedText` (each field a value, as an
    f-string's are); None where a field is more than a position or a name with a
    conversion and a plain spec (`{0.real}`, `{a[0]}`, `{:{width}}`), or names no
    argument, which the caller refuses (`autograph.operators.conversions`)."""
    parts, values, auto = [], [], 0
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return None
    for literal, name, spec, conversion in fields:
        if literal:
            parts.append(literal)
        if name is None:
            continue
        if "{" in spec or "." in name or "[" in name:
            return None
        if name == "":
            name, auto = str(auto), auto + 1
        if name.isdigit() and int(name) < len(args):
            value = args[int(name)]
        elif not name.isdigit() and name in kwargs:
            value = kwargs[name]
        else:
            return None
        parts.append((len(values), conversion, spec))
        values.append(value)
    return FormattedText(tuple(parts), values)


class FormattedText:
    """An f-string with traced fields. `parts`: strings, and `(k, conversion, spec)`
    for the k-th of `values`."""

    __slots__ = ("parts", "values", "where")

    def __init__(self, parts: tuple, values: list):
        self.parts, self.values = parts, values
        self.where = user_source()   # the f-string's line, for a refusal made elsewhere

    def _needs_text(self, *args, **kwargs):
        raise TracingError(
            f"a text formatted from traced values (an f-string, str(x), format(x)) exists "
            f"only when the graph runs, so it cannot be used as a Python string"
            f"{location_note(user_source())}: print it (print is staged and formats it "
            f"then), use it as an assert's or an exception's message, or format Python values")

    def returned(self, function: str):
        raise TracingError(
            f"a text formatted from traced values (an f-string, str(x), format(x)) exists "
            f"only while the graph runs, so {function!r} cannot give it as a result"
            f"{location_note(self.where)}: print "
            f"it where it is made, or return the values and format them outside")

    def __add__(self, other):   # `text + " units"`, `text + text`: still formatted then
        if type(other) is str:
            return FormattedText(self.parts + (other,), self.values)
        if type(other) is FormattedText:
            shift = len(self.values)
            return FormattedText(self.parts + tuple(
                p if type(p) is str else (p[0] + shift, p[1], p[2]) for p in other.parts),
                self.values + other.values)
        return NotImplemented

    def __radd__(self, other):   # `"total=" + text`
        if type(other) is str:
            return FormattedText((other,) + self.parts, self.values)
        return NotImplemented

    __str__ = __repr__ = __format__ = __len__ = __hash__ = __eq__ = \
        __mul__ = __iter__ = __getitem__ = __contains__ = _needs_text

    def __getattr__(self, name):   # `text.upper()`, `text.split()`
        self._needs_text()


class _Formatting(threading.local):
    depth = 0   # > 0 while a value of the user's is formatted (`hidden_tracers_refused`)


_formatting = _Formatting()


def formatting_user_values() -> bool:
    """Whether a value of the user's is being formatted in this thread
    (`hidden_tracers_refused`): a tracer asked for its text then is one no stand-in
    took the place of."""
    return _formatting.depth > 0


@contextlib.contextmanager
def hidden_tracers_refused():
    """Formats a Python value of the user's: a tracer it holds where no stand-in took its
    place (in a container the tree does not open) refuses to give its text."""
    _formatting.depth += 1
    try:
        yield
    finally:
        _formatting.depth -= 1
