"""Which tier runs a traced graph: NumPy's kernels, or machine code (`runtime.native`).

    f = ag.convert(step, tier="auto")   # the default: `ag.set_tier` changes it
    f.get_concrete_function(x).tier     # 'numpy' until it is hot, then maybe 'native'

- `"numpy"`: the graph's Python code calling NumPy's kernels, always.
- `"native"`: the graph compiled by Numba when it is traced (that call waits for
  the compiler, 0.3-2 s a graph); where a primitive has no lowering, or Numba is
  missing, the NumPy tier, and `concrete.tier_reason` says why.
- `"auto"`: the NumPy tier at once; on its `hot_calls`-th call (100) the graph joins
  the queue of one background thread, which compiles each in a worker process
  (`runtime.native.worker`: no call waits for it, and the compile does not hold this
  process's GIL), loads it from the disk cache, times both tiers on that call's
  inputs, and keeps the faster one for the calls after it.

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

TIERS = ("numpy", "native", "auto")


class _Settings:
    tier = "auto"
    hot_calls = 100     # calls of one graph before "auto" compiles it


settings = _Settings()


def set_tier(tier: str, hot_calls: int | None = None) -> None:
    """The tier of graph functions converted without `tier=` (and the hot threshold)."""
    settings.tier = check_tier(tier)
    if hot_calls is not None:
        if hot_calls < 1:
            raise ValueError(f"hot_calls must be at least 1, got {hot_calls}")
        settings.hot_calls = int(hot_calls)


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
        self._lock = threading.Lock()
        self.tier, self.reason = "numpy", None
        if concrete.backend.name != "cpu":
            self.reason = "the native tier runs on the CPU only"
        elif mode == "numpy":
            self.reason = "tier='numpy' was asked for"
        elif mode == "native":
            self._compile_now()
        else:
            self.reason = f"not hot yet (compiles after {settings.hot_calls} calls)"
        self.counting = mode == "auto" and self.reason.startswith("not hot")

    def _compile_now(self):
        try:
            native = self._compile_native()
        except Exception as error:  # Unsupported, NativeUnavailable, a Numba error
            self.reason = _why(error)
            return None
        self._concrete._fn = native
        self.tier, self.reason = "native", None
        return native

    def count(self, inputs) -> None:
        """Called by each call while `counting`: the hot call starts the compile."""
        self._calls += 1
        if self._calls < settings.hot_calls:
            return
        with self._lock:
            if not self.counting:
                return
            self.counting = False
        sample = [np.array(x, copy=True) if isinstance(x, np.ndarray) else x for x in inputs]
        self.reason = "compiling in the background"
        _compiles.put((self._compile_and_choose, sample))
        _start_compiler()

    def _compile_and_choose(self, sample):
        numpy_fn = self._concrete._fn
        try:
            native = self._compile_native(in_worker=True)
        except Exception as error:  # noqa: BLE001 - the graph stays on the NumPy tier
            self.reason = _why(error)
            return
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
    times = []
    deadline = time.perf_counter() + budget
    while len(times) < 5 or time.perf_counter() < deadline and len(times) < 101:
        start = time.perf_counter()
        fn(*sample)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def _why(error: Exception) -> str:
    from runtime.native import NativeUnavailable, Unsupported
    if isinstance(error, (Unsupported, NativeUnavailable)):
        return str(error)
    return f"Numba could not compile it ({type(error).__name__}: {str(error)[:200]})"
