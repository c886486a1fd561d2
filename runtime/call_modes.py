"""Whether any thread is in a mode that changes what a graph function's call does.

A call of a graph function behaves differently while its thread traces (it
stages into the caller's graph), runs inside an `ag.device` block (its graph is
compiled for that device), or while `ag.run_functions_eagerly` is on. The first
two are per thread, and a thread-local attribute costs 30-60 ns to read; the
short call path reads one global instead, `modes.entered`: the number of such
modes entered and not yet left, in all threads together. Where it is 0 no
thread is in any of them, and the call needs no thread-local read at all;
otherwise the call reads its own thread's state as before.

>>> modes.entered
0
>>> with entered():
...     modes.entered
1
"""
from __future__ import annotations

import contextlib
import threading


class _Modes:
    __slots__ = ("entered", "_lock")

    def __init__(self):
        self.entered = 0
        self._lock = threading.Lock()   # `+= 1` is not atomic between threads

    def enter(self) -> None:
        with self._lock:
            self.entered += 1

    def leave(self) -> None:
        with self._lock:
            self.entered -= 1


modes = _Modes()


@contextlib.contextmanager
def entered():
    """Counts a mode entered for the block (a device block, say)."""
    modes.enter()
    try:
        yield
    finally:
        modes.leave()
