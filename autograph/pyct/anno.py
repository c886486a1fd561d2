"""Annotations: facts the analyses attach to AST nodes, keyed by an enum.

>>> import gast
>>> node = gast.parse("x = 1").body[0]
>>> setanno(node, Static.LIVE_OUT, frozenset({"x"}))
>>> getanno(node, Static.LIVE_OUT)
frozenset({'x'})
"""
from __future__ import annotations

import enum


class Static(enum.Enum):
    """What the static analyses know about a node."""

    # Members are singletons: hashed by identity, not by `Enum.__hash__` (Python code,
    # run for each of the thousands of annotations a conversion reads and writes).
    __hash__ = object.__hash__

    ORIGIN = "the (filename, line, function) of the user's source this node came from"
    LIVE_OUT = "names read after this statement before being written again (liveness)"
    LIVE_IN = "names read from this statement on before being written again (liveness)"
    DEFINED_IN = "names definitely bound when control reaches this statement"
    MAYBE_DEFINED_IN = "names bound on some path to this statement"
    EXTRA_LOOP_TEST = "an expression a `for` loop also checks before each step (break, return)"
    MODULE_NAME = "the name converted code calls the operators by (`ag__`, unless the user's)"
    CLOSURES = "the user's nested functions and lambdas and the names each reads (a function's)"


_ANNOTATIONS = "_ag_anno"


def setanno(node, key: Static, value) -> None:
    annotations = getattr(node, _ANNOTATIONS, None)
    if annotations is None:
        annotations = {}
        setattr(node, _ANNOTATIONS, annotations)
    annotations[key] = value


def getanno(node, key: Static, default=None):
    return getattr(node, _ANNOTATIONS, {}).get(key, default)
