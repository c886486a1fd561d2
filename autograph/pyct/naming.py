"""Readable, unique names for generated code (`if_true`, `loop_body_1`, ...)."""
from __future__ import annotations

import gast


class Namer:
    """Hands out names not used anywhere in the function being converted."""

    def __init__(self, function_node):
        self._used = {n.id for n in gast.walk(function_node) if isinstance(n, gast.Name)}
        self._used |= {n.name for n in gast.walk(function_node)
                       if isinstance(n, (gast.FunctionDef, gast.ClassDef))}
        self._used.add("ag__")

    def new(self, stem: str) -> str:
        name, n = stem, 0
        while name in self._used:
            n += 1
            name = f"{stem}_{n}"
        self._used.add(name)
        return name
