"""A Python loop over an iterator without a length (`itertools.count()`) whose exit is
traced: tracing guards each trip by a cond and cannot know the last one, so past
`GUARDED_TRIPS_UNSIZED` trips the loop is refused (eagerly, with the fallback), never
unrolled without end."""
from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

import autograph as ag


def until_limit(x, limit):
    total = 0.0
    for n in itertools.count():
        if n >= len(x) or total > limit:
            break
        total += abs(x[n])
    return n, total


def test_a_counted_loop_with_a_traced_break_is_refused_not_unrolled_forever():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    start = time.perf_counter()
    with pytest.raises(ag.TracingError, match=r"iterator without a length \(count\)"):
        ag.convert(until_limit, eager_fallback=False)(x, 2.0)
    assert time.perf_counter() - start < 60
    with pytest.warns(ag.FallbackWarning):
        assert ag.convert(until_limit, eager_fallback=True)(x, 2.0) == until_limit(x, 2.0)


def test_a_short_generator_with_a_traced_break_still_traces():
    def first_above(x, t):
        found = -1.0
        for v in (x[i] for i in range(3)):
            if v > t:
                found = v
                break
        return found

    x = np.array([0.5, 2.0, 3.0])
    converted = ag.convert(first_above, eager_fallback=False)
    for t in (1.0, 5.0, 0.0):
        np.testing.assert_array_equal(converted(x, t), first_above(x, t))
