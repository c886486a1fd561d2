"""Python and NumPy number conversions of traced values in converted code.

    total = float(x.sum())      # a Python float eagerly; staged: python_call[fn='float']
    k = int(t)                  # truncates toward zero; int(nan) raises ValueError
    r = math.sqrt(s)            # Python's math.sqrt: ValueError for s < 0
    h = np.float32(s)           # x.astype(np.float32), as NumPy converts a scalar

Python checks that `float(x)` returns a float, so a traced value cannot answer
it; `converted_call` asks `conversion_call` first, which stages the call
(`runtime.ops.python_calls`) as the Python number eager code gets: weak in the
graph (`f64[]~weak`, `i64[]~weak`), computing on with Python's result types.
`getitem(table, i)` is converted code's `table[i]` with a traced index: a NumPy
array (a lookup table the function closes over or builds) is read as a graph
constant, so the read is staged with NumPy's indexing rules and errors.

A NumPy scalar type (`np.float32(x)`, `np.int8(k)`) is NumPy's cast: `astype`
of an array value (an int64 300 wraps to int8 44, as NumPy's does), and
NumPy's conversion of a Python number (which raises `OverflowError`).
"""
from __future__ import annotations

import math

import numpy as np

from autograph_runtime import Tracer, TracingError, current_builder, dispatch
from autograph_runtime.hints import HINTS
from autograph_runtime.source import location_note, user_source
from autograph_runtime.container_texts import container_text, with_container_fields
from autograph_runtime.texts import FormattedText, formatted_call
from autograph_runtime.tree import flatten
from autograph_runtime.abstract import AbstractValue, python_type
from autograph_runtime.ops.python_calls import NAMES, python_call
from autograph_runtime.ops.python_numbers import convert_weak

from .array_likes import as_array, holds_traced
from .lists import TracedList
from .shapes import len_of

_SCALAR_TYPES = frozenset(t for t in np.sctypeDict.values()
                          if issubclass(t, np.generic) and np.dtype(t).kind in "biufc")
dispatch.staged_elsewhere.update(
    {**dict.fromkeys(_SCALAR_TYPES, "autograph.operators.conversions"),
     **dict.fromkeys((np.array, np.asarray, np.asanyarray, np.ascontiguousarray,
                      np.asfortranarray, np.asarray_chkfinite, np.require),
                     "autograph.operators.array_likes"),
     np.isscalar: "autograph.operators.calls", np.errstate: "autograph.operators.calls"})


_TEXT = (str, repr, ascii, format)
_CONVERSION = {str: "s", repr: "r", ascii: "a", format: None}   # as an f-string's field


def _deferred_text(f, args: tuple, kwargs: dict):
    """`str(x)`, `repr(x)`, `format(x, spec)` and `"...".format(...)` of traced values, or
    of containers holding them (`str((k, x))`), as a `FormattedText` (formatted when the
    graph runs, for `print`, an `assert` or an error's message); None where the text
    cannot wait (a format spec that is not a string, a field such as `{0[1]}`)."""
    if f in _TEXT and len(args) in ((1, 2) if f is format else (1,)) and not kwargs \
            and all(type(a) is str for a in args[1:]):
        spec = args[1] if len(args) == 2 else ""
        if isinstance(args[0], Tracer):
            return FormattedText(((0, _CONVERSION[f], spec),), [args[0]])
        return container_text(args[0], _CONVERSION[f], spec)
    if _str_method(f) == "format":
        text = formatted_call(f.__self__, args, kwargs)
        return None if text is None else FormattedText(
            *with_container_fields(text.parts, text.values))
    return None


def _holds_traced(args: tuple, kwargs: dict) -> bool:
    """Whether a traced value is among `args` and `kwargs`, in containers too."""
    return any(isinstance(x, Tracer) for x in flatten((args, kwargs))[0])


def _str_method(f) -> str | None:
    """The name of `f` where it is a bound method of a string (`"sep".join`), else None."""
    return getattr(f, "__name__", None) if isinstance(getattr(f, "__self__", None), str) \
        else None


def _joined(separator: str, items: list):
    """`separator.join(items)`: a `FormattedText` where an item is one (an f-string of
    traced values, formatted when the graph runs); Python's string otherwise."""
    if not any(isinstance(item, FormattedText) for item in items):
        return separator.join(items)
    joined = items[0]
    for item in items[1:]:
        joined = joined + separator + item
    return joined


def _formats_text(f) -> bool:
    """`"...".format` (a bound method of a string)."""
    return _str_method(f) in ("format", "format_map")


def eager_type(x: Tracer) -> type:
    """The type eager code has where the graph has the traced `x`: `np.ndarray` (also a
    0-d array: an argument, a constant), a NumPy scalar type (`x.sum()`, `x[0]`, a
    scalar argument) or a Python number's type (a weak value: `float(t)`, `x.item()`)."""
    if x.ndim or x.node.id in x.builder.maybe_arrays:
        return np.ndarray
    return python_type(x.aval) if x.aval.weak else x.aval.dtype.type


def type_query(f, args: tuple, kwargs: dict):
    """`isinstance(x, classinfo)` and `type(x)` of a traced `x`, answered as eagerly from
    its abstract value (a Tracer is none of those types); NotImplemented otherwise."""
    if kwargs or not args or not isinstance(args[0], Tracer):
        return NotImplemented
    if f is isinstance and len(args) == 2:
        return issubclass(eager_type(args[0]), args[1])
    if f is type and len(args) == 1:
        return eager_type(args[0])
    return NotImplemented


def conversion_call(f, args: tuple, kwargs: dict):
    """`f(*args, **kwargs)` staged where `f` converts a traced value to a number;
    NotImplemented where it does not."""
    if _str_method(f) == "join" and len(args) == 1 and not kwargs:
        return _joined(f.__self__, list(args[0]))
    if (f in _TEXT or _formats_text(f)) and _holds_traced(args, kwargs):
        text = _deferred_text(f, args, kwargs)
        if text is not None:
            return text
        name = "str.format" if _formats_text(f) else f"{f.__name__}()"
        raise TracingError(   # `str(x)`, `str([x, y])`: eager's text is the values'
            f"a traced value is known only when the graph runs, so {name} of it cannot "
            f"give eager code's text{location_note(user_source())}; {HINTS['text']}")
    if f is math.isclose and len(args) == 2 and set(kwargs) <= {"rel_tol", "abs_tol"} and \
            any(isinstance(x, Tracer) for x in (*args, *kwargs.values())):
        return python_call("math.isclose", *args, kwargs.get("rel_tol", 1e-09),
                           kwargs.get("abs_tol", 0.0))
    if kwargs or not args or not any(isinstance(x, Tracer) for x in args):
        return NotImplemented
    name = NAMES.get(f)
    if name is not None:
        return python_call(name, *args)
    if f is len and len(args) == 1:
        length = len_of(args[0])   # of an unknown dimension: a traced Python int
        return NotImplemented if length is None else length
    if len(args) != 1 or not isinstance(args[0], Tracer):
        return NotImplemented
    x = args[0]
    if f in _SCALAR_TYPES:
        if x.aval.weak:  # a Python number: NumPy's own conversion (OverflowError)
            return convert_weak(x, AbstractValue((), np.dtype(f)))
        return x.astype(f)
    return NotImplemented


def getitem(value, key):
    """`value[key]`; a NumPy array indexed by a traced value is read as a graph constant."""
    if isinstance(value, (np.ndarray, np.generic)) and _traced(key):
        builder = current_builder()
        value = Tracer(builder, builder.const(np.asarray(value)))
    if isinstance(value, Tracer):
        key = index_key(key)
    return value[key]


def index_key(key):
    """`key` with each index list (or tuple inside the key's tuple) holding traced values
    (`[k, p]`, p traced) as an index array, as NumPy reads the sequence."""
    return tuple(map(_as_index, key)) if type(key) is tuple else _as_index(key)


def _as_index(key):
    if type(key) is TracedList:   # a list appended in a staged block: its stacked ints
        key.one_dtype("an index of")   # (empty: an empty index, as NumPy reads `[]`)
        return key.stacked()
    # a list, or a tuple inside the index tuple: a sequence NumPy reads as an index array
    return as_array(key) if type(key) in (list, tuple) and holds_traced(key) else key


def _traced(key) -> bool:
    if isinstance(key, (Tracer, TracedList)):
        return True
    if type(key) in (tuple, list):
        return any(map(_traced, key))
    return isinstance(key, slice) and any(map(_traced, (key.start, key.stop, key.step)))
