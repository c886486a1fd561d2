"""`ag.device(name)`: where graph functions run, per thread, part of the cache key.

>>> with device("cpu"):
...     current_device()
'cpu'
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from autograph_runtime.backend import get_backend


class _DeviceState(threading.local):
    device = "cpu"


state = _DeviceState()  # `state.device`: read on every call, so kept one attribute away


def current_device() -> str:
    """The device of the innermost `ag.device` block of this thread ("cpu" outside any)."""
    return state.device


@contextlib.contextmanager
def device(name: str) -> Iterator[None]:
    """Runs graph functions called in the block on `"cpu"` (NumPy) or `"gpu"`/`"gpu:N"` (CuPy).

    Asking for a GPU where none can be used raises `RuntimeError` at once.
    """
    canonical = get_backend(name.lower().strip()).name
    previous, state.device = state.device, canonical
    try:
        yield
    finally:
        state.device = previous
