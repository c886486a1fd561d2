"""`gc_paused()`: no garbage collection while a function converts.

Converting makes and drops thousands of tree nodes, annotations and analysis
results, which reference counting frees as soon as each converter is done
with them; collections falling in the middle (a dozen for a 50-line function)
only walk them to find nothing. Paused, the collector runs once afterwards, on
what survived: the first call of a 50-line function in a fresh process takes
0.6 ms (1.6%) less, the collections after the pause included (bench/RESULTS.md).

Only converter code runs while it is paused (never the user's). It is switched
back on by the last of the conversions that paused it (in any thread), and
only if it was on when the first began: a program that disabled it keeps it
disabled.
"""
from __future__ import annotations

import contextlib
import gc
import threading

_lock = threading.Lock()
_pauses = 0        # conversions running with the collector paused
_resume = False    # whether it was on when the first of them began


@contextlib.contextmanager
def gc_paused():
    global _pauses, _resume
    with _lock:
        if _pauses == 0:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _resume:
                gc.enable()
