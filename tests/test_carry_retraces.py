"""Nested staged blocks writing views of outer arrays are traced a number of times linear
in their nesting and in the arrays, not exponential (issue #14).

    y = x * 0.5
    for i in range(n):          # B1
        if x[0] > i:            # B2: ... B4, each must carry y
            w = y[1:]
            w += 0.5

Each block between the array's graph and the write must carry it (`runtime.views.
CarryNeeded`). Found one block at a time, every retrace of an enclosing block traced
the blocks in it afresh, which found the array again: 2**depth traces for one array,
(k+1)**depth for k (a generated program took 40 s to trace). Now one `CarryNeeded`
per array reaches the outermost block, and the blocks in it carry the array at once
(`autograph.operators.carries`). The counts here are of staged blocks traced
(`composite.Block`s made) and of `CarryNeeded`s raised, against the same program
without the writes; the results are checked against eager NumPy on fresh arguments.
"""
import numpy as np
import pytest

import autograph as ag
from autograph.operators import composite
from autograph_runtime import views


def nested_view_writes(x, n):
    y = x * 0.5
    z = x + 1.0
    u = x - 2.0
    for i in range(n):
        if x[0] > i:
            for j in range(n):
                if x[1] < j:
                    w0 = y[1:]
                    w0 += 0.5
                    w1 = z[::2]
                    w1 *= 2.0
                    w2 = u[:2]
                    w2 -= 1.0
    return y + z + u


def nested_reads(x, n):
    """`nested_view_writes`'s blocks, reading the views only: the baseline."""
    y = x * 0.5
    z = x + 1.0
    u = x - 2.0
    s = x[0]
    for i in range(n):
        if x[0] > i:
            for j in range(n):
                if x[1] < j:
                    s = s + y[1:].sum() + z[::2].sum() + u[:2].sum()
    return y + z + u + s


def zip_in_unrolled_while(x, n):
    """The generated program's shape: a Python `while True` (unrolled) around a staged
    loop over `zip` whose staged `if`s write items through views of outer arrays."""
    y = np.tanh(x)
    t = x * 2.0
    c = 0
    while True:
        c = c + 1
        if c > 3:
            break
        for u, v in zip(x, y):
            if u > v:
                w = y[1:]
                w[c % 2] = u
            else:
                r = t[::-1]
                r[0] -= v
            if v > 0.0:
                w = t[:2]
                w *= 0.5
    return y + t


def zip_reads_in_unrolled_while(x, n):
    """Its blocks, reading the views only, in three unrolled trips of a Python loop."""
    y = np.tanh(x)
    t = x * 2.0
    s = x[0]
    for c in (1, 2, 3):
        for u, v in zip(x, y):
            if u > v:
                s = s + y[1:][c % 2] + u
            else:
                s = s + t[::-1][0] - v
            if v > 0.0:
                s = s + t[:2].sum()
    return y + t + s


def traced_counts(fn, args, monkeypatch) -> tuple[int, int]:
    """(staged blocks traced, `CarryNeeded`s raised) by the first call of `ag.convert(fn)`."""
    counts = {"blocks": 0, "carries": 0}
    block_init, carry_init = composite.Block.__init__, views.CarryNeeded.__init__

    def counting_block(self, *a, **k):
        counts["blocks"] += 1
        block_init(self, *a, **k)

    def counting_carry(self, *a, **k):
        counts["carries"] += 1
        carry_init(self, *a, **k)
    with monkeypatch.context() as patch:
        patch.setattr(composite.Block, "__init__", counting_block)
        patch.setattr(views.CarryNeeded, "__init__", counting_carry)
        ag.convert(fn)(*args())
    return counts["blocks"], counts["carries"]


CASES = [
    (nested_view_writes, nested_reads, 3,
     [np.array([3.0, -1.0, 2.0]), np.array([0.5, 4.0, -2.0]), np.array([2.0, 0.5, 1.0])],
     [0, 1, 3]),
    (zip_in_unrolled_while, zip_reads_in_unrolled_while, 3,
     [np.array([0.5, -1.0, 2.0]), np.array([-1.5, 0.0, 1.0]), np.array([2.0, 2.0, -0.5])],
     [1]),
]


@pytest.mark.parametrize("fn, baseline, arrays, xs, ns", CASES, ids=[c[0].__name__ for c in CASES])
def test_each_array_costs_one_retrace_of_the_outermost_block(fn, baseline, arrays, xs, ns,
                                                             monkeypatch):
    args = lambda: (xs[0].copy(), np.int64(ns[-1]))  # noqa: E731
    blocks, carries = traced_counts(fn, args, monkeypatch)
    base, no_carries = traced_counts(baseline, args, monkeypatch)
    assert no_carries == 0
    assert carries <= arrays, f"{carries} CarryNeeded for {arrays} arrays"
    assert blocks <= base * (arrays + 1), \
        f"{blocks} staged blocks traced; {base} without the writes, {arrays} arrays to carry"


@pytest.mark.parametrize("fn, baseline, arrays, xs, ns", CASES, ids=[c[0].__name__ for c in CASES])
def test_matches_eager_on_fresh_arguments(fn, baseline, arrays, xs, ns):
    converted = ag.convert(fn)
    for x in xs:
        for n in ns:
            eager_x, graph_x = x.copy(), x.copy()   # eager writes its arguments in place
            expected = fn(eager_x, np.int64(n))
            got = converted(graph_x, np.int64(n))
            assert np.array_equal(np.asarray(got), expected), (x, n, got, expected)
            assert np.array_equal(graph_x, eager_x), (x, n, graph_x, eager_x)
    assert converted.trace_count == 1


def test_what_blocks_learnt_is_freed_with_the_function():
    import gc
    import weakref
    from autograph.operators import carries

    def writes(x, n):   # a function of its own: no trace of another test shares it
        return nested_view_writes(x, n)
    before = set(map(id, carries._notes.keys()))
    f = ag.convert(writes)
    x = np.array([3.0, -1.0, 2.0])
    np.testing.assert_array_equal(f(x.copy(), np.int64(3)), nested_view_writes(x.copy(), 3))
    learnt = [weakref.ref(root) for root in carries._notes.keys() if id(root) not in before]
    assert learnt   # the trace learnt what to carry
    del f
    gc.collect()
    assert all(ref() is None for ref in learnt)
