"""Comparing what the eager function and its graph returned, leaf by leaf, as readable text.

The eager result is the oracle. A graph returns its traced values as arrays:
a NumPy scalar from eager matches a 0-d array of its dtype, and a Python
bool, int or float a 0-d array of the same kind, any width (a Python number
is weakly typed, as in NumPy's own promotion), or of a wider kind holding
exactly its value (eager's `0` where the graph joined that Python number with
a float32 value on another path, as `join_weak` does). Python values the graph kept
as they are must equal eager's. Floats and complex numbers match within
`rtol` and `atol` (NaNs equal); everything else exactly.

>>> [d.path for d in differences({"loss": 1.5, "n": np.arange(2)},
...                              {"loss": np.array(1.5), "n": np.array([0, 2])})]
["out['n']"]
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from autograph_runtime.tree import flatten, leaf_paths

_PYTHON_KINDS = {bool: "b", int: "iu", float: "f", complex: "c"}
_WIDER_KINDS = {bool: "iufc", int: "fc", float: "c", complex: ""}


@dataclasses.dataclass
class Difference:
    """One leaf that differs: its path (`out[1]['loss']`), what differs, and the details."""

    path: str
    what: str
    details: list[str]
    output_index: int | None = None  # which of the graph's array outputs it is

    def lines(self) -> list[str]:
        """The difference as indented text; an array's later lines align with its first."""
        details = [line.replace("\n", "\n" + " " * (2 + len("eager: "))) for line in self.details]
        return [f"{self.path}: {self.what}"] + [f"  {line}" for line in details]


def type_text(x) -> str:
    """`float32[2,3]` for an array, the type name for anything else."""
    if isinstance(x, (np.ndarray, np.generic)):
        return f"{x.dtype.name}[{','.join(map(str, np.shape(x)))}]"
    return type(x).__name__


def value_text(x, limit: int = 24) -> str:
    """An array or value, abbreviated like NumPy prints it (may span lines)."""
    if type(x) in _PYTHON_KINDS:
        return f"{x!r}  (Python {type(x).__name__})"
    if isinstance(x, (np.ndarray, np.generic)):
        text = np.array2string(np.asarray(x), threshold=limit, edgeitems=3, max_line_width=76)
        return f"{text}  ({type_text(x)})"
    text = repr(x)
    return text if len(text) <= 200 else text[:197] + "..."


def _at(index: tuple) -> str:
    return f" at [{', '.join(str(int(i)) for i in index)}]" if index else ""


def _close(want: np.ndarray, got: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    kind = want.dtype.kind
    if kind in "fc":
        return np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    if kind in "mM":
        return (got == want) | (np.isnat(got) & np.isnat(want))
    return np.asarray(got == want, dtype=bool)


def error_text(want: np.ndarray, got: np.ndarray, differ: np.ndarray) -> list[str]:
    """The largest absolute and relative errors among the elements that differ."""
    if want.dtype.kind not in "biufc" or got.dtype.kind not in "biufc":
        first = tuple(np.argwhere(differ)[0])
        return [f"first difference{_at(first)}: eager {want[first]!r}, "
                f"graph {got[first]!r}"]
    work = np.complex128 if "c" in (want.dtype.kind, got.dtype.kind) else np.float64
    w, g = want.astype(work), got.astype(work)
    with np.errstate(all="ignore"):
        abs_err = np.abs(g - w)
        rel_err = abs_err / np.abs(w)
    finite = differ & np.isfinite(abs_err)
    lines = []
    if finite.any():
        i = np.unravel_index(np.argmax(np.where(finite, abs_err, -np.inf)), want.shape)
        line = f"largest absolute error {abs_err[i]:.6g}{_at(i)}"
        relative = finite & (w != 0)
        if relative.any():
            j = np.unravel_index(np.argmax(np.where(relative, rel_err, -np.inf)), want.shape)
            line += f", largest relative error {rel_err[j]:.6g}{_at(j)}"
        lines.append(line)
    special = differ & ~np.isfinite(abs_err)
    if special.any():
        k = tuple(np.argwhere(special)[0])
        lines.append(f"{int(special.sum())} element(s) differ in nan or inf, the first"
                     f"{_at(k) or ' element'}: eager {w[k]}, graph {g[k]}")
    return lines


def _array_difference(path, want, got, rtol, atol, eager) -> Difference | None:
    both = [f"eager: {value_text(eager)}", f"graph: {value_text(got)}"]
    if got.dtype != want.dtype:
        return Difference(path, f"dtype differs: eager {want.dtype}, graph {got.dtype}", both)
    if got.shape != want.shape:
        return Difference(path, f"shape differs: eager {want.shape}, graph {got.shape}", both)
    differ = ~_close(want, got, rtol, atol)
    if not differ.any():
        return None
    tolerance = f" (rtol={rtol:g}, atol={atol:g})" if want.dtype.kind in "fc" else ""
    what = f"values differ in {int(differ.sum())} of {want.size} element(s){tolerance}"
    return Difference(path, what, both + error_text(want, got, differ))


def _same_python(e, g) -> bool:
    if type(e) is not type(g):
        return False
    if isinstance(e, float) and math.isnan(e):
        return math.isnan(g)
    try:
        return bool(e == g)
    except Exception:  # a comparison that is not a bool (an object's own __eq__)
        return e is g


def leaf_difference(path: str, e, g, rtol: float, atol: float) -> Difference | None:
    """How eager's leaf `e` and the graph's leaf `g` differ (None where they match)."""
    both = [f"eager: {value_text(e)}", f"graph: {value_text(g)}"]
    if not isinstance(g, np.ndarray):  # a Python value the graph returned as it is
        if _same_python(e, g):
            return None
        if type(e) is not type(g):
            return Difference(path, f"type differs: eager {type_text(e)}, graph "
                                    f"{type_text(g)}", both)
        return Difference(path, "the graph returns another value (one fixed while tracing)", both)
    if isinstance(e, (np.ndarray, np.generic)):
        want = np.asarray(e)
    elif type(e) in _PYTHON_KINDS:
        if g.dtype.kind in _WIDER_KINDS[type(e)] and g.ndim == 0 and g.item() == e:
            return None
        if g.dtype.kind not in _PYTHON_KINDS[type(e)]:
            return Difference(path, f"dtype differs: eager a Python {type(e).__name__}, "
                                    f"graph {g.dtype}", both)
        want = np.asarray(e).astype(g.dtype)
    else:
        return Difference(path, f"type differs: eager {type_text(e)}, graph an array", both)
    return _array_difference(path, want, g, rtol, atol, e)


def differences(expected, got, rtol: float = 1e-6, atol: float = 0.0) -> list[Difference]:
    """Every leaf where `got` (the graph's result) differs from `expected` (eager's)."""
    e_leaves, e_tree = flatten(expected)
    g_leaves, g_tree = flatten(got)
    if e_tree != g_tree:
        return [Difference("out", f"structure differs: eager returns {e_tree!r}, the graph "
                                  f"returns {g_tree!r}",
                           [f"eager: {value_text(expected)}", f"graph: {value_text(got)}"])]
    found, outputs = [], 0
    for path, e, g in zip(leaf_paths(e_tree, "out"), e_leaves, g_leaves):
        difference = leaf_difference(path, e, g, rtol, atol)
        if difference is not None:
            difference.output_index = outputs if isinstance(g, np.ndarray) else None
            found.append(difference)
        outputs += isinstance(g, np.ndarray)
    return found
