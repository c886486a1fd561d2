"""The backends graph-equivalence checks run on, and running a graph function on one of them.

"cpu" (NumPy) is always there; "native" (the CPU with `tier="native"`: graphs
compiled by Numba) where Numba imports; "gpu" (CuPy) where CuPy sees a GPU;
"dask" (`ag.device("dask", chunks=2, compute=True)`: small chunks, so that
the checks cross chunk boundaries) where Dask imports. The pytest option
`--ag-backend` chooses (`select`); by default checks run on every backend
found but "native", whose compiles take seconds a function, and "dask"
(`--ag-backend=cpu,native,dask` adds them).

>>> parse_backends("cpu")
['cpu']
>>> parse_backends("cpu,tpu")
Traceback (most recent call last):
...
ValueError: unknown backend 'tpu': choose from cpu, native, gpu, dask
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util

from autograph_runtime import native
from autograph_runtime.backend import gpu_available
from autograph_runtime.tree import flatten

from ..device import device
from ..tiers import using_tier

KNOWN = ("cpu", "native", "gpu", "dask")
OPT_IN = ("native", "dask")   # found, but checked only where asked for
_selected: list[str] | None = None  # what --ag-backend chose (None: every backend found)


@functools.cache
def available_backends() -> list[str]:
    """"cpu", plus "native", "gpu" and "dask" where Numba, a GPU and Dask can be used."""
    return ["cpu"] + (["native"] if native.available() else []) + (
        ["gpu"] if gpu_available() else []) + (["dask"] if _dask_available() else [])


def _dask_available() -> bool:
    """Whether Dask is installed (found, not imported: imported only when used)."""
    return importlib.util.find_spec("dask") is not None


def default_backends() -> list[str]:
    """The backends checks run on without `--ag-backend`: every one found but the opt-in ones."""
    return [name for name in available_backends() if name not in OPT_IN]


def parse_backends(text: str) -> list[str]:
    """A comma-separated list of backends (`cpu`, `gpu`, `cpu,gpu`), each one found here."""
    names = list(dict.fromkeys(n.strip().lower() for n in text.split(",") if n.strip()))
    if not names:
        raise ValueError("no backend named: write cpu, native, gpu, dask or a list (cpu,native)")
    for name in names:
        if name not in KNOWN:
            raise ValueError(f"unknown backend {name!r}: choose from {', '.join(KNOWN)}")
        if name not in available_backends():
            missing = {"gpu": "CuPy cannot see a GPU on this machine",
                       "dask": "Dask is not installed"}.get(name, "Numba is not installed")
            raise ValueError(f"{name} was asked for, but {missing} "
                             f"(backends found: {', '.join(available_backends())})")
    return names


def select(names: list[str] | None) -> list[str] | None:
    """Makes `names` the backends of every check (None: all found); returns the previous choice."""
    global _selected
    previous, _selected = _selected, None if names is None else list(names)
    return previous


def selected_backends() -> list[str]:
    """The backends checks run on now."""
    return list(_selected) if _selected is not None else default_backends()


@contextlib.contextmanager
def on_backend(name: str):
    """The context in which graph functions run on backend `name`."""
    if name == "native":
        with device("cpu"), using_tier("native"):
            yield
    elif name == "dask":
        with device("dask", chunks=2, compute=True):
            yield
    else:
        with device(name):
            yield


def to_host(value):
    """`value` with every CuPy array in it copied back into a NumPy array."""
    leaves, tree = flatten(value)
    if not any(hasattr(x, "__cuda_array_interface__") for x in leaves):
        return value
    return tree.unflatten([x.get() if hasattr(x, "__cuda_array_interface__") else x
                           for x in leaves])
