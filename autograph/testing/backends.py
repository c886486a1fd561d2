"""The backends graph-equivalence checks run on, and running a graph function on one of them.

"cpu" (NumPy) is always there; "gpu" (CuPy) where CuPy sees a GPU. The pytest
option `--ag-backend` narrows the list (`select`); outside pytest, checks use
every backend found.

>>> parse_backends("cpu")
['cpu']
>>> parse_backends("cpu,tpu")
Traceback (most recent call last):
...
ValueError: unknown backend 'tpu': choose from cpu, gpu
"""
from __future__ import annotations

import functools

from runtime.backend import gpu_available
from runtime.tree import flatten

from ..device import device

KNOWN = ("cpu", "gpu")
_selected: list[str] | None = None  # what --ag-backend chose (None: every backend found)


@functools.cache
def available_backends() -> list[str]:
    """"cpu", plus "gpu" where CuPy sees a GPU."""
    return ["cpu"] + (["gpu"] if gpu_available() else [])


def parse_backends(text: str) -> list[str]:
    """A comma-separated list of backends (`cpu`, `gpu`, `cpu,gpu`), each one found here."""
    names = list(dict.fromkeys(n.strip().lower() for n in text.split(",") if n.strip()))
    if not names:
        raise ValueError("no backend named: write cpu, gpu or cpu,gpu")
    for name in names:
        if name not in KNOWN:
            raise ValueError(f"unknown backend {name!r}: choose from {', '.join(KNOWN)}")
        if name not in available_backends():
            raise ValueError(f"{name} was asked for, but CuPy cannot see a GPU on this machine "
                             f"(backends found: {', '.join(available_backends())})")
    return names


def select(names: list[str] | None) -> list[str] | None:
    """Makes `names` the backends of every check (None: all found); returns the previous choice."""
    global _selected
    previous, _selected = _selected, None if names is None else list(names)
    return previous


def selected_backends() -> list[str]:
    """The backends checks run on now."""
    return list(_selected) if _selected is not None else available_backends()


def on_backend(name: str):
    """The context in which graph functions run on backend `name`."""
    return device(name)


def to_host(value):
    """`value` with every CuPy array in it copied back into a NumPy array."""
    leaves, tree = flatten(value)
    if not any(hasattr(x, "__cuda_array_interface__") for x in leaves):
        return value
    return tree.unflatten([x.get() if hasattr(x, "__cuda_array_interface__") else x
                           for x in leaves])
