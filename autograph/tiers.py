"""Which tier runs a traced graph: NumPy's kernels, or machine code (`runtime.native`).

    f = ag.convert(step, tier="auto")   # the default: `ag.set_tier` changes it
    f.get_concrete_function(x).tier     # 'numpy' until it is hot, then maybe 'native'

- `"numpy"`: the graph's Python code calling NumPy's kernels, always.
- `"native"`: the graph compiled by Numba when it is traced (that call waits for
  the compiler, 0.3-2 s a graph); where a primitive has no lowering, or Numba is
  missing, the NumPy tier, and `concrete.tier_reason` says why.
- `"auto"`: the NumPy tier at once; when the graph is hot, on its `hot_calls`-th call
  (100) or once the staged `while` loops of its code have run `hot_trips` trips in
  all (10,000, summed over its calls: one call of a long loop is hot), the graph
  joins the queue of one background thread, which compiles each in a worker process
  (`runtime.native.worker`: no call waits for it, and the compile does not hold this
  process's GIL), loads it from the disk cache, times both tiers on that call's
  inputs, and keeps the faster one for the calls after it.

Counting costs little and only until the graph is hot: each call adds one to a
count, and a graph with loops runs NumPy-tier code that counts each loop's trips
in a local and reports them once per loop run (`runtime.codegen_control`: 13-15 ns
a trip, 9-10%, on `bench/control_flow.py`'s scalar loop of 1,000 trips, medians of
interleaved rounds); a hot graph runs code compiled without the counters
(compiled by the call that makes it hot: a graph that never gets hot is compiled
once), so only the trips before it is hot pay it: about 0.15 ms in all by
default, and the trips of the call that makes it hot. Loops of a graph it calls (a `call` equation:
another converted function's graph) are not counted.

    ag.set_tier("auto", hot_calls=100, hot_trips=10_000)   # the defaults

Native code deopts to the NumPy tier wherever NumPy would warn or raise, so both
tiers give NumPy's errors; floats may differ in the last bits (sums accumulate in
order, `exp` and `tanh` are the C library's).
"""
from __future__ import annotations

import contextlib
import queue
import threading
import time

import numpy as np

from . import trace_log

TIERS = ("numpy", "native", "auto")


class _Settings:
    tier = "auto"
    hot_calls = 100     # calls of one graph before "auto" compiles it
    hot_trips = 10_000  # or trips of its staged `while` loops, summed over its calls


settings = _Settings()


def set_tier(tier: str, hot_calls: int | None = None, hot_trips: int | None = None) -> None:
    """The tier of graph functions converted without `tier=` (and the hot thresholds).

    A graph is hot after `hot_calls` calls or `hot_trips` trips of its loops,
    whichever comes first; each applies to the graphs traced after it is set.
    """
    for name, value in (("hot_calls", hot_calls), ("hot_trips", hot_trips)):
        if value is not None and (isinstance(value, bool) or int(value) != value or value < 1):
            raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
    settings.tier = check_tier(tier)
    if hot_calls is not None:
        settings.hot_calls = int(hot_calls)
    if hot_trips is not None:
        settings.hot_trips = int(hot_trips)


@contextlib.contextmanager
def using_tier(tier: str):
    """`set_tier(tier)` for the graphs traced inside the `with` block."""
    before = settings.tier
    settings.tier = check_tier(tier)
    try:
        yield
    finally:
        settings.tier = before


def check_tier(tier: str | None) -> str | None:
    if tier is not None and tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r}: use one of {', '.join(map(repr, TIERS))}")
    return tier


class Tiering:
    """The tier of one `ConcreteFunction`: its `run(*inputs)` calls the current one."""

    def __init__(self, concrete, mode: str, compile_native):
        self._concrete = concrete
        self._compile_native = compile_native   # () -> native function (or raises)
        self._calls = 0
        self._trips = 0
        self._lock = threading.Lock()
        self.tier, self.reason = "numpy", None
        if concrete.backend.name != "cpu":
            self.reason = "the native tier runs on the CPU only"
        elif mode == "numpy":
            self.reason = "tier='numpy' was asked for"
        elif mode == "native":
            self._compile_now()
        else:
            self.reason = (f"not hot yet (compiles after {settings.hot_calls} calls or "
                           f"{settings.hot_trips} loop trips)")
        self.counting = mode == "auto" and self.reason.startswith("not hot")

    def _compile_now(self):
        start = time.perf_counter()
        try:
            native = self._compile_native()
        except Exception as error:  # Unsupported, NativeUnavailable, a Numba error
            self.reason = _why(error)
            return None
        self._concrete._fn = native
        self.tier, self.reason = "native", None
        trace_log.compiled(self._concrete.name, time.perf_counter() - start, "runs native")
        return native

    def count(self, inputs) -> None:
        """Called by each call while `counting`: the hot call starts the compile."""
        self._calls += 1
        if self._calls >= settings.hot_calls:
            self._hot(inputs)

    def trips(self, n: int, inputs) -> None:
        """Called by the counting code after each run of a loop, with its trips."""
        self._trips += n
        if self._trips >= settings.hot_trips:
            self._hot(inputs)

    def _hot(self, inputs) -> None:
        with self._lock:
            if not self.counting:
                return
            self.counting = False
        self._concrete._fn = self._concrete._numpy_fn   # the code without trip counters
        sample = [np.array(x, copy=True) if isinstance(x, np.ndarray) else x for x in inputs]
        self.reason = "compiling in the background"
        _compiles.put((self._compile_and_choose, sample))
        _start_compiler()

    def _compile_and_choose(self, sample):
        numpy_fn = self._concrete._numpy_fn
        start = time.perf_counter()
        try:
            native = self._compile_native(in_worker=True)
        except Exception as error:  # noqa: BLE001 - the graph stays on the NumPy tier
            self.reason = _why(error)
            return
        seconds = time.perf_counter() - start
        try:
            native_time = _median_time(native, sample)
            numpy_time = _median_time(numpy_fn, sample)
        except Exception as error:  # noqa: BLE001 - the calls raise: the NumPy tier keeps them
            self.reason = f"timing the two tiers raised {type(error).__name__}: {error}"
            return
        if native_time < numpy_time:
            self._concrete._fn = native
            self.tier, self.reason = "native", None
        else:
            self.reason = (f"measured faster on the NumPy tier ({numpy_time * 1e6:.1f} µs "
                           f"against {native_time * 1e6:.1f} µs native)")
        trace_log.compiled(self._concrete.name, seconds, self.reason or (
            f"runs native ({native_time * 1e6:.1f} µs against {numpy_time * 1e6:.1f} µs "
            f"on the NumPy tier)"))


# Hot graphs compile one at a time, in order, on one background thread (each compile
# in its own worker process), so many graphs getting hot at once do not start many.
_compiles: queue.SimpleQueue = queue.SimpleQueue()
_compiler: list = []
_compiler_lock = threading.Lock()


def _start_compiler():
    with _compiler_lock:
        if not _compiler:
            _compiler.append(threading.Thread(target=_compile_forever, daemon=True,
                                              name="autograph native compiler"))
            _compiler[0].start()


def _compile_forever():
    while True:
        job, sample = _compiles.get()
        job(sample)


def _median_time(fn, sample, budget=0.05) -> float:
    """The median of 5 to 101 calls within `budget` s, or fewer (one) of long calls."""
    times = []
    begin = time.perf_counter()
    while True:
        start = time.perf_counter()
        fn(*sample)
        end = time.perf_counter()
        times.append(end - start)
        if (len(times) >= 101 or end - begin >= budget and len(times) >= 5
                or end - begin >= 5 * budget):   # a hot loop's call may take seconds
            return sorted(times)[len(times) // 2]


def _why(error: Exception) -> str:
    from autograph_runtime.native import NativeUnavailable, Unsupported
    if isinstance(error, (Unsupported, NativeUnavailable)):
        return str(error)
    return f"Numba could not compile it ({type(error).__name__}: {str(error)[:200]})"
