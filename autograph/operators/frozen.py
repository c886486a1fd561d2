"""Calls that give something new each time, frozen when converted code calls them while
tracing: `time.time()`, `random.random()`, `os.urandom(8)`, `uuid.uuid4()`...

A graph function traces once per signature: such a call runs then, and the graph
holds the value it returned, the same at every call, where eager code gets a new
one each time. Converted code that calls one while tracing warns once per line
(`FrozenValueWarning`): pass the value in as an argument, or call it through
`ag.py_function`, which runs it each time the graph runs. (NumPy's own random
functions are staged, `runtime.ops.random`; draws from its global generator in
code called as it is warn `FrozenRandomWarning`.)
"""
from __future__ import annotations

import datetime
import os
import random
import time
import uuid
import warnings

from autograph_runtime import current_builder
from autograph_runtime.source import location_note, user_source, user_stacklevel


class FrozenValueWarning(UserWarning):
    """A call that returns something new each time ran while tracing: its value is frozen."""


_FROZEN = {
    **{getattr(time, n): f"time.{n}" for n in (
        "time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns",
        "process_time", "process_time_ns", "thread_time", "thread_time_ns")},
    **{getattr(random, n): f"random.{n}" for n in (
        "random", "randint", "randrange", "uniform", "gauss", "normalvariate", "choice",
        "choices", "sample", "shuffle", "getrandbits", "betavariate", "expovariate",
        "triangular", "lognormvariate", "vonmisesvariate", "paretovariate", "weibullvariate")},
    os.urandom: "os.urandom", uuid.uuid1: "uuid.uuid1", uuid.uuid4: "uuid.uuid4",
}
_NOW = {datetime.datetime.now: "datetime.datetime.now", datetime.datetime.today:
        "datetime.datetime.today", datetime.datetime.utcnow: "datetime.datetime.utcnow",
        datetime.date.today: "datetime.date.today"}
_warned: set = set()


def warn_if_frozen(f) -> None:
    """Warns (once per line) where converted code calls `f`, whose value changes from call
    to call, while tracing."""
    try:
        name = _FROZEN.get(f) or _NOW.get(f)
    except TypeError:   # an unhashable callable
        return
    if name is None or current_builder() is None:
        return
    source = user_source()
    if (name, source) in _warned:
        return
    _warned.add((name, source))
    warnings.warn(f"{name}() is called while tracing{location_note(source)}: the graph holds "
                  f"the value it returned then, the same at every call, where eager code "
                  f"gets a new one each time; pass the value in as an argument, or call it "
                  f"through ag.py_function to call it each time the graph runs",
                  FrozenValueWarning, stacklevel=user_stacklevel())
