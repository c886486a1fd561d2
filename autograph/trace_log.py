"""The trace log: what graph functions trace, and why, on `logging.getLogger("autograph")`.

Every record is INFO: a trace (the function, its trace count, the signature
it traced for and why: a new function, or which argument changed since the
previous trace, in `describe_changes`'s words), a relaxed trace abandoned for
exact per-shape traces (`reduce_retracing`), and a graph evicted from a full
cache. Nothing is formatted unless the logger is enabled for INFO. Turn it on
with the `logging` module:

>>> import logging, sys
>>> import numpy as np
>>> import autograph as ag
>>> handler = logging.StreamHandler(sys.stdout)
>>> logging.getLogger("autograph").addHandler(handler)
>>> logging.getLogger("autograph").setLevel(logging.INFO)
>>> f = ag.convert(lambda x, n: x * n)
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

from runtime.tree import leaf_paths

from .cache_keys import ObjectKey, PyKey, Structure, is_array_key

logger = logging.getLogger("autograph")


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
