"""Whether a loop run as Python in the graph (`loop_islands`) may have an effect.

An island's outputs take the types its state had at the loop: what its run
gives is known only then (`total = 0` then `total += w[v]` gives a float64).
Where a run gives another type, the graph cannot go on; the call may run
eagerly instead, as eager code would not fail, but only where running the
function again repeats nothing observable: the rest of the graph has no effect
(`ConcreteFunction.replayable`) and the island has none either. `no_effect`
says the latter, conservatively, from the loop's code and the values it reads:

- its code (and that of the functions it defines or reaches through its
  closures) writes no global, attribute or enclosing variable, imports nothing,
  prints nothing, draws no random number (`np.random`, `ag__.print_`,
  `ag__.setattr_`) and reads as globals only `ag__`, NumPy and its functions,
  exceptions and side-effect-free builtins (a call of a user's function: not
  known, so an effect);
- the values it reads are arrays, numbers, strings and the builtin containers
  of them, whose methods change only the island's own copies.
"""
from __future__ import annotations

import builtins
import collections
import dis
import types

import numpy as np

from autograph_runtime import Tracer

from .undefined import MaybeUnbound, Undefined

_BUILTINS = frozenset((
    "abs", "all", "any", "bool", "complex", "dict", "divmod", "enumerate", "filter",
    "float", "frozenset", "int", "isinstance", "iter", "len", "list", "map", "max", "min",
    "next", "pow", "range", "reversed", "round", "set", "sorted", "str", "sum", "tuple",
    "zip", "True", "False", "None"))
_EFFECT_ATTRIBUTES = frozenset((
    "random", "seed", "save", "savez", "savez_compressed", "savetxt", "tofile", "dump",
    "seterr", "seterrcall", "set_printoptions", "setflags", "print_", "setattr_", "write",
    "flush"))
_EFFECT_OPS = frozenset((
    "STORE_GLOBAL", "DELETE_GLOBAL", "STORE_ATTR", "DELETE_ATTR", "IMPORT_NAME",
    "IMPORT_FROM", "IMPORT_STAR"))
_DATA = (bool, int, float, complex, str, bytes, type(None), range, np.ndarray, np.generic,
         Tracer, Undefined, MaybeUnbound)


def no_effect(functions, values) -> bool:
    """Whether the loop of `functions` (its test and body), reading `values`, has no effect
    but its results."""
    return _plain(values, set()) and _code_has_no_effect(functions)


def _plain(value, seen: set) -> bool:
    if isinstance(value, _DATA) or type(value).__name__ in ("TracedRange", "TracedZip"):
        return True
    if isinstance(value, (list, tuple, set, frozenset, collections.deque)):
        if id(value) in seen:
            return True
        seen.add(id(value))
        return all(_plain(item, seen) for item in value)
    if isinstance(value, dict):
        if id(value) in seen:
            return True
        seen.add(id(value))
        return all(_plain(k, seen) and _plain(v, seen) for k, v in value.items())
    if isinstance(value, types.ModuleType):   # `ag__` or NumPy, held in a closure
        return _pure_module(value.__name__)
    return isinstance(value, types.FunctionType)   # its code: `_code_has_no_effect`


def functions_reached(functions) -> list:
    """`functions` and the functions their closures hold, transitively."""
    found, seen, stack = [], set(), [f for f in functions if isinstance(f, types.FunctionType)]
    while stack:
        function = stack.pop()
        if id(function) in seen:
            continue
        seen.add(id(function))
        found.append(function)
        for cell in function.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:   # not bound yet
                continue
            if isinstance(value, types.FunctionType):
                stack.append(value)
    return found


def _code_has_no_effect(functions) -> bool:
    return all(_pure_code(code, function.__globals__) for function in
               functions_reached(functions) for code in _codes(function.__code__))


def _codes(code) -> list:
    found, stack = [], [code]
    while stack:
        code = stack.pop()
        found.append(code)
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return found


def _pure_code(code, globals_: dict) -> bool:
    for instruction in dis.get_instructions(code):
        name, arg = instruction.opname, instruction.argval
        if name in _EFFECT_OPS:
            return False
        if name in ("STORE_DEREF", "DELETE_DEREF") and arg in code.co_freevars:
            return False   # an enclosing function's variable
        if name in ("LOAD_ATTR", "LOAD_METHOD") and arg in _EFFECT_ATTRIBUTES:
            return False
        if name in ("LOAD_GLOBAL", "LOAD_NAME") and not _pure_global(arg, globals_):
            return False
    return True


def _pure_global(name: str, globals_: dict) -> bool:
    if name == "ag__":
        return True
    if name not in globals_:
        return name in _BUILTINS or isinstance(getattr(builtins, name, None), type) and \
            issubclass(getattr(builtins, name), BaseException)
    value = globals_[name]
    if isinstance(value, type) and issubclass(value, BaseException):
        return True
    module = value.__name__ if isinstance(value, types.ModuleType) else \
        getattr(value, "__module__", None) if callable(value) else None
    return isinstance(module, str) and _pure_module(module)


def _pure_module(name: str) -> bool:
    """NumPy's modules but `numpy.random`, and the operators converted code calls (`ag__`,
    whose effects are `_EFFECT_ATTRIBUTES`)."""
    return name == __package__ or name.split(".")[0] == "numpy" and \
        not name.startswith("numpy.random")
