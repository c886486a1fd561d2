"""`ag.device(name)`: where graph functions run, per thread, part of the cache key.

>>> with device("cpu"):
...     current_device()
'cpu'
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from autograph_runtime.call_modes import entered
from autograph_runtime.backend import get_backend
from autograph_runtime.dask_arrays import DEFAULT_MAX_GATHER
from autograph_runtime.dask_backend import dask_backend


class _DeviceState(threading.local):
    device = "cpu"


state = _DeviceState()  # `state.device`: read on every call, so kept one attribute away


def current_device() -> str:
    """The device of the innermost `ag.device` block of this thread ("cpu" outside any)."""
    return state.device


@contextlib.contextmanager
def device(name: str | Any, *, chunks: str | int | tuple | dict = "auto",
           compute: bool = False, persist_every: int = 1,
           max_gather: int | str | None = DEFAULT_MAX_GATHER) -> Iterator[None]:
    """Runs graph functions called in the block on `"cpu"` (NumPy), `"gpu"`/`"gpu:N"`
    (CuPy), `"dask"` (`dask.array`) or a `dask.distributed.Client` (its cluster).

    Asking for a GPU where none can be used, or for Dask where it is not
    installed, raises `RuntimeError` at once. The options are the Dask
    device's (docs/dask.md): `chunks` of NumPy inputs (Dask's "auto", or what
    `dask.array.from_array` takes), `compute=True` to get NumPy results
    rather than Dask arrays, `persist_every=k` to persist a loop's carried
    arrays every k trips, `max_gather` the largest block (bytes, or a string
    such as "1 GiB"; None: no limit) a primitive with no chunked form may gather
    (default 256 MiB; beyond it `DaskGatherError`). Each set of options is a
    device of its own.
    """
    if not isinstance(name, str):   # a dask.distributed.Client
        if not hasattr(name, "scheduler") or not hasattr(name, "persist"):
            raise TypeError(f"ag.device takes a name or a dask.distributed.Client, "
                            f"got {type(name).__name__}")
        canonical = dask_backend(chunks, compute, persist_every, name, max_gather).name
    elif name.lower().strip() == "dask":
        canonical = dask_backend(chunks, compute, persist_every, None, max_gather).name
    elif (chunks, compute, persist_every, max_gather) != ("auto", False, 1, DEFAULT_MAX_GATHER):
        raise ValueError(f"chunks, compute, persist_every and max_gather are options of a "
                         f"Dask device, not of {name!r}")
    else:
        canonical = get_backend(name.lower().strip()).name
    previous, state.device = state.device, canonical
    try:
        with entered():   # calls read `state.device` (`autograph_runtime.call_modes`)
            yield
    finally:
        state.device = previous
