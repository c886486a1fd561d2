"""Eager fallback: a call whose trace is refused runs as plain Python instead.

Tracing refuses what a graph cannot hold: a list used as a queue whose length
a traced value decides, a dict keyed by traced values, a text needed while
tracing, Python syntax no converter handles. By default such a call does not
fail: the original function runs on the call's own arguments, as
`ag.run_functions_eagerly` would run it, so its answer is eager NumPy's; a
`FallbackWarning` (once per signature) names the refusal and its line, and
later calls with that signature run eagerly at once, without tracing again.
This is `torch.compile`'s graph break at the scale of a whole function.

>>> import warnings
>>> import numpy as np
>>> import autograph as ag
>>> @ag.convert(eager_fallback=True)   # the default (the test suite turns it off)
... def reachable(adj, start):
...     seen, todo = {start}, [start]
...     while todo:
...         v = todo.pop()
...         for u in np.flatnonzero(adj[v]):
...             if u not in seen:
...                 seen.add(int(u))
...                 todo.append(int(u))
...     return sorted(seen)
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore", ag.FallbackWarning)
...     reachable(np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]]), 0)
[0, 1, 2]

A graph without effects (no print, variable write, Python call or random draw)
that fails where eager code would not, on a path returning None where another
returns a value, runs that call eagerly too.

Where a graph is what was asked for, a refusal is still an error:
`get_concrete_function`, `ag.grad`, `ag.save`, `ag.export_onnx`, a call
inside another trace (that trace is refused, and its own call falls back), a
call in an `ag.device` block other than the CPU, and the pytest plugin's
checks. `ag.convert(..., eager_fallback=False)`, or `ag.set_eager_fallback(False)`
for functions converted without it, makes every refusal an error.
"""
from __future__ import annotations

from autograph_runtime.errors import TracingError

from .pyct.errors import ConversionError


class FallbackWarning(UserWarning):
    """A call of a graph function runs as plain Python: its trace was refused."""


class _Settings:
    eager_fallback = True


settings = _Settings()


def set_eager_fallback(flag: bool) -> bool:
    """Whether graph functions converted without `eager_fallback=` run a call whose trace
    is refused as plain Python (True, the default) or raise the refusal; returns the
    setting it replaces."""
    before, settings.eager_fallback = settings.eager_fallback, bool(flag)
    return before


def is_refusal(error: BaseException) -> bool:
    """Whether `error` is tracing's refusal of something a graph cannot hold (which plain
    Python runs), not an error the function itself raised."""
    return isinstance(error, (TracingError, ConversionError))


def warning_text(name: str, error: BaseException) -> str:
    reason = str(error).split("\n", 1)[0]
    why = "no graph: tracing it was refused" if is_refusal(error) else \
        "its graph cannot give eager's answer"
    return (f"{name} runs as plain Python for calls like this one ({why}: {reason}); its "
            f"results are eager NumPy's. ag.convert(..., eager_fallback=False) makes this "
            f"an error")
