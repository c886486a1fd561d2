"""The trace log: what graph functions trace, and why, on `logging.getLogger("autograph")`.

Every record is INFO, but a converted source (DEBUG): a conversion and its
time, a trace (the function, its trace count, the signature it traced for and
why: a new function, or which argument changed since the previous trace, in
`describe_changes`'s words), a relaxed trace abandoned for exact per-shape
traces (`reduce_retracing`), a graph evicted from a full cache, a native
compile and its time, and a Python loop still unrolling while it traces.
Nothing is formatted unless the logger is enabled for it. Turn it on with
`set_verbosity` (`ag.set_verbosity`, `AUTOGRAPH_VERBOSITY`) or with the `logging` module:

>>> import logging, sys
>>> import numpy as np
>>> import autograph as ag
>>> handler = logging.StreamHandler(sys.stdout)
>>> logging.getLogger("autograph").addHandler(handler)
>>> logging.getLogger("autograph").setLevel(logging.INFO)
>>> f = ag.convert(lambda x, n: x * n)  # doctest: +ELLIPSIS
autograph: converted <lambda> (...) in ... ms
>>> _ = f(np.ones(3, np.float32), 2)
autograph: traced <lambda> (trace 1) for (x: float32[3], n=2) on cpu: a new function
>>> _ = f(np.ones(4, np.float32), 2)
autograph: traced <lambda> (trace 2) for (x: float32[4], n=2) on cpu:
    argument 'x' changed from float32[3] to float32[4]
>>> logging.getLogger("autograph").removeHandler(handler)
>>> logging.getLogger("autograph").setLevel(logging.NOTSET)
"""
from __future__ import annotations

import logging
import os
import sys

from autograph_runtime.tree import leaf_paths

from .cache_keys import ObjectKey, PyKey, Structure, is_array_key

logger = logging.getLogger("autograph")
_handler: list = []   # the stderr handler `set_verbosity` added, if it did


def set_verbosity(level: int) -> None:
    """How much the `autograph` logger tells (`ag.set_verbosity`; `AUTOGRAPH_VERBOSITY`):
    0 nothing; 1 each conversion, trace (its signature and why), native compile and its
    time, and a Python loop still unrolling while it traces (every 1,000 trips); 2 also
    the converted source of each function. Where neither the logger nor the root logger
    has a handler, records go to stderr."""
    level = int(level)
    if level < 0:
        raise ValueError(f"a verbosity is 0 or more, got {level}")
    logger.setLevel(logging.WARNING if level == 0 else logging.INFO if level == 1
                    else logging.DEBUG)
    if level and not _handler and not logger.handlers and not logging.getLogger().handlers:
        _handler.append(logging.StreamHandler(sys.stderr))
        _handler[0].setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(_handler[0])


def converted(function: str, origin: str, seconds: float, source) -> None:
    """Records the conversion of `function` (at `origin`), and at level 2 its source
    (`source()` makes it)."""
    if logger.isEnabledFor(logging.INFO):
        logger.info("autograph: converted %s (%s) in %.1f ms", function, origin,
                    seconds * 1e3)
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("autograph: the converted source of %s:\n%s", function, source())


def compiled(graph: str, seconds: float, outcome: str) -> None:
    """Records a native compile of `graph` and what the tier chose."""
    if logger.isEnabledFor(logging.INFO):
        logger.info("autograph: compiled graph %s to machine code in %.2f s: %s",
                    graph, seconds, outcome)


def unrolling(where: str, count: int) -> None:
    """Records a Python loop that has run `count` trips while tracing, and goes on."""
    if logger.isEnabledFor(logging.INFO):
        logger.info("autograph: still tracing: a Python loop%s has run %d trips so far, "
                    "each a copy of its body in the graph", where, count)


def traced(function: str, count: int, trees: Structure, keys, device: str, why: str) -> None:
    """Records trace number `count` of `function`, for `keys` (relaxed ones where relaxed)."""
    if logger.isEnabledFor(logging.INFO):
        logger.info("autograph: traced %s (trace %d) for (%s) on %s: %s",
                    function, count, signature_text(trees, keys), device, why)


def relaxed_fallback(function: str, trees: Structure, keys, error: BaseException) -> None:
    """Records a relaxed trace that failed, so the call traces its exact shapes instead."""
    if logger.isEnabledFor(logging.INFO):
        logger.info("autograph: %s abandoned the relaxed trace for (%s) and traces exact "
                    "shapes instead: the relaxed trace raised %s: %s", function,
                    signature_text(trees, keys), type(error).__name__, error)


def evicted(function: str, trees: Structure, keys, bound: int) -> None:
    """Records a graph dropped from a full cache (the least recently used of `bound`)."""
    if logger.isEnabledFor(logging.INFO):
        logger.info("autograph: %s dropped its graph for (%s): its cache keeps %d",
                    function, signature_text(trees, keys), bound)


def signature_text(trees: Structure, keys) -> str:
    """`x: float32[?], n=2, model=<Model>`: array leaves by type, Python leaves by value."""
    labels = [path for name, tree in zip(trees.names, trees.trees)
              for path in leaf_paths(tree, name)]
    parts = []
    for label, key in zip(labels, keys):
        if is_array_key(key):
            parts.append(f"{label}: {key}")
        elif isinstance(key, PyKey):
            parts.append(f"{label}={key}")
        elif isinstance(key, ObjectKey):
            parts.append(f"{label}=<{key.type.__name__}>")
    return ", ".join(parts)


if os.environ.get("AUTOGRAPH_VERBOSITY", "").strip():
    set_verbosity(int(os.environ["AUTOGRAPH_VERBOSITY"]))
