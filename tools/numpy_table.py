"""docs/numpy.md: what of NumPy a graph stages, generated from the code.

    python tools/numpy_table.py > docs/numpy.md      # or: --write

Lists every public callable of the `numpy`, `numpy.linalg`, `numpy.fft` and
`numpy.random` namespaces (`__all__`), and every public ndarray method and
attribute, with its status:

- **staged, gradient**: traced into the graph, and `ag.grad` differentiates a
  float64 call of it (the gradient rule tables cover every primitive it makes);
- **staged**: traced into the graph (integer results, or arguments the probe
  below does not fit);
- **NumPy's own**: not traced into graph operations, but called when the graph
  runs, on its arrays (`numpy_call`, `runtime/ops/numpy_calls.py`): NumPy's
  answers and errors, no gradient, NumPy tier only; its result's type is
  learnt while tracing by calling it on probes (here: one or two (3, 3)
  float64 matrices, or one or two 3-vectors);
- **a text**: a str of one traced value, formatted when the graph runs
  (`np.array2string`: `runtime.ops.numpy_calls.TEXT_RESULTS`), for `print`,
  an f-string or a result;
- **refused**: a traced argument raises `TracingError`, naming the line and
  `ag.py_function`, the way out.

"Staged" comes from the registries: `runtime.dispatch.array_function_handlers`
and `ufunc_handlers` (what `__array_function__` and `__array_ufunc__` reach),
`runtime.dispatch.staged_elsewhere` (calls that NumPy does not dispatch, which
converted code stages itself), and `Tracer`'s attributes for the methods. The
gradient column comes from running `ag.grad` on a probe: the function of a
(3, 3) float64 matrix (then of two), its float results summed.
tests/test_support_table.py regenerates the table and fails where
docs/numpy.md is stale.
"""
from __future__ import annotations

import argparse
import contextlib
import inspect
import io
import sys
import types
import warnings
from pathlib import Path

import numpy as np

import autograph as ag
import autograph.operators  # noqa: F401  (fills staged_elsewhere)
from autograph_runtime import dispatch
from autograph_runtime.ops.numpy_calls import TEXT_RESULTS, numpy_call_p  # (fills the registries)
from autograph_runtime.tracer_value import Tracer

NAMESPACES = (np, np.linalg, np.fft, np.random)
DOC = Path(__file__).resolve().parent.parent / "docs" / "numpy.md"
GRADIENT, STAGED, OWN, TEXT, REFUSED = ("staged, gradient", "staged", "NumPy's own",
                                       "a text", "refused")
_PROBE = np.eye(3) * 2.0 + np.arange(9.0).reshape(3, 3) / 10.0


def public_callables(module) -> list[tuple[str, object]]:
    """`(name, value)` for each callable in `module.__all__` (modules aside), by name."""
    found = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in sorted(getattr(module, "__all__", ())):
            value = getattr(module, name, None)
            if callable(value) and not isinstance(value, types.ModuleType):
                found.append((name, value))
    return found


def is_staged(value) -> bool:
    if isinstance(value, np.ufunc):
        return (value, "__call__") in dispatch.ufunc_handlers
    try:
        return value in dispatch.array_function_handlers or value in dispatch.staged_elsewhere
    except TypeError:  # unhashable
        return False


def ufunc_methods(ufunc) -> str:
    """The ufunc's staged methods other than calling it (`reduce`, `accumulate`, ...)."""
    return ", ".join(f".{m}" for m in ("reduce", "accumulate", "outer", "at", "reduceat")
                     if (ufunc, m) in dispatch.ufunc_handlers)


def _loss(fn, n):
    def loss(x):
        leaves = [y for y in _leaves(fn(*[x] * n)) if np.asarray(y).dtype.kind in "fc"]
        return sum(np.sum(np.real(y)) for y in leaves)
    return loss


def _leaves(result):
    if isinstance(result, (tuple, list)):
        return [leaf for r in result for leaf in _leaves(r)]
    return [result] if hasattr(result, "dtype") else []


def has_gradient(fn) -> bool:
    """Whether `ag.grad` differentiates `fn` of one (or else two) float64 matrices, with
    at least one float result (a ufunc: of its `nin` matrices, never an `out=`)."""
    for n in (fn.nin,) if isinstance(fn, np.ufunc) else (1, 2):
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings(), \
                    contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                eager = fn(*[_PROBE.copy() for _ in range(n)])  # copies: `out=` writes
                if not any(np.asarray(y).dtype.kind in "fc" for y in _leaves(eager)):
                    continue
                ag.grad(_loss(fn, n))(_PROBE.copy())
            return True
        except Exception:  # the probe does not fit, or no gradient: "staged"
            continue
    return False


def runs_numpys_own(fn) -> bool:
    """Whether a traced call of `fn` on one or two (3, 3) float64 matrices, or one or two
    3-vectors, becomes a `numpy_call` equation."""
    for args in ((_PROBE,), (_PROBE, _PROBE), (_PROBE[0],), (_PROBE[0], _PROBE[0])):
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings(), \
                    contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                graph = ag.convert(lambda *a: fn(*a), autograph=False) \
                    .get_concrete_function(*args).graph
        except Exception:  # the probe does not fit, or it is refused
            continue
        if any(eqn.primitive is numpy_call_p for eqn in graph.all_eqns()):
            return True
    return False


def status(value) -> str:
    if f"numpy.{getattr(value, '__name__', '')}" in TEXT_RESULTS:
        return TEXT
    if not is_staged(value):
        return OWN if callable(value) and runs_numpys_own(value) else REFUSED
    return GRADIENT if callable(value) and not isinstance(value, type) \
        and has_gradient(value) else STAGED


def method_status(name: str) -> str:
    """A method of `Tracer` (a slot of its own, such as `view`, is not one) is staged."""
    if isinstance(inspect.getattr_static(Tracer, name, None), (types.NoneType,
                                                                types.MemberDescriptorType)):
        return REFUSED
    if not callable(getattr(np.ndarray, name)):
        return STAGED
    return GRADIENT if has_gradient(lambda x: getattr(x, name)()) else STAGED


def _table(rows) -> list[str]:
    lines = ["| name | status | notes |", "| --- | --- | --- |"]
    lines += [f"| `{name}` | {st} | {notes} |" for name, st, notes in rows]
    return lines


def render() -> str:
    """The whole of docs/numpy.md."""
    sections, counts = [], {GRADIENT: 0, STAGED: 0, OWN: 0, TEXT: 0, REFUSED: 0}
    for module in NAMESPACES:
        rows = []
        for name, value in public_callables(module):
            st = status(value)
            counts[st] += 1
            notes = ufunc_methods(value) if isinstance(value, np.ufunc) else ""
            if isinstance(value, type):
                notes = "a type: converted code stages its calls" if st != REFUSED \
                    else "a type"
            rows.append((f"{module.__name__}.{name}", st, notes))
        sections += ["", f"## `{module.__name__}`", "", *_table(rows)]
    rows = []
    for name in sorted(n for n in dir(np.ndarray) if not n.startswith("_")):
        st = method_status(name)
        counts[st] += 1
        rows.append((f"ndarray.{name}", st, "" if callable(getattr(np.ndarray, name))
                     else "an attribute"))
    sections += ["", "## `numpy.ndarray` methods and attributes", "", *_table(rows)]
    head = [
        "# NumPy support", "",
        "Generated by `python tools/numpy_table.py --write` from the dispatch registry and",
        "the gradient rule tables (do not edit by hand; tests/test_support_table.py checks",
        f"it is current). NumPy {np.__version__}: "
        f"{counts[GRADIENT]} staged with a gradient, {counts[STAGED]} staged, "
        f"{counts[OWN]} run as NumPy's own, {counts[TEXT]} give a text, "
        f"{counts[REFUSED]} refused.", "",
        "\"staged, gradient\": `ag.grad` differentiates a float64 call of it; \"staged\":",
        "traced, with no gradient found by that probe (integer results, or other",
        "arguments). \"NumPy's own\": the graph calls NumPy's function on its arrays when",
        "it runs (no gradient, NumPy tier only; the result's type is learnt while",
        "tracing, by calling it on probes, and checked when it runs). \"a text\": a str",
        "formatted from the graph's value when it runs. A refused function",
        "raises `TracingError` naming it and your line; the way out is",
        "`ag.py_function(np.f, x, out=ag.TensorSpec(shape, dtype))`.",
    ]
    return "\n".join(head + sections) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write docs/numpy.md")
    text = render()
    if parser.parse_args(argv).write:
        DOC.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
