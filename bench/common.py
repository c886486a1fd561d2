"""Shared pieces of the benchmarks: an interleaved timer, a table printer, a machine line.

Timing model
------------
`compare(contenders)` times several zero-overhead contenders side by side:

* every contender is a `(function, args)` pair, called as `function(*args)` in a
  tight loop (no wrapping lambda, so the graph function and the NumPy function
  pay exactly the same loop cost);
* `calls` (the number of calls per contender per round) is calibrated so that a
  whole round (all contenders) takes about `round_ms` milliseconds (10-50 ms in
  a full run);
* each round runs every contender once, in an order that rotates from round to
  round, so slow drift of the machine (frequency, other processes) hits all
  contenders alike;
* a round yields one per-call time per contender (elapsed / calls), measured
  with `time.perf_counter_ns`; results are medians over rounds;
* ratios and differences are taken within each round (same moment, same
  machine state) and the median of those is reported.

The garbage collector is off inside each timed block (as `timeit` does) and on
between blocks.
"""
from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import platform
import statistics
import sys
import time

# Full run: rounds of ~20 ms. Quick run (smoke test): tiny rounds, few of them.
FULL_ROUND_MS = 20.0
QUICK_ROUND_MS = 1.0
QUICK_ROUNDS = 5


@dataclasses.dataclass
class Timing:
    """Per-call times (ns) of one contender, one entry per round."""
    name: str
    per_call_ns: list[float]

    @property
    def median_us(self) -> float:
        return statistics.median(self.per_call_ns) / 1e3

    @property
    def min_us(self) -> float:
        return min(self.per_call_ns) / 1e3

    def quartiles_us(self) -> tuple[float, float]:
        if len(self.per_call_ns) < 2:
            return self.median_us, self.median_us
        q = statistics.quantiles(self.per_call_ns, n=4)
        return q[0] / 1e3, q[2] / 1e3


@dataclasses.dataclass
class Comparison:
    timings: dict[str, Timing]
    calls_per_round: int
    rounds: int

    def __getitem__(self, name) -> Timing:
        return self.timings[name]

    def spread_text(self) -> str:
        """Interquartile ranges of the per-call times, to show how noisy the run was."""
        parts = []
        for name, t in self.timings.items():
            lo, hi = t.quartiles_us()
            parts.append(f"{name} IQR {fmt_us(lo)}-{fmt_us(hi)} µs")
        return ", ".join(parts)

    def median_ratio(self, num: str, den: str) -> float:
        """Median over rounds of num/den, both measured in the same round."""
        a, b = self.timings[num].per_call_ns, self.timings[den].per_call_ns
        return statistics.median(x / y for x, y in zip(a, b))

    def median_diff_us(self, a: str, b: str) -> float:
        """Median over rounds of a - b (µs), both measured in the same round."""
        x, y = self.timings[a].per_call_ns, self.timings[b].per_call_ns
        return statistics.median(p - q for p, q in zip(x, y)) / 1e3


def _run_block(fn, args, calls: int) -> int:
    """Elapsed ns of `calls` calls of fn(*args), with the GC off."""
    loop = range(calls)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter_ns()
        for _ in loop:
            fn(*args)
        t1 = time.perf_counter_ns()
    finally:
        if gc_was_enabled:
            gc.enable()
    return t1 - t0


def calibrate(contenders: dict, round_ms: float, max_calls: int = 1_000_000) -> int:
    """Calls per contender so that one round of all contenders takes ~round_ms."""
    calls = 1
    target_ns = round_ms * 1e6
    while True:
        total = sum(_run_block(fn, args, calls) for fn, args in contenders.values())
        if total >= target_ns / 4 or calls >= max_calls:
            break
        calls *= 4 if total < target_ns / 40 else 2
    scaled = int(calls * target_ns / max(total, 1))
    return max(1, min(max_calls, scaled))


def compare(contenders: dict, *, rounds: int, round_ms: float, warmup: int = 3) -> Comparison:
    """Times `contenders` ({name: (fn, args)}) interleaved; see the module docstring."""
    for fn, args in contenders.values():       # first calls (tracing, caches, page faults)
        for _ in range(warmup):
            fn(*args)
    calls = calibrate(contenders, round_ms)
    names = list(contenders)
    per_call = {name: [] for name in names}
    for r in range(rounds):
        k = r % len(names)
        for name in names[k:] + names[:k]:      # rotate the order each round
            fn, args = contenders[name]
            per_call[name].append(_run_block(fn, args, calls) / calls)
    return Comparison({n: Timing(n, per_call[n]) for n in names}, calls, rounds)


def time_once_ns(fn, *args) -> int:
    """Elapsed ns of one call of fn(*args), with the GC off."""
    return _run_block(fn, args, 1)


# -- results and the table -----------------------------------------------------
@dataclasses.dataclass
class Row:
    """One line of the results table."""
    benchmark: str
    numpy_us: float | None
    graph_us: float | None
    metric: str            # "ratio 1.23x" or "+0.85 µs" ...
    target: str            # "<= 1.5x" ...
    passed: bool | None    # None: no target / not judged
    note: str = ""         # printed below the table


HEADERS = ("benchmark", "numpy µs", "graph µs", "ratio / diff", "target", "result")


def fmt_us(value: float | None) -> str:
    if value is None:
        return "-"
    if value < 100:
        return f"{value:.2f}"
    if value < 10_000:
        return f"{value:.1f}"
    return f"{value:,.0f}"


def format_table(rows: list[Row]) -> str:
    cells = [HEADERS] + [
        (r.benchmark, fmt_us(r.numpy_us), fmt_us(r.graph_us), r.metric, r.target,
         "-" if r.passed is None else ("PASS" if r.passed else "FAIL"))
        for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(HEADERS))]
    # benchmark column left-aligned, numbers right-aligned, the rest left-aligned
    align = ["<", ">", ">", ">", "<", "<"]

    def line(row):
        return "  ".join(f"{c:{a}{w}}" for c, a, w in zip(row, align, widths)).rstrip()

    out = [line(cells[0]), "  ".join("-" * w for w in widths)]
    out += [line(row) for row in cells[1:]]
    notes = [f"  {r.benchmark}: {r.note}" for r in rows if r.note]
    if notes:
        out += ["", "notes:"] + notes
    return "\n".join(out)


# -- the machine -----------------------------------------------------------------
def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def blas_description() -> str:
    """Which BLAS NumPy uses: threadpoolctl's runtime view if installed, else numpy.show_config."""
    try:
        import threadpoolctl  # optional; not a dependency
    except ImportError:
        threadpoolctl = None
    if threadpoolctl is not None:
        try:
            infos = [i for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]
            if infos:
                return ", ".join(f"{i.get('internal_api')} {i.get('version')} "
                                 f"({i.get('num_threads')} threads)" for i in infos)
        except Exception:
            pass
    import numpy as np
    try:
        config = np.show_config(mode="dicts")
        blas = config["Build Dependencies"]["blas"]
        text = f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except Exception:
        return "unknown BLAS"
    threads = [f"{v}={os.environ[v]}" for v in
               ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS") if v in os.environ]
    if threads:
        text += f" ({', '.join(threads)})"
    return text


def machine_line() -> str:
    import numpy as np
    cores = os.cpu_count()
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = cores
    core_text = f"{cores} cores" if usable == cores else f"{cores} cores ({usable} usable)"
    return (f"machine: {cpu_model()}, {core_text}, Python {platform.python_version()}, "
            f"NumPy {np.__version__}, BLAS {blas_description()}")


# -- command line ------------------------------------------------------------------
@dataclasses.dataclass
class Settings:
    quick: bool
    round_ms: float
    rounds_scale: float    # multiplies each benchmark's default number of rounds

    def rounds(self, full: int) -> int:
        if self.quick:
            return QUICK_ROUNDS
        return max(3, int(round(full * self.rounds_scale)))


def parse_args(description: str, argv=None) -> Settings:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true",
                        help="short smoke run (a few hundred ms); numbers are not meaningful")
    parser.add_argument("--round-ms", type=float, default=None,
                        help=f"target length of one interleaved round in ms "
                             f"(default {FULL_ROUND_MS:g}, {QUICK_ROUND_MS:g} with --quick)")
    parser.add_argument("--rounds-scale", type=float, default=1.0,
                        help="multiply every benchmark's number of rounds (full run only)")
    ns = parser.parse_args(argv)
    round_ms = ns.round_ms if ns.round_ms is not None else (
        QUICK_ROUND_MS if ns.quick else FULL_ROUND_MS)
    return Settings(quick=ns.quick, round_ms=round_ms, rounds_scale=ns.rounds_scale)


def report(title: str, rows: list[Row], settings: Settings, elapsed_s: float | None = None) -> None:
    print(title + (" (--quick: smoke run, numbers not meaningful)" if settings.quick else ""))
    print()
    print(format_table(rows))
    print()
    print(machine_line())
    if elapsed_s is not None:
        print(f"total benchmark time: {elapsed_s:.1f} s")
    sys.stdout.flush()
