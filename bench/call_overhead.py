"""Call overhead: `x + 1` on a float32 array of shape (4,), graph function vs plain NumPy.

  (c) call_overhead_add1   steady-state call of `ag.convert(add_one)` vs `add_one`;
                           reports both times, the difference (target <= 2 µs) and the ratio
  call_overhead_<kind>     the same for each kind of argument a call may pass (a NumPy
                           scalar, a Python float, a keyword, an unpassed default, a mix
                           of them), on `x * s + 1`-sized work; target: the same
                           difference as the all-array call
  call_overhead_self_reads  a converted method that reads three plain attributes of
                           `self` (frozen into its graph): its call checking them
                           (binding_guard.py) vs the same graph not checking them; target:
                           <= 0.2 µs added
  call_overhead_new_wrapper  `ag.convert(add_one)(x)`, the graph function made anew for
                           every call (as in a loop body); it reuses the graphs of the
                           first (shared_traces.py); reported, no target

The work (one tiny ufunc call) is negligible, so the difference is what the graph
function's call path (cache lookup, compiled graph, output packing) costs per call.

Run:  python bench/call_overhead.py [--quick]
"""
from __future__ import annotations

import functools
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from common import Row, compare, parse_args, report  # noqa: E402

import autograph as ag  # noqa: E402

NAME = "call_overhead_add1"
TARGET_DIFF_US = 2.0


def add_one(x):
    return x + 1


def bench_add_one(settings, full_rounds: int = 200) -> Row:
    x = np.arange(4, dtype=np.float32)
    graph_add_one = ag.convert(add_one)
    want, got = add_one(x), graph_add_one(x)
    assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape, got
    np.testing.assert_array_equal(got, want)
    result = compare({"numpy": (add_one, (x,)), "graph": (graph_add_one, (x,))},
                     rounds=settings.rounds(full_rounds), round_ms=settings.round_ms)
    diff = result.median_diff_us("graph", "numpy")
    ratio = result.median_ratio("graph", "numpy")
    note = (f"{result.rounds} rounds x {result.calls_per_round} calls; diff and ratio = medians "
            f"of per-round values; {result.spread_text()}")
    if graph_add_one.trace_count != 1:
        note += f"; UNEXPECTED: traced {graph_add_one.trace_count} times"
    return Row(NAME, result["numpy"].median_us, result["graph"].median_us,
               f"{diff:+.2f} µs ({ratio:.2f}x)", f"<= {TARGET_DIFF_US:g} µs",
               diff <= TARGET_DIFF_US, note)


def scale(x, s):
    return x * s + 1


def scale_default(x, s=2.0):
    return x * s + 1


def mixed(x, s, k, mode="add", offset=1.0):
    if mode == "add":
        return x * s + k * offset
    return x * s - k * offset


def _kinds():
    """(name, eager function, args, keywords) per argument kind; keywords bound by a partial."""
    x = np.arange(4, dtype=np.float32)
    return [
        ("numpy_scalar", scale, (x, np.float32(2.0)), {}),
        ("python_float", scale, (x, 2.0), {}),
        ("keyword", scale, (x,), {"s": 2.0}),
        ("default", scale_default, (x,), {}),
        ("mixed", mixed, (x, np.float32(2.0), 3), {"mode": "add"}),
    ]


def bench_kind(settings, name, fn, args, kwargs, full_rounds: int = 100) -> Row:
    graph_fn = ag.convert(fn)
    eager = functools.partial(fn, **kwargs) if kwargs else fn
    graph = functools.partial(graph_fn, **kwargs) if kwargs else graph_fn
    want, got = eager(*args), graph(*args)
    assert type(got) is type(want) and got.dtype == want.dtype, (got, want)
    np.testing.assert_array_equal(got, want)
    result = compare({"numpy": (eager, args), "graph": (graph, args)},
                     rounds=settings.rounds(full_rounds), round_ms=settings.round_ms)
    diff = result.median_diff_us("graph", "numpy")
    ratio = result.median_ratio("graph", "numpy")
    note = f"{result.rounds} rounds x {result.calls_per_round} calls; {result.spread_text()}"
    if graph_fn.trace_count != 1:
        note += f"; UNEXPECTED: traced {graph_fn.trace_count} times"
    return Row(f"call_overhead_{name}", result["numpy"].median_us, result["graph"].median_us,
               f"{diff:+.2f} µs ({ratio:.2f}x)", f"<= {TARGET_DIFF_US:g} µs",
               diff <= TARGET_DIFF_US, note)


class Affine:
    def __init__(self):
        self.scale, self.shift, self.clip = 2.0, 1.0, True

    def apply(self, x):
        y = x * self.scale + self.shift
        return np.minimum(y, 5.0) if self.clip else y


TARGET_SELF_READS_US = 0.2


def bench_self_reads(settings, full_rounds: int = 100) -> Row:
    x = np.arange(4, dtype=np.float32)
    checked, unchecked = ag.convert(Affine().apply), ag.convert(Affine().apply)
    unchecked.get_concrete_function(x).bindings = None   # as before the check existed
    np.testing.assert_array_equal(checked(x), Affine().apply(x))
    np.testing.assert_array_equal(unchecked(x), Affine().apply(x))
    result = compare({"unchecked": (unchecked, (x,)), "checked": (checked, (x,))},
                     rounds=settings.rounds(full_rounds), round_ms=settings.round_ms)
    diff = result.median_diff_us("checked", "unchecked")
    note = (f"numpy column: the same graph unchecked; {result.rounds} rounds x "
            f"{result.calls_per_round} calls; {result.spread_text()}")
    return Row("call_overhead_self_reads", result["unchecked"].median_us,
               result["checked"].median_us, f"{diff:+.2f} µs", f"<= {TARGET_SELF_READS_US:g} µs",
               diff <= TARGET_SELF_READS_US, note)


def convert_and_call(x):
    return ag.convert(add_one)(x)


def bench_new_wrapper(settings, full_rounds: int = 30) -> Row:
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(convert_and_call(x), add_one(x))
    result = compare({"numpy": (add_one, (x,)), "graph": (convert_and_call, (x,))},
                     rounds=settings.rounds(full_rounds), round_ms=settings.round_ms)
    ratio = result.median_ratio("graph", "numpy")
    note = f"{result.rounds} rounds x {result.calls_per_round} calls; {result.spread_text()}"
    return Row("call_overhead_new_wrapper", result["numpy"].median_us, result["graph"].median_us,
               f"{ratio:.0f}x", "-", None, note)


def run(settings) -> list[Row]:
    return ([bench_add_one(settings)] + [bench_kind(settings, *kind) for kind in _kinds()]
            + [bench_self_reads(settings), bench_new_wrapper(settings)])


def main(argv=None):
    settings = parse_args(__doc__.splitlines()[0], argv)
    t0 = time.perf_counter()
    rows = run(settings)
    report("Call overhead: hand-written NumPy vs ag.convert", rows, settings,
           time.perf_counter() - t0)


if __name__ == "__main__":
    main()
