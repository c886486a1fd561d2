"""The text of a tuple, list or dict holding traced values, formatted when the graph runs.

Eagerly `print("step", (k, x))` prints `step (3, np.float64(1.5))`: a
container's text shows the `repr` of its items. While tracing, the items are
tracers, so the container's text is made a `FormattedText`: Python formats a
copy of the container whose traced items are stand-ins, each of which answers
`repr`, `str` or `format` with a mark; the text between the marks is the
container's own (brackets, keys, Python items' reprs), each mark a field
formatted from the graph's value when it runs (`np.float64(1.5)` for a NumPy
scalar, `array(3.)` for a 0-d array argument, `1.5` for a Python number).

Containers are what `runtime.tree` walks (tuples, lists, dicts, namedtuples,
classes with `__tree_flatten__`), nested. A traced value Python's formatting
reaches another way (a `set`, an object the tree does not open, an item used
as a number by a `__repr__`) raises `TracingError`: its text would not be eager's.
"""
from __future__ import annotations

import re
import uuid

from .errors import TracingError
from .source import location_note, user_source
from .texts import FormattedText, format_field, hidden_tracers_refused
from .tracer import Tracer
from .tree import flatten


class _StandIn:
    """A traced item while its container is formatted: records how it is formatted."""

    __slots__ = ("index", "fields", "mark")

    def __init__(self, index: int, fields: list, mark: str):
        self.index, self.fields, self.mark = index, fields, mark

    def _field(self, conversion, spec) -> str:
        self.fields.append((self.index, conversion, spec))
        return f"\x00{self.mark}:{len(self.fields) - 1}\x00"

    def __repr__(self):
        return self._field("r", "")

    def __str__(self):
        return self._field("s", "")

    def __format__(self, spec):
        return self._field(None, spec)


def _is_traced(x) -> bool:
    return isinstance(x, (Tracer, FormattedText))


def container_text(value, conversion=None, spec: str = ""):
    """`format(conversion(value), spec)` as a `FormattedText` where `value` is a container
    holding traced values; None where it holds none (or is not a container)."""
    leaves, tree = flatten(value, is_leaf=_is_traced)
    if tree.kind == "leaf":
        return None
    if any(isinstance(x, FormattedText) for x in leaves):
        _refuse("it holds a text formatted from traced values (a str eagerly)")
    traced = [x for x in leaves if isinstance(x, Tracer)]
    if not traced:
        return None
    fields, mark, k = [], uuid.uuid4().hex, iter(range(len(traced)))
    stand_ins = [_StandIn(next(k), fields, mark) if isinstance(x, Tracer) else x
                 for x in leaves]
    try:
        with hidden_tracers_refused():
            text = format_field(tree.unflatten(stand_ins), conversion, spec)
    except TracingError:
        raise
    except Exception as error:  # noqa: BLE001 - a __repr__ that uses an item as a value
        _refuse(f"its formatting uses a traced item as a value ({type(error).__name__}: "
                f"{error})")
    return FormattedText(_parts(text, mark, fields), traced)


def _parts(text: str, mark: str, fields: list) -> tuple:
    """The text's literal strings and `(k, conversion, spec)` fields, in order."""
    parts = []
    for i, piece in enumerate(re.split(f"\x00{mark}:(\\d+)\x00", text)):
        if i % 2:
            parts.append(fields[int(piece)])
        elif piece:
            parts.append(piece)
    return tuple(parts)


def _refuse(why: str):
    raise TracingError(
        f"the text of a container holding traced values cannot be made as eager code "
        f"makes it{location_note(user_source())}: {why}; print the values themselves")


def with_container_fields(parts: tuple, values: list):
    """An f-string's `parts` and field `values` with each field whose value is a container
    holding traced values replaced by that container's text (its strings and fields),
    and each field of a Python value by its text now (`{name!r}` of a str is its repr,
    as eagerly, not an array's)."""
    new_parts, new_values = [], []
    for part in parts:
        if type(part) is str:
            new_parts.append(part)
            continue
        k, conversion, spec = part
        text = None if _is_traced(values[k]) else container_text(values[k], conversion, spec)
        if text is None and not _is_traced(values[k]):
            with hidden_tracers_refused():
                new_parts.append(format_field(values[k], conversion, spec))
        elif text is None:
            new_parts.append((len(new_values), conversion, spec))
            new_values.append(values[k])
        else:
            shift = len(new_values)
            new_parts.extend(p if type(p) is str else (p[0] + shift, p[1], p[2])
                             for p in text.parts)
            new_values.extend(text.values)
    return tuple(new_parts), new_values
