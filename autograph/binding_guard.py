"""The short path's check of the bindings a graph's trace read (`frozen_bindings.py`).

A graph whose trace read plain attributes of `self`, globals or closure cells
runs, on the short path, behind `guard`: compiled code that reads each
binding and compares it by identity with the value the trace read
(`self.w is v0 and G['W'] is v1 and c0.cell_contents is v2`), a few tens of
nanoseconds. A mismatch takes the slow check,
`FrozenBindings.changed`: an equal new object is taken in and the graph runs;
another value raises `BindingChanged`, and the graph function sends the call
down its full path, which traces again (`GraphFunction._lookup`). A graph that
read no such binding runs unguarded, at no cost.
"""
from __future__ import annotations

import functools

from .frozen_bindings import FrozenBindings


class BindingChanged(Exception):
    """A binding a graph's trace read holds another value: the call must trace again."""


def guard(run, frozen: FrozenBindings, n_arrays: int):
    """`run` (the short path's callable, `run(*arrays)` of `n_arrays` arrays) checking
    `frozen` before each call."""
    make = _checker(frozen.attributes, frozen.global_names, len(frozen.cells), n_arrays)
    return make(run, frozen.instance, frozen.module, frozen.cells, frozen.values,
                frozen.changed, BindingChanged)


@functools.lru_cache(maxsize=256)
def _checker(attributes: tuple, global_names: tuple, n_cells: int, n_arrays: int):
    """`make(run, instance, G, cells, values, changed, BindingChanged)` -> `run_checked`,
    compiled once per layout of bindings (names are identifiers; globals by `repr`) and
    number of arrays (named parameters: no tuple of them to pack and unpack)."""
    n = len(attributes) + len(global_names) + n_cells
    arrays = ", ".join(f"x{i}" for i in range(n_arrays))
    kept = ", ".join(f"v{i}" for i in range(n)) + ","   # the values, as closure cells
    tests = [f"s.{name} is v{i}" for i, name in enumerate(attributes)]
    tests += [f"G[{name!r}] is v{i}" for i, name in enumerate(global_names, len(attributes))]
    tests += [f"c{j}.cell_contents is v{i}"
              for j, i in enumerate(range(n - n_cells, n))]
    lines = ["def make(run, instance, G, cells, values, changed, BindingChanged):",
             f"    {kept} = values"]
    if n_cells:
        lines.append("    " + "".join(f"c{j}, " for j in range(n_cells)) + "= cells")
    lines += [f"    def run_checked({arrays}):",
              f"        nonlocal {kept[:-1]}",
              "        try:"]
    if attributes:
        lines.append("            s = instance()")
    lines += [f"            same = {' and '.join(tests)}",
              "        except (AttributeError, KeyError, ValueError):   # deleted, an empty cell",
              "            same = False",
              "        if not same:",
              "            if changed() is not None:",
              "                raise BindingChanged",
              f"            {kept} = values   # equal new objects, taken in",
              f"        return run({arrays})",
              "    return run_checked"]
    source = "\n".join(lines) + "\n"
    scope: dict = {}
    exec(compile(source, "<binding guard>", "exec"), scope)  # noqa: S102  (identifiers only)
    return scope["make"]
