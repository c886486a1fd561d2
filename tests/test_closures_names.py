"""Closures see the current value of the names they read; generated names never collide.

Each function runs three ways against the eager oracle: plain Python, the
converted code run on the same values (`convert_function`: the operators' Python
mode, values not traced), and as a graph function traced once for all the value
sets of one signature (control flow depending on the values).
"""
import hashlib
import importlib.util
import os
import random
import sys

import numpy as np
import pytest
from generated_settings import SETTINGS
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import assert_same, quiet

import autograph as ag
from autograph.conversion import convert_function


def assert_identical(expected, got):
    """Converted code run on plain values gives exactly what Python gives (types too)."""
    assert type(got) is type(expected), f"{got!r}, Python gives {expected!r}"
    if isinstance(expected, tuple):
        for e, g in zip(expected, got, strict=True):
            assert_identical(e, g)
    else:
        assert np.array_equal(got, expected), f"{got!r}, Python gives {expected!r}"


def as_staged(value, got):
    """What a graph returns for `value`: a Python number that staged code made is an
    array (returning Python numbers is the NEP 50 weak-number work's)."""
    if isinstance(value, tuple):
        return tuple(as_staged(v, g) for v, g in zip(value, got))
    staged = isinstance(value, (int, float)) and isinstance(got, np.ndarray)
    return np.asarray(value)[()] if staged else value


def check(fn, *arg_sets, traces=1):
    """`fn` converted (run as Python, and as one graph) returns what `fn` returns."""
    graph_fn = ag.convert(fn)
    with quiet():
        for args in arg_sets:
            expected = fn(*args)
            assert_identical(expected, convert_function(fn)(*args))
            got = graph_fn(*args)
            assert_same(as_staged(expected, got), got)
    assert graph_fn.trace_count == traces, f"traced {graph_fn.trace_count} times"


# --- closures and lambdas read the function's variables, not a stale copy ----------------

def peek_in_for(xs):            # the example: eager 345, converted 222 before
    i = 0

    def peek():
        return i + 2
    s = 0
    for i in xs:
        s = s * 10 + peek()
    return s


def lambda_in_while(n):
    i = 0
    double = lambda: i * 2  # noqa: E731
    total = 0
    while i < n:
        total += double()
        i += 1
    return total, double()      # the closure called after the loop too


def closure_in_branches(x):
    y = x
    get = lambda: y  # noqa: E731
    if x.sum() > 0:
        y = x * 2
        z = get() + 1
    else:
        y = x - 1
        z = get() - 1
    return z + get()


def loop_in_branch(xs, n):
    k = 0
    tens = lambda: k * 10  # noqa: E731
    s = 0
    if n > 0:
        for k in xs:            # rebinds k inside a block inside a block
            s = s + tens()
    else:
        k = n
        s = tens()
    return s + tens()


def closure_with_comprehension(n):
    i = 0
    f = lambda: sum([i * m for m in range(3)])  # noqa: E731
    s = 0
    while i < n:
        i += 1
        s += f()
    return s


def closure_in_loop_test(n):
    i = 0
    current = lambda: i  # noqa: E731
    while current() < n:
        i += 1
    return i


def bound_only_by_the_loop(xs):
    f = lambda: i + 1  # noqa: E731
    s = 0
    for i in xs:
        s = s + f()
    return s, f()


def def_reads_accumulator(x, n):
    acc = x

    def scale(v):
        return v * acc
    i = 0
    while i < n:
        acc = acc + 1
        x = scale(x)
        i += 1
    return x


def test_closure_in_for_sees_the_loop_variable():
    check(peek_in_for, (np.array([1, 2, 3]),), (np.array([4, 5, 6]),), (np.array([0, 0, 9]),))
    assert ag.convert(peek_in_for)(np.array([1, 2, 3])) == 345


def test_closure_in_for_over_python_values():
    check(peek_in_for, ([1, 2, 3],), traces=1)
    check(peek_in_for, ((7, 8),), traces=1)


def test_lambda_in_while_and_after_it():
    check(lambda_in_while, (np.int64(3),), (np.int64(0),), (np.int64(5),))
    check(lambda_in_while, (4,))


def test_closure_in_staged_branches():
    check(closure_in_branches, (np.array([1.0, 2.0]),), (np.array([-1.0, -2.0]),))


def test_closure_across_nested_blocks():
    check(loop_in_branch, (np.array([1, 2]), np.int64(1)), (np.array([3, 4]), np.int64(-1)),
          (np.array([5, 6]), np.int64(0)))
    check(loop_in_branch, ([1, 2], 1))


def test_closure_with_a_comprehension():
    check(closure_with_comprehension, (np.int64(3),), (np.int64(0),))


def test_closure_called_in_the_loop_test():
    check(closure_in_loop_test, (np.int64(3),), (np.int64(5),), (np.int64(0),))


def item_write_beside_a_closure(x):
    y = np.tanh(x)
    shift = lambda: y
    if x.sum() > 100:
        pass
    elif x.sum() > 1:
        y = np.abs(shift()) + 1
    else:
        y[y > -0.5] = 2.0        # the branch function's own parameter for y is no alias
    return y + shift()


def test_item_write_to_a_name_a_closure_reads():
    check(item_write_beside_a_closure, (np.array([2.0, 0.0, 2.0]),),
          (np.array([-2.0, 0.0, 2.0]),))


def test_closure_of_a_name_only_the_loop_binds():
    check(bound_only_by_the_loop, (np.array([1, 2]),), (np.array([3, 4]),))


def test_nested_def_reads_the_current_accumulator():
    check(def_reads_accumulator, (np.array([1.0, 2.0]), np.int64(2)),
          (np.array([1.0, 2.0]), np.int64(0)), (np.array([0.5, 2.0]), np.int64(3)))


def test_generated_functions_declare_the_closure_variable():
    code = ag.to_code(peek_in_for)
    assert "nonlocal i" in code and "i = i_1" in code and "del i_1" in code, code


# --- generated names never collide with the user's --------------------------------------

GENERATED = ("itr", "itr_1", "itr_2", "loop_body", "loop_body_1", "loop_test", "if_true",
             "if_true_1", "if_false", "break_", "continue_", "do_return", "retval_",
             "retval__1", "extra_test", "ag__", "ag___1", "ag__create", "lambda_", "state",
             "names", "parameters", "declarations", "body", "test", "target")

_PROGRAM = """
import numpy as np


def f(xs, n):
    {a} = 0
    {b} = 1
    for {c} in xs:
        if {c} > n:
            {a} = {a} + {c}
            break
        {b} = {b} + 1
    while {b} < 5:
        {b} = {b} + 1
        if {a} > 100:
            return {a}
    {d} = lambda: {a} * 2
    for {e} in range(2):
        {a} = {a} + {d}()
    return {a} + {b}
"""


def _load(source, directory):
    name = "agnames_" + hashlib.sha1(source.encode()).hexdigest()[:16]
    path = os.path.join(str(directory), name + ".py")
    with open(path, "w") as file:
        file.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.f


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("names_programs")


@SETTINGS
@given(names=st.lists(st.sampled_from(GENERATED), min_size=5, max_size=5, unique=True))
def test_user_names_equal_to_generated_ones(names, program_dir):
    a, b, c, d, e = names
    f = _load(_PROGRAM.format(a=a, b=b, c=c, d=d, e=e), program_dir)
    check(f, (np.array([1, 2, 3]), np.int64(2)), (np.array([1, 5, 3]), np.int64(0)),
          (np.array([0, 0, 0]), np.int64(9)))


def module_named_like_the_operators(xs):
    ag__ = 3        # the user's own `ag__`: the operators go by another name
    for itr in xs:
        if itr > 1:
            ag__ = ag__ + itr
    return ag__


def test_a_user_variable_named_ag__():
    check(module_named_like_the_operators, (np.array([1, 2, 3]),), (np.array([0, 0, 0]),))
    assert "ag___1.for_stmt" in ag.to_code(module_named_like_the_operators)


def test_a_loop_variable_named_itr_and_a_placeholder_named_state():
    def scipy_style(xs):
        itr = 0
        state = 1
        for itr in xs:
            state = state * 2 + itr
        return state + itr
    check(scipy_style, (np.array([1, 2, 3]),), (np.array([3, 2, 1]),))


# --- generated programs: closures over names that staged blocks rebind -------------------

def _closure_program(rng) -> str:
    names = ["a", "b", "c"]

    def block(depth):
        return [line for _ in range(rng.randint(1, 3)) for line in statement(depth)]

    def statement(depth):
        indent, name, r = "    " * depth, rng.choice(names), rng.random()
        if depth < 3 and r < 0.2:
            return ([f"{indent}if {rng.choice(names)} > {rng.randint(-2, 4)}:"] + block(depth + 1)
                    + [f"{indent}else:"] + block(depth + 1))
        if depth < 3 and r < 0.3:
            return [f"{indent}for {name} in range({rng.choice(['n', '3'])}):"] + block(depth + 1)
        if depth < 3 and r < 0.38:
            return [f"{indent}while k < n:", f"{indent}    k = k + 1"] + block(depth + 1)
        if r < 0.55:
            return [f"{indent}{name} = ({name} + f{rng.randint(0, 1)}()) % 11"]
        return [f"{indent}{name} = {rng.choice(names)} % 7 - {rng.randint(0, 3)}"]
    body = ["k = 0", "a = x", "b = 0", "c = 1", "f0 = lambda: a + b", "def f1():",
            "    return c - a"]
    lines = ["    " + line for line in body] + block(1)
    return ("import numpy as np\n\n\ndef f(x, n):\n" + "\n".join(lines)
            + "\n    return a + b + c + f0() + f1()\n")


@settings(parent=SETTINGS, max_examples=min(SETTINGS.max_examples, 20))
@given(seed=st.integers(0, 2**32 - 1))
def test_generated_closure_programs(seed, program_dir):
    f = _load(_closure_program(random.Random(seed)), program_dir)
    check(f, (np.int64(2), np.int64(3)), (np.int64(-1), np.int64(0)), (np.int64(5), np.int64(2)))
