"""Calls whose value changes from call to call, frozen while tracing: a warning per line."""
from __future__ import annotations

import datetime
import random
import time
import warnings

import numpy as np
import pytest

import autograph as ag


def stamped(x):
    started = time.perf_counter()
    return x + 0 * started


def jittered(x):
    return x + random.uniform(0.0, 1.0)


def dated(x):
    return x + datetime.date.today().year * 0


@pytest.mark.parametrize("fn, name", [(stamped, "time.perf_counter"),
                                      (jittered, "random.uniform"),
                                      (dated, "datetime.date.today")])
def test_a_changing_value_read_while_tracing_warns_once(fn, name):
    f = ag.convert(fn)
    with pytest.warns(ag.FrozenValueWarning, match=rf"{name}\(\) is called while tracing "
                      rf"\(at .*test_frozen_values.py:\d+ in {fn.__name__}\)"):
        f(np.ones(2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f(np.ones(2))                 # the graph runs: nothing traced, nothing said
        f(np.ones(3))                 # traced again: said once already for that line


def test_the_frozen_value_is_the_traced_one():
    def noisy(x):
        return x + random.random()

    f = ag.convert(noisy)
    with pytest.warns(ag.FrozenValueWarning):
        first = f(np.zeros(2))
    assert np.array_equal(f(np.zeros(2)), first)   # eager code would draw anew


def test_a_call_in_eager_code_says_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jittered(np.ones(2))
        with ag.run_functions_eagerly(True):
            ag.convert(jittered)(np.ones(2))
