"""`python_block`: a statement of the user's run as Python when the graph runs.

autograph stages two kinds of statement as one such equation, whose kernel
calls the converted statement (a function of the values it reads, giving the
values it assigns) on the graph's arrays:

- a `try` statement whose handlers may catch an error a kernel raises when the
  graph runs (`autograph/operators/staged_tries.py`), so that Python's own
  `try` catches what NumPy raises;
- a loop whose Python lists, dicts or sets a staged loop cannot carry (a list
  used as a stack, a dict keyed by traced values: `autograph/operators/
  loop_islands.py`), so that Python runs it on the graph's values.

`what` names the statement ("the `while` loop at f.py:5"), `why` says why
it runs as Python; both reach the errors below. The outputs' types come from
the trace (of the statement, or of the values at the loop); what the
statement gives when it runs must have them, else a `TypeError` names the
variable and the statement's line (a Python number where tracing gave a NumPy
scalar, or a Python int where it gave a float, is held exactly as that type,
as a staged `if` or loop joins them):

    inv:f64[3,3] = python_block[where='f.py:3'] m

A graph holding one has no gradient through it, cannot be saved, exported to
ONNX or lowered to the native tier (its kernel is Python).
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..abstract import PYTHON_DTYPES, AbstractValue, join_weak, python_aval, python_type
from ..errors import IslandTypeError


TRY_WHY = "its handlers catch errors NumPy raises then"


def try_what(where: str) -> str:
    """How errors name the `try` statement whose first `except` is at `where`."""
    return f"the `try` statement of the `except` at {where}"


def _abstract_eval(*args, fn, where, names, out_avals, what, why, no_effect=False):
    return list(out_avals)


def _text(value) -> str:
    if type(value) in PYTHON_DTYPES:
        return f"a Python {type(value).__name__}"
    if isinstance(value, (np.ndarray, np.generic)):
        return f"{value.dtype}{list(value.shape)}"
    return f"a {type(value).__name__}"


def _exactly(number, dtype):
    """The Python `number` as a NumPy scalar of `dtype` of its kind, where that holds it
    exactly; else None."""
    kinds = {bool: "b", int: "iuf", float: "fc", complex: "c"}[type(number)]
    if dtype.kind not in kinds:
        return None
    try:
        with np.errstate(all="ignore"):
            scalar = dtype.type(number)
    except (OverflowError, ValueError):
        return None
    # `.item()`: NEP 50 compares `np.float32(0.1) == 0.1` in float32, as equal
    same = scalar.item() == number or (number != number and scalar != scalar)
    return scalar if same else None


def _joins_exactly(number, aval: AbstractValue) -> bool:
    """Whether the Python `number` is one of the weak type `aval`, or one it joins (an int
    where the paths joined an int and a float) and holds exactly."""
    if python_aval(number) == aval:
        return True
    if join_weak(python_aval(number), aval) != aval:
        return False
    try:
        return python_type(aval)(number) == number
    except OverflowError:
        return False


def checked(value, aval: AbstractValue, name: str, what: str, error=TypeError):
    """`value`, bound to `name` by the statement `what` names, as the graph holds it: a
    Python number for a weak type, else an array of `aval`'s dtype and shape; `error`
    (a `TypeError`) where it is not one."""
    if aval.weak:  # a Python number, or the NumPy scalar a loop carries it as
        fits = _joins_exactly(value, aval) if type(value) in PYTHON_DTYPES else \
            isinstance(value, (np.generic, np.ndarray)) and np.shape(value) == () and \
            value.dtype == aval.dtype
        result = python_type(aval)(value.item() if fits and not isinstance(
            value, (bool, int, float, complex)) else value) if fits else None
    elif type(value) is str and aval.dtype.kind == "T" and aval.ndim == 0:   # a text
        result, fits = np.array(value, dtype=aval.dtype), True
    elif type(value) in PYTHON_DTYPES and aval.ndim == 0:  # held exactly, as a loop joins it
        result = _exactly(value, aval.dtype)
        fits = result is not None
    else:
        fits = isinstance(value, (np.ndarray, np.generic)) and value.dtype == aval.dtype and \
            aval.accepts(AbstractValue(np.shape(value), aval.dtype))
        result = value
    if not fits:
        expected = f"a Python {python_type(aval).__name__}" if aval.weak else \
            f"{aval.dtype}{list(aval.shape)}"
        raise error(
            f"{what} bound {name!r} to "
            f"{_text(value)} when the graph ran it, where tracing it gave {expected}; the "
            f"graph's values have one type whichever way the statement went: give {name!r} "
            f"the same type on every path")
    return result


def _kernel(xp, fn, where, names, out_avals, what, why, no_effect=False):
    to_host = (lambda a: a) if xp is np else (  # a weak value is a Python number already
        lambda a: a.get() if hasattr(a, "get") else a)

    def run(*args):
        results = fn(*[to_host(a) for a in args])
        error = IslandTypeError if no_effect else TypeError
        out = [checked(v, aval, name, what, error)
               for v, aval, name in zip(results, out_avals, names)]
        return [v if aval.weak else xp.asarray(v) for v, aval in zip(out, out_avals)]
    return run


python_block_p = primitives.define("python_block", _abstract_eval, _kernel,
                                   multiple_results=True, effectful=True)
primitives.hidden_params[python_block_p] = ("fn", "names", "out_avals", "what", "why",
                                           "no_effect")
primitives.save_rules[python_block_p] = lambda eqn: (
    f"{eqn.params['what']} runs as Python when the graph runs ({eqn.params['why']})")
