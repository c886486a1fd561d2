"""`print` and `assert` in converted code.

An `assert` whose condition is concrete (a Python value) fails while tracing at
the top level of a graph function, where it fails at every call. Inside a staged
body (a branch of a staged `if`, the body of a staged loop) it fails only if
that body runs, so there it is staged as an `assert` of a constant `False`:

>>> import numpy as np
>>> import autograph as ag
>>> @ag.convert
... def first_steps(n):
...     i = 0
...     while i < n:
...         assert False, "the loop ran"
...         i += 1
...     return i
>>> first_steps(np.int64(0))
array(0)
>>> try:
...     first_steps(np.int64(2))
... except AssertionError as e:
...     print("AssertionError:", e)
AssertionError: the loop ran
"""
from __future__ import annotations

import re

import numpy as np

from autograph_runtime import Tracer, TracingError, current_builder
from autograph_runtime.ops.effects import assert_ as staged_assert
from autograph_runtime.ops.effects import print_ as staged_print
from autograph_runtime.container_texts import with_container_fields
from autograph_runtime.ops.subgraphs import defer
from autograph_runtime.source import location_note, user_source
from autograph_runtime.texts import FormattedText, hidden_tracers_refused, render
from autograph_runtime.tracer import read_if_variable
from autograph_runtime.tree import flatten

from .exceptions import refuse_if_caught
from .undefined import ld


def assert_(condition, message_fn=None):
    """`assert condition, message`: the message is evaluated only when needed: for a
    Python condition, only where it is False; for a traced one, while tracing, where an
    error building it is staged, raised only where the condition fails when it runs."""
    condition = read_if_variable(condition)
    message = None
    if not isinstance(condition, Tracer):
        if condition:
            return
        builder = current_builder()
        message = message_fn() if message_fn is not None else None
        if builder is None or builder.parent is None and not isinstance(message, FormattedText):
            raise AssertionError(message) if message_fn is not None else AssertionError
        # in a staged body (or a message of traced values): fail when the graph runs
        condition = Tracer(builder, builder.const(np.asarray(False)))
    elif message_fn is not None:
        try:
            message = message_fn()
        except Exception as error:  # noqa: BLE001 - Python builds it only where it fails
            refuse_if_caught(error, "of a staged assert's message")
            if not defer(error, condition):   # raised when the graph runs, where it fails
                raise
            return
    text = None if message is None or isinstance(message, FormattedText) else message
    refuse_if_caught(AssertionError(*([] if text is None else [text])), "of a staged assert")
    staged_assert(condition, message)


def fstring(*parts):
    """An f-string in converted code: `f"m={m:.3f}"` is `fstring("m=", (m, None, ".3f"))`.

    Python's text where no field is traced; else a `FormattedText`, which `print`
    and an `assert`'s message format when the graph runs (any other use raises
    `TracingError`: the text exists only then)."""
    fields = [p for p in parts if type(p) is tuple]
    values = [read_if_variable(v) for v, _, _ in fields]
    numbered, k = [], 0
    for part in parts:   # each field as (its place among the fields, conversion, spec)
        numbered.append(part if type(part) is not tuple else (k, part[1], part[2]))
        k += type(part) is tuple
    numbered, values = with_container_fields(tuple(numbered), values)   # `{(k, x)}`
    if not any(isinstance(v, (Tracer, FormattedText)) for v in values):
        with hidden_tracers_refused():
            return render(numbered, values)   # Python's own text
    if any(type(spec) is not str for _, _, spec in fields):
        FormattedText((), [])._needs_text()   # a traced format spec
    if not any(type(v) is FormattedText for v in values):
        return FormattedText(numbered, values)
    text = FormattedText((), [])
    for part in numbered:   # a nested text as a plain field (`{"*" * n}`): its own parts
        nested = values[part[0]] if type(part) is tuple else None
        if type(nested) is FormattedText:
            if part[1:] != (None, ""):
                nested._needs_text()   # formatted further: needs its characters now
            text = text + nested
        else:
            text = text + (part if nested is None and type(part) is str else
                           FormattedText(((0, part[1], part[2]),), [values[part[0]]]))
    return text


_PERCENT_FIELD = re.compile(r"%(?:\((?P<key>[^)]*)\))?[-#0 +]*\d*(?:\.\d*)?[hlL]?"
                            r"(?P<kind>[diouxXeEfFgGcrsa%])")


def percent_format(template: str, values):
    """`template % values` in converted code (a literal template): Python's text where no
    value is traced; else a `FormattedText`, each `%` field formatted by Python's `%` when
    the graph runs (`"%5.2f%%" % (100 * x.mean())`). A `*` width, or a template Python
    would refuse, is formatted now (Python's error, or the traced value's refusal)."""
    items = values if type(values) is tuple else (values,)
    mapping = values if type(values) is dict else None
    if not any(isinstance(v, (Tracer, FormattedText)) for v in flatten(values)[0]):
        return template % values
    parts, fields, start, k = [], [], 0, 0
    for match in _PERCENT_FIELD.finditer(template):
        parts.append(template[start:match.start()])
        start = match.end()
        if match["kind"] == "%":
            parts.append("%")
            continue
        spec = match.group(0) if match["key"] is None else \
            "%" + match.group(0)[len(match["key"]) + 3:]
        if (mapping is None) == (match["key"] is not None) or \
                (mapping is None and k >= len(items)):
            return template % values   # Python's error
        value = mapping[match["key"]] if mapping is not None else items[k]
        k += mapping is None
        if isinstance(value, FormattedText):
            value._needs_text()
        plain = spec in ("%s", "%r", "%a")   # as an f-string's `{v!s}`: containers too
        if not plain and not isinstance(value, Tracer) and \
                any(isinstance(v, Tracer) for v in flatten(value)[0]):
            raise TracingError(f"{spec!r} of a container holding traced values"
                               f"{location_note(user_source())}: use an f-string")
        parts.append((len(fields), spec[1] if plain else ("percent", spec), ""))
        fields.append(read_if_variable(value))
    parts.append(template[start:])
    literal = "".join(p for p in parts if type(p) is str and p != "%")
    if mapping is None and k != len(items) or "%" in literal:   # a `*` width, a bad field
        return template % values   # Python's error, or the traced value's refusal
    return FormattedText(*with_container_fields(tuple(p for p in parts if p != ""), fields))


def print_(*values, sep=" ", end="\n", file=None, flush=False):
    """`print` in converted code: while tracing it prints each time the graph runs.

    The eager function prints at every call, so the graph does too, for Python
    values as well as traced ones (a `file` other than stdout prints while tracing).
    """
    ld(values)
    if file is not None:
        print(*values, sep=sep, end=end, file=file, flush=flush)
        return
    staged_print(*values, sep=sep, end=end, always_stage=True)
