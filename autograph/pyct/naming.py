"""Readable, unique names for generated code (`if_true`, `loop_body_1`, ...).

One `Namer` per converted function hands out every name the converters
generate; none equals a name the user's function uses (a variable, a
parameter, a nested `def`, an imported alias, a `global`) or one handed out
before, so a user variable named `itr`, `loop_body` or `itr_1` stays the
user's:

>>> import gast
>>> namer = Namer(gast.parse("def f(itr, itr_1):\\n    loop_body = itr").body[0])
>>> namer.new("itr"), namer.new("loop_body"), namer.new("loop_body")
('itr_2', 'loop_body_1', 'loop_body_2')

Generated code reaches the operators as `ag__`. Where the user's function has
a name `ag__` of its own, `hide_module_name` moves it aside before the
converters run and `restore_module_name` gives it back after, the operators
then going by a fresh name (`ag___1`).
"""
from __future__ import annotations

import gast

from .transformer import walk

MODULE = "ag__"


def _names_in(node) -> set:
    names = set()
    for child in walk(node):
        if isinstance(child, gast.Name):
            names.add(child.id)
        elif isinstance(child, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            names.add(child.name)
        elif isinstance(child, (gast.Global, gast.Nonlocal)):
            names.update(child.names)
        elif isinstance(child, gast.alias):
            names.add((child.asname or child.name).split(".")[0])
    return names


class Namer:
    """Hands out names not used anywhere in the function being converted."""

    def __init__(self, function_node):
        self.user_names = frozenset(_names_in(function_node))
        self._used = set(self.user_names) | {MODULE}

    def new(self, stem: str) -> str:
        name, n = stem, 0
        while name in self._used:
            n += 1
            name = f"{stem}_{n}"
        self._used.add(name)
        return name


def rename(node, old: str, new: str) -> None:
    """Renames every binding and use of `old` in `node` (string constants equal to it too:
    the labels generated code passes for error messages)."""
    for child in walk(node):
        if isinstance(child, gast.Name) and child.id == old:
            child.id = new
        elif isinstance(child, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)) \
                and child.name == old:
            child.name = new
        elif isinstance(child, (gast.Global, gast.Nonlocal)):
            child.names = [new if n == old else n for n in child.names]
        elif isinstance(child, gast.alias) and (child.asname or child.name) == old:
            child.asname = new
        elif isinstance(child, gast.Constant) and child.value == old:
            child.value = new


def hide_module_name(node, namer: Namer):
    """Renames the user's own `ag__` (if any) out of the way; returns what it became."""
    if MODULE not in namer.user_names:
        return None
    hidden = namer.new("ag__user_name")
    rename(node, MODULE, hidden)
    return hidden


def restore_module_name(node, namer: Namer, hidden) -> str:
    """Gives the user's `ag__` back; returns the name generated code uses for the operators."""
    if hidden is None:
        return MODULE
    module = namer.new(MODULE)
    rename(node, MODULE, module)
    rename(node, hidden, MODULE)
    return module
