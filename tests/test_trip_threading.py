"""Trip threading on the NumPy tier: a branch whose results decide the next trip runs it.

The oracle is eager NumPy: the same values, dtypes, warnings (int64 and int32
wrap-around) and errors. Each loop below either threads (its code shows the
two trips in one branch) or must be left as it is, because the next trip's
test or branch is not proven, or the body has an effect.
"""
from __future__ import annotations

import itertools
import linecache
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph_runtime.passes.scalar_lowering import lower_scalars
from autograph_runtime.passes.trip_threading import thread_trips
from autograph_runtime.verify import verify
from test_scalar_lowering import check_program   # eager vs NumPy tier: values, warnings, errors

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from demo import collatz  # noqa: E402 - the README's Collatz


def collatz_odd_first(n):
    steps = 0
    while n != 1:
        if n % 2:                 # an int tested for truth
            n = 3 * n + 1
        else:
            n = n // 2
        steps += 1
    return steps, n


def collatz_counting_odd(n):
    steps, odd = 0, 0
    while n != 1:
        if n % 2 == 1:
            n = 3 * n + 1
            odd += 1
        else:
            n //= 2
        steps = steps + 1
    return steps, odd


def collatz_with_float(n, x):
    total = x * 0
    while n != 1:
        if n & 1 == 0:
            n = n >> 1
        else:
            n = 3 * n + 1
            total = total + x     # a float carried beside: no fact, still threaded
    return n, total


def collatz_steps_above(n, limit):
    steps = 0
    while n != 1 and steps < limit:     # the test is not proven: not threaded
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps, n


def halve_to_zero(n):
    steps = 0
    while n != 0:                       # an even n may be 0: not threaded
        if n % 2 == 1:
            n = n - 1
        else:
            n = n // 2
        steps += 1
    return steps, n


def collatz_printing(n):
    while n != 1:                       # an effect in the body: not threaded
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
            print("odd")
    return n


def threads(fn, *args) -> bool:
    """Whether the pass changes the loop of `fn`'s NumPy-tier graph (verified after)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        graph = lower_scalars(ag.convert(fn, tier="numpy").get_concrete_function(
            *args).optimized_graph)
    threaded = thread_trips(graph)
    verify(threaded)
    return threaded is not graph


@pytest.mark.parametrize("fn", [collatz, collatz_odd_first, collatz_counting_odd])
def test_collatz_forms_thread_and_give_eager_s_answers(fn):
    assert threads(fn, np.int64(27))
    for n in (1, 2, 3, 7, 27, 97, 871, 77031, 837799):
        check_program(fn if fn is not collatz else lambda n: (collatz(n),), (np.int64(n),))


def test_collatz_s_code_runs_the_even_trip_in_the_odd_branch():
    source = ag.convert(collatz, tier="numpy").get_concrete_function(np.int64(27)).source
    assert "n_2 = n_3 >> 1" in source and "steps = steps + 2" in source
    assert source.count("while") == 1 and "(not (n_2 & 1))" in source   # the test inline


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10 ** 12))
def test_threaded_collatz_counts_as_eager_for_any_start(n):
    check_program(collatz_counting_odd, (np.int64(n),))


@pytest.mark.parametrize("n", [8824989531201712629, 6491028859863088069, 6743804029693342781])
def test_int64_wrap_around_in_a_threaded_trip_is_numpy_s(n):
    # 3 * n + 1 leaves int64 on the first trip and wraps (with NumPy's warning); the
    # wrapped value is still even, so the threaded trip's proof holds, and the loop ends
    check_program(collatz_counting_odd, (np.int64(n),))
    check_program(collatz_counting_odd, (np.int64(n),), raising=True)


@pytest.mark.parametrize("n", [1963625141, 1914293119, 2131298397])
def test_int32_scalars_thread_and_wrap_as_numpy_s(n):
    # not lowered to Python ints (int32): the pass threads the NumPy scalars' loop
    assert threads(collatz_counting_odd, np.int32(n))
    check_program(collatz_counting_odd, (np.int32(n),))


def test_a_float_carried_beside_keeps_its_value():
    assert threads(collatz_with_float, np.int64(27), np.float64(0.1))
    for n in (1, 6, 27, 703):
        check_program(collatz_with_float, (np.int64(n), np.float64(0.1)))


@pytest.mark.parametrize("fn, args", [
    (collatz_steps_above, (np.int64(27), np.int64(50))),
    (halve_to_zero, (np.int64(1000),)),
    (collatz_printing, (np.int64(27),)),
])
def test_loops_whose_next_trip_is_not_proven_are_left_alone(fn, args):
    assert not threads(fn, *args)


@pytest.mark.parametrize("n", [27, 1000, 1])
def test_loops_left_alone_still_give_eager_s_answers(n):
    check_program(collatz_steps_above, (np.int64(n), np.int64(50)))
    check_program(halve_to_zero, (np.int64(n),))


TESTS = ["n % 2 == 0", "n % 2", "n & 1", "n % 2 != 1", "not n % 2", "n & 1 == 1", "n % 2 == 1"]
STEPS = ["n // 2", "3 * n + 1", "n - 1", "n + 1", "n * 2", "5 * n - 1", "n + 3", "-n + 1",
         "n * n", "n >> 1"]
_made = itertools.count()
AFTER = ["", "m = m + 1", "m = m + n", "m = m * 3 + 1", "m = m + 2 * n + 1"]


def parity_loop(test, then, otherwise, after, stop):
    """A loop whose branch tests n's low bit: the shapes the pass reasons about."""
    source = (f"def f(n, m):\n"
              f"    while n != {stop}:\n"
              f"        if {test}:\n"
              f"            n = {then}\n"
              f"        else:\n"
              f"            n = {otherwise}\n"
              f"        {after or 'pass'}\n"
              f"    return n, m\n")
    filename = f"<parity loop {next(_made)}>"   # its source readable, so it converts
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["f"], source


def ends_in_int64(source, n, m, trips=300) -> bool:
    """Whether the loop ends within `trips` trips on Python ints that stay within int64
    (so eager NumPy ends too, without a wrap the Python run would not show)."""
    guarded = source.replace("        if ", "        trips[0] += 1\n"
                                         "        if trips[0] > LIMIT or abs(n) > 2 ** 60:\n"
                                         "            raise OverflowError\n"
                                         "        if ", 1)
    namespace = {"trips": [0], "LIMIT": trips}
    exec(guarded, namespace)
    try:
        namespace["f"](n, m)
    except OverflowError:
        return False
    return True


@settings(max_examples=300, deadline=None)   # about a fifth end in int64 and run
@given(st.sampled_from(TESTS), st.sampled_from(STEPS), st.sampled_from(STEPS),
       st.sampled_from(AFTER), st.sampled_from([0, 1]), st.integers(-50, 10 ** 6),
       st.integers(-5, 5))
def test_generated_parity_loops_give_eager_s_answers(test, then, otherwise, after, stop, n, m):
    f, source = parity_loop(test, then, otherwise, after, stop)
    if not ends_in_int64(source, n, m):
        return
    check_program(f, (np.int64(n), np.int64(m)))


STEP = np.arange(5.0)


def collatz_reading_a_captured_array(n, x):
    total = x * 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
            total = total + STEP       # a constant the body reads: left unthreaded
        total = total - STEP / 2
    return total, n


def test_a_loop_reading_a_captured_array_gives_eager_s_answer():
    assert not threads(collatz_reading_a_captured_array, np.int64(27), np.zeros(5))
    for n in (1, 6, 27):
        check_program(collatz_reading_a_captured_array, (np.int64(n), np.zeros(5)))
