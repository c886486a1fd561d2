"""Values that are a Python number on some paths and a NumPy value on others.

    q = 0.0                      # a Python float...
    if x.sum() > 0:              # (x traced)
        q = y.max()              # ...or a NumPy float64, as the run decides
    return x32 * q               # eagerly float32 for the one, float64 for the other

A graph value has one type, so a staged `if` or loop joins the two as
`join_weak` says (here: float64). Where NumPy's promotion (NEP 50) of the
joined value differs from the Python number's, the graph would silently differ
from eager NumPy on that path. So the builder remembers such values
(`GraphBuilder.joined_weak`: Var id -> the weak type of the Python path, and the
joined Var it comes from), and:

- an equation whose result dtype differs between the two is a `PathTypeError`
  naming the value (`check`); results that stay Python numbers on that path
  (`q + 1`) are remembered in turn (`mark_python_result`);
- a literal the joined type cannot hold exactly (`1e300` or `0.1` as float32) is
  refused where it is joined (`exact_literal`), and a traced Python number is
  checked when the graph runs (`from_python[exact=True]`).

A branch or loop that joins a Python number with a NumPy dtype that cannot absorb
it (`0.5` with int8), or two NumPy dtypes, is a `PathTypeError` too.

>>> from autograph_runtime.abstract import AbstractValue
>>> exact_literal(0.5, AbstractValue((), "float32"), "q")
>>> try:
...     exact_literal(0.1, AbstractValue((), "float32"), "q")
... except PathTypeError as error:
...     print(str(error).split(" (at ")[0])
'q' is the Python float 0.1 on one path of a traced `if` or loop and a NumPy float32 on another, and float32 cannot hold 0.1 exactly
"""
from __future__ import annotations

import itertools
import warnings

import numpy as np

from .abstract import AbstractValue, is_python_number, python_type
from .errors import PathTypeError
from .ir import Literal, Var
from .source import location_note, user_source
from .tracer_value import Tracer


def note(tracer, python: AbstractValue, label: str | None = None) -> None:
    """Remembers that `tracer`, joined by a branch or a loop, is a Python number of
    (weak) type `python` on some path (`label`: the user's name for it)."""
    if label and not tracer.node.name:
        tracer.node.name = label
    tracer.builder.joined_weak[tracer.node.id] = (python, tracer.node)


def note_branch_results(outs: list, joined_here: dict, leaves: list) -> None:
    """After a staged `if`: its result `outs[j]` is a Python number on some path where the
    branches joined one (`joined_here[j]`: its type and name) or where a branch's result
    (`leaves[j]`, one per branch) already is one on some path."""
    for j, (python, label) in joined_here.items():
        note(outs[j], python, label)
    for j, out in enumerate(outs[:len(leaves)]):
        if j in joined_here:
            continue
        inherited = next(filter(None, map(joined, leaves[j])), None)
        if inherited and out.aval.dtype == inherited[1].aval.dtype:
            out.builder.joined_weak[out.node.id] = inherited


def joined(x) -> tuple | None:
    """`(weak type, origin)` where the traced value `x` is a Python number on some path."""
    return x.builder.joined_weak.get(x.node.id) if isinstance(x, Tracer) else None


def _python_paths(builder, atoms) -> list:
    """Each way of seeing the joined atoms as their Python type (all, then one by one)."""
    joined = [i for i, a in enumerate(atoms)
              if isinstance(a, Var) and a.id in builder.joined_weak]
    subsets = [joined] if len(joined) > 3 else [
        list(s) for k in range(len(joined), 0, -1) for s in itertools.combinations(joined, k)]
    paths = []
    for subset in subsets:
        alt = list(atoms)
        for i in subset:
            alt[i] = Var(builder.joined_weak[atoms[i].id][0], atoms[i].name)
        paths.append((subset, alt))
    return paths


def _python_number(atom) -> bool:
    return atom.aval.weak if isinstance(atom, Var) else is_python_number(atom.value)


def check(builder, prim, rule, atoms, params, primary) -> None:
    """Raises `PathTypeError` where `prim` on the joined atoms gives another dtype on
    their Python path than `primary` (the output types, or the error it raised)."""
    failed = isinstance(primary, BaseException)
    for subset, alt in _python_paths(builder, atoms):
        python_only = all(_python_number(a) for a in alt)
        if python_only and not failed:
            continue  # Python numbers only: the operator decides (`mark_python_result`)
        if python_only:  # Python's operator there (`q % 10**21` with no int64 to overflow)
            raise _differs(atoms[subset[0]], builder, prim,
                           f"fails on the NumPy value ({primary}), and Python's operator "
                           f"on Python numbers may not")
        try:
            avals = rule(*alt, **params)
        except Exception:  # noqa: BLE001 - fails on that path too: no difference
            continue
        avals = avals if isinstance(avals, (list, tuple)) else [avals]
        if failed:
            raise _differs(atoms[subset[0]], builder, prim,
                           f"fails on the NumPy value ({primary}) but not on the Python number")
        for got, want in zip(avals, primary):
            if got.dtype != want.dtype:
                raise _differs(atoms[subset[0]], builder, prim,
                               f"gives {got.dtype} for the Python number and {want.dtype} "
                               f"for the NumPy value (NumPy's NEP 50 promotion)")


def _differs(atom, builder, prim, what: str) -> PathTypeError:
    python, origin = builder.joined_weak[atom.id]
    name = origin.name
    subject = f"{name!r}" if name else "a value"
    if atom.name and atom.name != name:
        subject = f"{atom.name!r} (computed from {subject})"
    fix = f"`{name} = np.{origin.aval.dtype}(...)`" if name else f"np.{origin.aval.dtype}(...)"
    return PathTypeError(
        f"{subject} is a Python {python_type(python).__name__} on one path of a traced `if` "
        f"or loop and a NumPy {atom.aval.dtype} on another, and {prim.name} {what}"
        f"{location_note(user_source())}; give it one type before the block ({fix})")


def mark_python_result(result, operands, rule) -> None:
    """After an operator on values that are all Python numbers on some path (`q + 1`,
    `q < 0.5`), remembers that its result is one there too (of the type `rule`
    gives on those operands' Python types)."""
    builder = result.builder
    if not builder.joined_weak or result.aval.ndim:
        return
    atoms, origin = [], None
    for x in operands:
        if not isinstance(x, Tracer):
            if not is_python_number(x):
                return
            atoms.append(Literal(x))
            continue
        atom = builder.atom(x)
        if atom.id in builder.joined_weak:
            python, origin = builder.joined_weak[atom.id]
            atom = Var(python)
        atoms.append(atom)
    if origin is not None and all(_python_number(a) for a in atoms):
        builder.joined_weak[result.node.id] = (rule(*atoms), origin)


def exact_literal(value, aval: AbstractValue, label) -> None:
    """Raises `PathTypeError` where the Python number `value`, joined with a NumPy value of
    type `aval` (a branch's, a loop's), would change on conversion (`0.1` as float32)."""
    if not is_python_number(value) or aval.weak:
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            if np.asarray(value, dtype=aval.dtype).item() == value or value != value:
                return
    except OverflowError:  # 300 as int8
        pass
    python = type(value).__name__
    raise PathTypeError(
        f"{repr(label) if label else 'a value'} is the Python {python} {value!r} on one path "
        f"of a traced `if` or loop and a NumPy {aval.dtype} on another, and {aval.dtype} "
        f"cannot hold {value!r} exactly{location_note(user_source())}; give it one type on "
        f"every path (np.{aval.dtype}(...) around this value, or {python}(...) around the "
        f"other)")


def exact_conversion(xp, dtype):
    """A kernel converting a traced Python number to `dtype` where a branch or a loop
    joined them: `PathTypeError` when the graph runs where the value would change."""
    def convert(value):
        out = xp.asarray(value, dtype=dtype)[()]
        if out.item() != value and value == value:
            raise PathTypeError(
                f"the Python number {value!r} is joined, in a traced `if` or loop, with a "
                f"NumPy {np.dtype(dtype)} value, which cannot hold it exactly; give the "
                f"variable one type before the block (np.{np.dtype(dtype)}(...))")
        return out
    return convert
