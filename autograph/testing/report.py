"""The text of a failed graph-equivalence check: inputs, outcomes, hints and the user's line.

>>> print(error_text(ValueError("bad shape")))
ValueError: bad shape
>>> printed_difference("step 1\\nstep 2\\n", "step 1\\n")
["eager printed 'step 1\\\\nstep 2\\\\n'", "graph printed 'step 1\\\\n'", \
"first different line 2: eager 'step 2', graph nothing"]
"""
from __future__ import annotations

import inspect
import re

import numpy as np

from autograph_runtime.ir import Literal

from .compare import type_text, value_text

_LOCATION = re.compile(r"\b(?:at|from) ([^\s()]+):(\d+) in ")


def error_text(error: BaseException) -> str:
    """`Type: message`, then the notes the error carries (each on its own line)."""
    lines = [f"{type(error).__name__}: {error}".rstrip(": ")]
    lines += [f"  {note}" for note in getattr(error, "__notes__", ())]
    return "\n".join(lines)


def error_line(error: BaseException, filename: str) -> int | None:
    """The line of `filename` that an error or its notes name ("... at FILE:LINE in f")."""
    found = [(name, int(line)) for text in (str(error), *getattr(error, "__notes__", ()))
             for name, line in _LOCATION.findall(text)]
    same_file = [line for name, line in found if name == filename]
    return (same_file or [None])[0]


def output_origin(graph, index: int):
    """Where the graph's output `index` comes from: a `SourceInfo`, "constant" or "input"."""
    atom = graph.outputs[index]
    if isinstance(atom, Literal) or atom in graph.consts:
        return "constant"
    if any(atom is x for x in graph.inputs):
        return "input"
    for eqn in graph.eqns:
        if any(atom is out for out in eqn.outputs):
            return eqn.source
    return None


def _line(x) -> str:
    if isinstance(x, (np.ndarray, np.generic)):
        text = np.array2string(np.asarray(x), threshold=8, edgeitems=2, max_line_width=10**6)
        return f"{' '.join(text.split())} ({type_text(x)})"
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def inputs_text(fn, args: tuple, kwargs: dict) -> str:
    """`x=[1. 2.] (float64[2]), n=3`: the arguments of one call, by parameter name."""
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs).arguments
    except (TypeError, ValueError):
        bound = {**{f"args[{i}]": a for i, a in enumerate(args)}, **kwargs}
    parts = []
    for name, value in bound.items():
        if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
            value = type(value)(value)  # *args arrive as a tuple
        if isinstance(value, dict) and not isinstance(value, np.ndarray):
            parts.append(f"{name}={{{', '.join(f'{k!r}: {_line(v)}' for k, v in value.items())}}}")
        elif isinstance(value, (tuple, list)):
            parts.append(f"{name}=[{', '.join(_line(v) for v in value)}]")
        else:
            parts.append(f"{name}={_line(value)}")
    return ", ".join(parts) or "(none)"


def printed_difference(eager: str, graph: str) -> list[str]:
    """What each side printed, and the first line where they part."""
    lines = [f"eager printed {_clip(eager)}", f"graph printed {_clip(graph)}"]
    eager_lines, graph_lines = eager.splitlines(), graph.splitlines()
    for i in range(max(len(eager_lines), len(graph_lines))):
        e = eager_lines[i] if i < len(eager_lines) else None
        g = graph_lines[i] if i < len(graph_lines) else None
        if e != g:
            lines.append(f"first different line {i + 1}: eager {_clip(e)}, graph {_clip(g)}")
            break
    return lines


def _clip(text: str | None) -> str:
    if text is None:
        return "nothing"
    shown = repr(text)
    return shown if len(shown) <= 160 else shown[:157] + "...'"


FROZEN_HINT = (
    "The earlier inputs matched and these have the same signature, so the graph kept "
    "something it computed while tracing: a Python side effect, or a global or closure "
    "value read while tracing, runs only while tracing (as in tf.function).")
PRINT_HINT = (
    "Output printed only while tracing: print() in converted code prints at every call, but "
    "other Python side effects (sys.stdout.write, logging, print(..., file=...)) run only "
    "while tracing; ag.py_function runs Python at every call.")
RETRACE_HINT = (
    "Each new cache key traces anew, which is slow: pass NumPy values rather than Python "
    "numbers, and give an input_signature with None dimensions (or reduce_retracing=True) "
    "for shapes that vary.")
CONSTANT_HINT = "{path} is a constant of the graph: computed while tracing, not from the inputs."


def value_difference_lines(eager_value, graph_value) -> list[str]:
    """Both results, on a line each, for outcomes that are not comparable leaf by leaf."""
    return [f"eager returned {value_text(eager_value)}", f"graph returned {value_text(graph_value)}"]
