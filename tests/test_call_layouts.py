"""The short path's key made by code compiled for a call layout (autograph/call_layouts.py).

Its key must be `fast_path.call_key`'s for every call, of the layout it was made for or
of any other: a wrong key would run another signature's graph. Hypothesis draws a
layout, compiles its key function, then calls it on calls of that layout and of others
(other kinds, values that `call_key` keys by their repr, other keywords and orders).
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph.call_layouts import keyer_for
from autograph.fast_path import call_key

LEAVES = st.one_of(
    st.builds(lambda shape, dtype: np.zeros(shape, dtype),
              st.sampled_from([(), (3,), (2, 2)]), st.sampled_from([np.float32, np.int64])),
    st.sampled_from([np.float32(1.5), np.int64(3), np.bool_(True), np.float64(-0.0)]),
    st.integers(-3, 3), st.booleans(), st.sampled_from(["add", "sub", b"x", None]),
    st.sampled_from([0.0, -0.0, 1.5, float("nan"), float("inf")]),
    st.tuples(st.integers(0, 2), st.integers(0, 2)),
    st.builds(lambda: object()),
)
CALLS = st.tuples(st.lists(LEAVES, max_size=4),
                  st.dictionaries(st.sampled_from(["mode", "s", "k"]), LEAVES, max_size=2))


@settings(max_examples=300, deadline=None)
@given(CALLS, st.lists(CALLS, min_size=1, max_size=5))
def test_the_layout_key_is_call_key_for_every_call(seen, calls):
    keyer = keyer_for(tuple(seen[0]), seen[1])
    for args, kwargs in [seen, *calls]:
        assert keyer(tuple(args), kwargs) == call_key(tuple(args), kwargs)


def mixed(x, s, k, mode="add", offset=1.0):
    if mode == "add":
        return x * s + k * offset
    return x * s - k * offset


def test_calls_of_changing_layouts_find_their_graphs():
    f = ag.convert(mixed)
    x = np.arange(4, dtype=np.float32)
    calls = [((x, np.float32(2.0), 3), {"mode": "add"}), ((x, np.float32(2.0), 3), {}),
             ((x, 2.0, 3), {"mode": "sub"}), ((x, np.float32(2.0), 4), {"mode": "add"}),
             ((x.astype(np.float64), np.float32(2.0), 3), {"mode": "add"}),
             ((x, np.float32(2.0)), {"k": 3, "mode": "sub"})]
    for _ in range(2):
        for args, kwargs in calls:
            np.testing.assert_array_equal(f(*args, **kwargs), mixed(*args, **kwargs))
    assert f.trace_count == len(calls) - 1   # the default `mode` is the first call's
