"""Tracing scales linearly: naming a value costs O(1), however often its variable is re-bound.

An unrolled loop (a Python loop that runs while tracing) re-binds `h` once per
step; its values are named `h`, `h_1`, `h_2`, ... The namer used to search for
a free name from `h_1` on each time (quadratic: 10,000 steps took seconds to
print and compile). The timing test allows 6x for 4x the steps (linear is 4x,
quadratic 16x), so a busy machine does not fail it.

Naming reads a frame's variables when its line changes; in a straight run of
code it reads only the ones stored since the last read (`code_facts`), and the
names found stay those a read of every variable found.
"""
import gc
import time
import warnings

import numpy as np

import autograph as ag
from autograph_runtime import GraphBuilder
from autograph_runtime.abstract import AbstractValue
from autograph_runtime.ir import Var
from autograph_runtime.naming import code_facts, variable_names
from autograph_runtime.printing import Namer


def unrolled(steps):
    def loop(x):
        h = x
        for _ in range(steps):
            h = np.tanh(h * 0.5 + x)
        return h
    return loop


def trace_seconds(steps, x):
    function = ag.convert(unrolled(steps))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # UnrolledLoopWarning: the point of this loop
        gc.collect()
        start = time.process_time()   # CPU time: other processes' load does not count
        concrete = function.get_concrete_function(x)
        seconds = time.process_time() - start
    return seconds, concrete


def test_unrolled_loop_traces_in_linear_time():
    x = np.ones(3, np.float32)
    trace_seconds(100, x)   # warm the converter and the kernels
    small = min(trace_seconds(1000, x)[0] for _ in range(3))
    large, concrete = min((trace_seconds(4000, x) for _ in range(2)), key=lambda r: r[0])
    assert large / small < 6, f"1,000 steps {small:.3f} s, 4,000 steps {large:.3f} s"
    text = str(concrete.graph).splitlines()
    assert text[-3:-1] == ["  h_3999:f32[3] = tanh t7999", "  return h_3999"]
    np.testing.assert_allclose(concrete(x), unrolled(4000)(x), rtol=1e-6)


class CountingSet(set):
    """A set that counts membership tests: the namer's work."""
    probes = 0

    def __contains__(self, item):
        self.probes += 1
        return super().__contains__(item)


def named(hints, reserved=()):
    namer = Namer(reserved)
    return [namer(Var(AbstractValue((), np.float32), hint)) for hint in hints]


def test_namer_does_constant_work_per_name():
    namer = Namer()
    namer._used = used = CountingSet()
    aval = AbstractValue((), np.float32)
    names = [namer(Var(aval, "h")) for _ in range(5000)] + [namer(Var(aval)) for _ in range(5000)]
    assert names[:3] == ["h", "h_1", "h_2"] and names[4999] == "h_4999"
    assert names[5000:5002] == ["t0", "t1"] and names[-1] == "t4999"
    assert used.probes <= 3 * len(names)   # was 12.5 million for the 5,000 `h`s


def test_namer_sequence_skips_names_taken_otherwise():
    # a user's own `h_1`, reserved names and `t` names all stay unique, in the same order
    assert named(["h", "h_1", "h", "h"]) == ["h", "h_1", "h_2", "h_3"]
    assert named(["h", "h", "h_1", "h"]) == ["h", "h_1", "h_1_1", "h_2"]
    assert named(["h_2", "h", "h", "h", "h"]) == ["h_2", "h", "h_1", "h_3", "h_4"]
    assert named(["h", "h", "h"], reserved={"h_1"}) == ["h", "h_2", "h_3"]
    assert named(["t1", None, None, None]) == ["t1", "t0", "t2", "t3"]
    assert named(["x", "x", "y", "x", "y"]) == ["x", "x_1", "y", "x_2", "y_1"]


def trace_named(fn, *avals):
    with GraphBuilder(fn.__name__) as builder, variable_names():
        outputs = fn(*(builder.new_input(a, n) for n, a in zip("xyz", avals)))
    return str(builder.build(list(outputs)))


def stores_without_equations(x, y):
    pair = [np.tanh(x), np.exp(y)]   # two unnamed values in a list
    first = pair[0]                  # stored by lines without an equation: the next
    second = pair[1]                 # equation's line change finds them (straight run)
    if x.ndim:                       # a jump: the sweep reads every variable
        third = pair[1]
    out = first + 1.0
    return out, second * 2.0, third


def test_sweeps_of_straight_runs_name_what_full_sweeps_named():
    aval = AbstractValue((3,), np.float32)
    text = trace_named(stores_without_equations, aval, aval).splitlines()
    assert text[1:4] == ["  first:f32[3] = tanh x", "  second:f32[3] = exp y",
                         "  out:f32[3] = add first 1.0"]


def straight(x):
    a = x * 2.0
    b = a + 1.0
    c, d = b, a
    return c * d


def test_code_facts_list_the_stores_of_a_straight_run():
    facts = code_facts(straight.__code__)
    assert facts is code_facts(straight.__code__)   # decoded once, kept by the code's id
    assert facts.stored_between(-1, len(straight.__code__.co_code)) == ("a", "b", "c", "d")
    looped = code_facts(stores_without_equations.__code__)
    assert looped.stored_between(-1, len(stores_without_equations.__code__.co_code)) is None
    assert facts.stored_between(10, 10) is None      # ran round a loop: read everything
