"""Effects staged in program order: `print` and `assert` of traced values.

An error raised while tracing a staged body (a branch of a `cond`, the body of
a `while_loop`) is one the eager function raises only if that body runs, so
`subgraphs.deferring_errors` stages it (`stage_failure`) as an `assert` of a
constant `False` that raises the same type with the same text.

Both keep a *template*: the Python parts of their arguments are formatted
while tracing, the traced parts when the graph runs, so the text is what the
eager function prints (`print(x)` of an array prints NumPy's own `str`; an
f-string of traced values, `texts.py`'s `FormattedText`, is formatted then).
"""
from __future__ import annotations

import sys

import numpy as np

from .. import primitives
from ..source import is_library_file, original_location
from ..tracer import Tracer, bind, current_builder
from ..variable_text import variable_text
from ..container_texts import container_text
from ..texts import FormattedText, hidden_tracers_refused, render


def _template(values):
    """("text", ...) for Python values, k for the k-th traced operand,
    ("variable", k, name) for a `Variable`, whose k-th operand is a read of it, and
    ("formatted", parts, k) for a `FormattedText` (an f-string of traced values) whose
    fields are the operands from k on."""
    parts, operands = [], []
    for value in values:
        text = container_text(value, "s")   # `(k, x)`: its text, formatted when it runs
        value = value if text is None else text
        if isinstance(value, FormattedText):
            parts.append(("formatted", value.parts, len(operands)))
            operands.extend(value.values)
        elif isinstance(value, Tracer):
            parts.append(len(operands))
            operands.append(value)
        elif hasattr(type(value), "__ag_read__"):  # a Variable
            parts.append(("variable", len(operands), value.name))
            operands.append(value.read_value())
        else:
            with hidden_tracers_refused():
                parts.append(("text", str(value)))
    return tuple(parts), operands


def _render(template, operands):
    return [str(operands[p]) if not isinstance(p, tuple) else p[1] if p[0] == "text"
            else render(p[1], operands[p[2]:]) if p[0] == "formatted"
            else variable_text(p[2], operands[p[1]]) for p in template]


def _print_kernel(xp, template, sep, end):
    def run(*operands):
        print(*_render(template, operands), sep=sep, end=end, file=sys.stdout)
        return []
    return run


def remade(error: type, args: tuple, attributes: tuple = ()) -> BaseException:
    """An exception equal to one made while tracing: its type, `args` and attributes,
    without calling its `__init__` again (which may format its arguments anew)."""
    made = error.__new__(error, *args)
    made.args = args
    for name, value in attributes:
        setattr(made, name, value)
    return made


def _assert_kernel(xp, template, error=AssertionError, args=None, attributes=()):
    def run(condition, *operands):
        if not condition:
            if args is not None:
                raise remade(error, args, attributes)
            raise error(" ".join(_render(template, operands))) if template else error()
        return []
    return run


print_p = primitives.define("print", lambda *a, **p: [], _print_kernel,
                            multiple_results=True, effectful=True)
assert_p = primitives.define("assert", lambda *a, **p: [], _assert_kernel,
                             multiple_results=True, effectful=True)


def may_fail(eqns) -> bool:
    """Whether one of `eqns` is an `assert`, or holds one in a subgraph: code traced
    after them may not run, as eagerly an error may be raised before it."""
    return any(e.primitive is assert_p for eqn in eqns
               for e in [eqn, *(x for sub in eqn.subgraphs() for x in sub.all_eqns())])


def print_(*values, sep=" ", end="\n", always_stage=False):
    """`print` staged when a value is traced (it then prints each time the graph runs).

    With `always_stage`, a print of Python values alone is staged too while tracing.
    """
    template, operands = _template(values)
    if not operands and not (always_stage and current_builder() is not None):
        print(*values, sep=sep, end=end)
        return
    bind(print_p, *operands, template=template, sep=sep, end=end)


def assert_(condition, message=None):
    """`assert condition, message`, staged when `condition` is traced.

    `message` may be an exception instance: its type is raised with its text.
    """
    error = AssertionError
    if isinstance(message, BaseException):
        error, message = type(message), str(message)
    if not isinstance(condition, Tracer):
        if not condition:
            raise error(message) if message is not None else error()
        return
    if condition.ndim and not all(d == 1 for d in condition.shape):
        raise ValueError("the truth value of an array with more than one element is "
                         "ambiguous (a traced assert condition)")
    template, operands = _template([] if message is None else [message])
    params = {"template": template} if error is AssertionError else {
        "template": template, "error": error}
    bind(assert_p, condition, *operands, **params)


def stage_failure(error: BaseException, holds=None) -> bool:
    """Stages an `assert` that raises an exception equal to `error` when it runs: its
    type, its `args` and its attributes (`KeyError(3)` stays `KeyError(3)`); with
    `holds` (a traced condition), only where it is False when the graph runs.

    False (nothing staged) where such an exception cannot be remade.
    """
    builder = current_builder()
    attributes = tuple((k, v) for k, v in vars(error).items() if not k.startswith("__"))
    try:
        remade(type(error), error.args, attributes)
    except Exception:  # noqa: BLE001 - e.g. a type whose __new__ wants other arguments
        return False
    failing = holds if holds is not None else Tracer(builder, builder.const(np.asarray(False)))
    if any(isinstance(a, FormattedText) for a in error.args):
        if len(error.args) != 1 or attributes:   # one text, formatted when it runs
            next(a for a in error.args if isinstance(a, FormattedText))._needs_text()
        template, operands = _template(error.args)   # `ValueError(f"got {x}")`
        bind(assert_p, failing, *operands, template=template, error=type(error))
    else:
        params = {"template": (("text", str(error)),), "error": type(error),
                  "args": error.args}
        if attributes:
            params["attributes"] = attributes
        bind(assert_p, failing, **params)
    where = raised_at(error)
    if where is not None:  # the equation is traced from the `raise`, not the `if`
        builder.eqns[-1].source = where
    return True


def raised_at(error: BaseException):
    """The user's line of the innermost user frame in `error`'s traceback."""
    tb, found = error.__traceback__, None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not is_library_file(code.co_filename):
            found = original_location(code.co_filename, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    return found
