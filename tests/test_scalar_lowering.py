"""Scalar lowering on the NumPy tier: a loop's int64 and float64 scalars as Python numbers.

The oracle is eager NumPy on NumPy scalars: the same values and dtypes, the
same warnings (int64 wrap-around, float overflow, division by zero, invalid
values) and, under `np.errstate(all="raise")`, the same errors. Programs
mix every lowered operation with literals and boundary values; each runs
eagerly and on the NumPy tier, whose code must show the lowering.
"""
from __future__ import annotations

import operator
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph_runtime.ops.machine_scalars import scalar_p
from autograph_runtime.passes.scalar_lowering import lower_scalars
from autograph_runtime.verify import verify

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from demo import collatz  # noqa: E402 - the README's Collatz

INT_OPS = [operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod]
FLOAT_OPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv]
INTS = [0, 1, -1, 3, -7, 2 ** 30 - 1, -2 ** 30, 2 ** 31, 2 ** 62, 2 ** 63 - 1, -2 ** 63,
        -2 ** 62 - 5]
FLOATS = [0.0, -0.0, 1.5, -2.25, 1e-300, 1e300, -1e308, np.inf, -np.inf, np.nan]


def program(op1, op2, op3, literal):
    """A staged loop (n is traced) over two NumPy scalars, with a staged `if`."""
    def f(a, b, n):
        i = 0
        while i < n:
            a = op1(a, b)
            b = op2(b * 3 + 1, literal)     # an int's `* 3 + 1`: one check for both
            if a > b:
                a = op3(a, literal)
            elif a == b:
                a = -a
            i += 1
        return a, b
    return f


def outcome(fn, *args, raising=False):
    """What `fn(*args)` gives: its values, or its error; and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught, \
            np.errstate(all="raise" if raising else "warn"):
        warnings.simplefilter("always")
        try:
            result = ("value", [np.asarray(v) for v in fn(*args)])
        except ArithmeticError as error:
            result = ("error", type(error), str(error))
    return result, sorted(str(w.message) for w in caught if "retrac" not in str(w.message))


def assert_same(want, got):
    (w, w_warnings), (g, g_warnings) = want, got
    assert w[0] == g[0], (want, got)
    if w[0] == "value":
        for a, b in zip(w[1], g[1]):
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
    else:
        assert w[1:] == g[1:]
    assert w_warnings == g_warnings


def check_program(f, args, raising=False):
    """`f` eagerly and on the NumPy tier: the same values, warnings and errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        converted = ag.convert(f, tier="numpy")
    assert_same(outcome(f, *args, raising=raising), outcome(converted, *args, raising=raising))


def lowered_ops(fn, *args) -> int:
    concrete = ag.convert(fn, tier="numpy").get_concrete_function(*args)
    graph = lower_scalars(concrete.optimized_graph)
    verify(graph)
    return sum(e.primitive is scalar_p and e.params["op"] not in ("box", "unbox")
               for e in graph.all_eqns())


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(INT_OPS), st.sampled_from(INT_OPS), st.sampled_from(INT_OPS),
       st.sampled_from([0, 1, -1, 2, 3, 2 ** 40]), st.sampled_from(INTS),
       st.sampled_from(INTS), st.integers(0, 4), st.booleans())
def test_int64_loops_give_numpy_results_warnings_and_errors(op1, op2, op3, literal, a, b, n,
                                                            raising):
    check_program(program(op1, op2, op3, literal), (np.int64(a), np.int64(b), np.int64(n)),
                  raising)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FLOAT_OPS), st.sampled_from(FLOAT_OPS), st.sampled_from(FLOAT_OPS),
       st.sampled_from([0.0, 1.0, -2.5, 3, 1e300]), st.sampled_from(FLOATS),
       st.sampled_from(FLOATS), st.integers(0, 4), st.booleans())
def test_float64_loops_give_numpy_results_warnings_and_errors(op1, op2, op3, literal, a, b, n,
                                                              raising):
    check_program(program(op1, op2, op3, literal), (np.float64(a), np.float64(b), np.int64(n)),
                  raising)


def test_collatz_runs_on_python_ints():
    source = ag.convert(collatz, tier="numpy").get_concrete_function(np.int64(27)).source
    assert "__unbox" in source and "not (n_2 & 1)" in source and "3 * n_2 + 1" in source
    assert "n_2 = n_2 >> 1" in source   # the branch writes the loop's carry itself
    assert ag.convert(collatz, tier="numpy")(np.int64(27)) == collatz(np.int64(27)) == 111
    assert lowered_ops(collatz, np.int64(27)) == 5


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(INTS + [2 ** 30 - 2, 2 ** 30, -2 ** 30 + 1, -2 ** 30 - 1]),
       st.sampled_from([1, 2, 3, -3, 2 ** 33]), st.integers(1, 40))
def test_range_checks_near_one_digit_and_int64_bounds_are_numpy_s(a, k, n):
    # an int's check tests +-(2**30 - 1) first (one CPython digit, cheap), int64's bounds after
    def f(a, n):
        i = 0
        while i < n:
            a = a * k + 1
            i += 1
        return a, i
    check_program(f, (np.int64(a), np.int64(n)))
    check_program(f, (np.int64(a), np.int64(n)), raising=True)


@pytest.mark.parametrize("zero, value", [(0, v) for v in (0, 3, -2)] + [
    (z, v) for z in (0.0, -0.0) for v in (0.0, -0.0, 2.5, np.nan, np.inf)])
def test_a_test_against_zero_is_python_s_truth_and_eager_s_answer(zero, value):
    def f(x, n):
        count = 0
        i = 0
        while i < n:
            if x == zero:          # `not x` on the NumPy tier
                count += 1
            if zero == x - x:      # nan - nan is nan: not zero
                count += 10
            same = x == zero       # a value, not only a test
            x = -x
            i += 1
        return count, same

    x = np.float64(value) if isinstance(value, float) else np.int64(value)
    source = ag.convert(f, tier="numpy").get_concrete_function(x, np.int64(2)).source
    assert "not " in source
    check_program(f, (x, np.int64(2)))


def test_a_lowered_value_read_by_numpy_is_a_numpy_scalar_again():
    def f(x, n):
        k = np.int64(0)
        s = np.float64(0.5)
        while k < n:
            k = k + 1
            s = s * 1.5 - 0.25
        return x * k, x * s      # float32 * int64 is float64: NumPy's promotion

    x = np.ones(3, np.float32)
    want, got = f(x, np.int64(4)), ag.convert(f, tier="numpy")(x, np.int64(4))
    for w, g in zip(want, got):
        assert g.dtype == w.dtype == np.float64
        np.testing.assert_array_equal(g, w)


def test_a_loop_whose_scalars_feed_arrays_each_trip_stays_on_numpy_scalars():
    def f(x, n):
        k = np.int64(0)
        while k < n:
            x = x * k + 1.0        # k read as a NumPy value every trip: a box each trip
            k = k + 1
        return x

    x = np.arange(3.0)
    assert lowered_ops(f, x, np.int64(3)) == 0
    np.testing.assert_array_equal(ag.convert(f, tier="numpy")(x, np.int64(3)),
                                  f(x, np.int64(3)))


def test_nested_loops_are_lowered_each():
    def f(n):
        total = np.int64(0)
        i = np.int64(0)
        while i < n:
            j = np.int64(0)
            while j < i:
                total = total + i * j
                j = j + 1
            i = i + 1
        return total

    assert f(np.int64(30)) == ag.convert(f, tier="numpy")(np.int64(30))
    assert lowered_ops(f, np.int64(30)) >= 5


def test_the_native_and_traced_graphs_keep_numpy_scalars():
    concrete = ag.convert(collatz, tier="numpy").get_concrete_function(np.int64(27))
    for graph in (concrete.graph, concrete.optimized_graph):
        assert not any(e.primitive is scalar_p for e in graph.all_eqns())


@pytest.mark.parametrize("n", [3074457345618258602, 3074457345618258603, -3074457345618258603,
                               -3074457345618258602, 5])
@pytest.mark.parametrize("c", [1, -1, 2 ** 61])
def test_a_step_by_a_literal_is_checked_with_the_product(n, c):
    # 3 * n + c in one line and one check: n at the edge where 3 * n, or 3 * n + c, wraps
    def f(n, k):
        i = 0
        while i < k:
            n = 3 * n + c
            i += 1
        return (n,)

    args = (np.int64(n), np.int64(1))
    source = ag.convert(f, tier="numpy").get_concrete_function(*args).source
    assert f"3 * n_2 + {c}" in source.replace(f"+ ({c})", f"+ {c}")
    check_program(f, args)
    check_program(f, args, raising=True)


@pytest.mark.parametrize("k", [0, 1, 3, 62])
def test_division_by_a_power_of_two_is_a_shift_and_a_mask(k):
    def f(a, n):
        i = 0
        q, r = a, a
        while i < n:
            q, r = a // (2 ** k), a % (2 ** k)
            i += 1
        return q, r

    args = (np.int64(-7), np.int64(1))
    source = ag.convert(f, tier="numpy").get_concrete_function(*args).source
    assert f">> {k}" in source and f"& {2 ** k - 1}" in source
    for a in INTS:
        check_program(f, (np.int64(a), np.int64(1)))


def swap_in_branch(a, b, n):
    i = 0
    while i < n:
        if a > b:
            a, b = b, a * 3 + 1      # reads the old a after writing b
        else:
            b = a - b
            a = a + b                # reads the new b
        i += 1
    return a, b


def write_then_read_in_branch(a, b, n):
    i = 0
    while i < n:
        if a % 2 == 0:
            a = a // 2
            b = b + a                # the new a
        else:
            b = b - a                # the old a, after which a is written
            a = 3 * a + 1            # checked: NumPy's where it wraps, on the old a
        i += 1
    return a, b


def nested_branches(a, b, n):
    i = 0
    while i < n:
        if a > 0:
            if b > a:
                a, b = b - a, a
            else:
                a = a * b
        else:
            a = -a + b
        i += 1
    return a, b


@pytest.mark.parametrize("fn", [swap_in_branch, write_then_read_in_branch, nested_branches])
@pytest.mark.parametrize("a, b", [(27, 5), (-4, 9), (3074457345618258603, 1),
                                  (2 ** 62, -2 ** 62), (-2 ** 63, 7)])
def test_branches_writing_a_loop_s_carries_read_what_eager_reads(fn, a, b):
    # a branch's result written to the carry's own name (`a = a // 2`, no copy after the
    # `if`) only where nothing reads the old value afterwards
    for n in (1, 2, 5):
        args = (np.int64(a), np.int64(b), np.int64(n))
        check_program(fn, args)
        check_program(fn, args, raising=True)


@pytest.mark.parametrize("a, b", [(7, 0), (-2 ** 63, -1), (5, -3)])
def test_integer_division_by_zero_and_overflow_are_numpy_s(a, b):
    def f(a, b, n):
        i = 0
        q, r = a, a
        while i < n:
            q, r = a // b, a % b
            i += 1
        return q, r

    args = (np.int64(a), np.int64(b), np.int64(1))
    assert lowered_ops(f, *args) >= 2
    check_program(f, args)


def test_a_loop_inside_with_and_try_is_lowered_as_it_runs_in_their_subgraph(monkeypatch):
    # the blocks of `with np.errstate` and `try` run as subgraphs compiled on their own
    import autograph_runtime.codegen as codegen
    lowered_graphs = []

    def recording(graph):
        result = lower_scalars(graph)
        lowered_graphs.append(result)
        return result
    monkeypatch.setattr(codegen, "lower_scalars", recording)

    def f(x, n, limit=np.int64(10 ** 18)):
        step = lambda v: v * 7 + 3              # a closure
        k, total = np.int64(1), np.int64(0)
        w = x[1:]                               # a view
        with np.errstate(divide="ignore"):
            try:
                while k < n:
                    k = step(k)
                    total = total + k // 5 - k % 3
                    if total > limit:
                        total = total - limit
            except KeyError:                    # no kernel raises it: the `try` is traced
                total = np.int64(-1)
        w[0] = total % 100                      # an item write through the view
        return x, k, total

    for n in (10 ** 6, 2 ** 62, -1):
        for raising in (False, True):
            check_program(f, (np.zeros(3, np.int64), np.int64(n)), raising)
    assert any(e.primitive is scalar_p and e.params["op"] == "multiply"
               for graph in lowered_graphs for e in graph.all_eqns())


STEPS = {   # an int64 step of one variable and literals: its fallback can take it back
    "x + L": lambda x: x + 9,
    "x - L": lambda x: x - 9,
    "L - x": lambda x: 9 - x,
    "x * L": lambda x: x * 3,
    "x * -L": lambda x: x * -3,
    "-x": lambda x: -x,
    "3x + 1": lambda x: 3 * x + 1,
    "3x - 5": lambda x: 3 * x - 5,
    "7 - 2x": lambda x: 7 - 2 * x,
}


def stepping(step, in_branch):
    def f(a, n):
        i = 0
        while i < n:
            if in_branch and a % 2 == 0:   # a branch writing the carry itself
                a = a // 2
            else:
                a = step(a)             # `a_2 = step(a_2)`: the result replaces a_2
            i += 1
        return (a,)
    return f


@pytest.mark.parametrize("in_branch", [True, False], ids=["branch", "body"])
@pytest.mark.parametrize("name", list(STEPS))
def test_a_step_whose_result_replaces_its_operand_falls_back_on_the_operand(name, in_branch):
    # where Python's result leaves int64, NumPy's fallback recomputes the step from the
    # operand, which the result replaced: it is taken back from the result exactly
    f = stepping(STEPS[name], in_branch)
    source = ag.convert(f, tier="numpy").get_concrete_function(np.int64(1), np.int64(1)).source
    assert re.search(r"a_2 = __numpy\d+\([^\n]*a_2", source)   # from the result a_2
    for a in INTS + [3074457345618258603, -3074457345618258603, 2 ** 62 + 1]:
        for n in (1, 3):
            args = (np.int64(a), np.int64(n))
            check_program(f, args)
            check_program(f, args, raising=True)
