"""Converted code calling classes, objects and functions the converter cannot rewrite.

A user class's `__init__` and a user object's `__call__` are converted when
converted code calls them (staged control flow inside works, one trace for
several value sets); dataclasses, named tuples and library classes are made as
they are. A callee that cannot be converted (a generator, unsupported syntax)
runs as it is with one `ConversionWarning`; `ag.do_not_convert` marks one to run
as it is without a word.
"""
import collections
import dataclasses
import fractions
import typing
import warnings

import numpy as np
import pytest
from oracle import assert_same, quiet

import autograph as ag
from autograph.call_marks import describe_call


def check(fn, *arg_sets):
    """`fn` as one graph returns what it returns eagerly, for every value set."""
    graph_fn = ag.convert(fn)
    with quiet():
        for args in arg_sets:
            assert_same(fn(*args), graph_fn(*args))
    assert graph_fn.trace_count == 1, f"traced {graph_fn.trace_count} times"


POSITIVE, NEGATIVE = np.array([1.0, 2.0]), np.array([-1.0, -3.0])


class Lin:
    """`__init__` and `__call__` branch on traced values."""

    def __init__(self, w):
        if w.sum() > 0:
            w = w * 2
        else:
            w = -w
        self.w = w

    def __call__(self, x):
        if x.sum() > 0:
            return x * self.w
        return x - self.w

    def scaled(self, x, k):
        total = x
        while k > 0:
            total = total + self.w
            k -= 1
        return total


class Affine(Lin):
    """A subclass: `super().__init__` is converted too."""

    def __init__(self, w, b):
        super().__init__(w)
        if b.sum() > 0:
            b = b + 1
        self.b = b

    def __call__(self, x):
        return super().__call__(x) + self.b


def make_and_call(w, x):
    return Lin(w)(x)


def make_and_call_method(w, x, k):
    return Lin(w).scaled(x, k)


def make_subclass(w, b, x):
    layer = Affine(w, b)
    return layer(x), layer.w


def test_constructor_with_staged_branch():
    check(make_and_call, (POSITIVE, POSITIVE), (NEGATIVE, POSITIVE), (POSITIVE, NEGATIVE),
          (NEGATIVE, NEGATIVE))


def test_method_of_an_instance_made_in_converted_code():
    check(make_and_call_method, (POSITIVE, NEGATIVE, np.int64(2)),
          (NEGATIVE, POSITIVE, np.int64(0)))


def test_subclass_constructor_calling_super():
    check(make_subclass, (POSITIVE, POSITIVE, NEGATIVE), (NEGATIVE, NEGATIVE, POSITIVE))


def test_constructor_called_with_python_values():
    def python_side(x):
        return Lin(np.array([1.0, 1.0]))(x)
    check(python_side, (POSITIVE,), (NEGATIVE,))


class Step:
    def __init__(self, v):
        self.v = v * 2            # sets up the new object: fine inside a staged loop


def make_in_staged_loop(x, n):
    i = 0
    while i < n:
        x = x + Step(x).v
        i += 1
    return x


def test_constructor_inside_a_staged_loop():
    check(make_in_staged_loop, (POSITIVE, np.int64(2)), (NEGATIVE, np.int64(0)))


@dataclasses.dataclass
class Params:
    scale: np.ndarray
    shift: float = 1.0


class Pair(typing.NamedTuple):
    first: np.ndarray
    second: np.ndarray


Point = collections.namedtuple("Point", "x y")


class Counter:
    """A class whose `__new__` is its own: made as Python makes it."""

    def __new__(cls, start):
        obj = super().__new__(cls)
        obj.count = start
        return obj


def library_and_data_classes(x):
    params = Params(x * 2)
    pair = Pair(x, x + params.shift)
    point = Point(x.sum(), 2)
    ratio = fractions.Fraction(1, 3)
    counter = Counter(x)
    return params.scale + pair.second + point.x * point.y + float(ratio) + counter.count


def test_dataclasses_named_tuples_and_library_classes_keep_working():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.ConversionWarning)
        check(library_and_data_classes, (POSITIVE,), (NEGATIVE,))


def test_agc_marks_a_user_class_converted_and_others_as_is():
    assert describe_call(Lin) == "converted"
    assert describe_call(Params) == "as is"
    assert describe_call(Pair) == "as is"
    assert describe_call(fractions.Fraction) == "as is"
    assert describe_call(Lin(POSITIVE)) == "converted"


# --- callees the converter cannot rewrite, and ag.do_not_convert -------------------------

def count_up(n):
    for i in range(n):
        yield i * 2


def uses_generator(x):
    return x + sum(count_up(3))


def test_a_generator_callee_runs_as_is_with_one_warning():
    graph_fn = ag.convert(uses_generator)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = graph_fn(POSITIVE)
        uses_generator_again = ag.convert(uses_generator)(NEGATIVE)   # a second graph
    conversion = [w for w in caught if issubclass(w.category, ag.ConversionWarning)]
    assert len(conversion) == 1, [str(w.message) for w in conversion]
    assert "count_up" in str(conversion[0].message)
    assert "generator" in str(conversion[0].message)
    assert_same(uses_generator(POSITIVE), first)
    assert_same(uses_generator(NEGATIVE), uses_generator_again)


def matches(v):
    match v:
        case 0:
            return 1.0
        case _:
            return 2.0


def uses_match(x, k):
    return x * matches(k)


def test_a_callee_with_unsupported_syntax_runs_as_is_with_one_warning():
    with pytest.warns(ag.ConversionWarning, match=r"matches .*`match` statements"):
        got = ag.convert(uses_match)(POSITIVE, 0)
    assert_same(uses_match(POSITIVE, 0), got)


def test_the_top_level_generator_is_still_refused():
    with pytest.raises(ag.ConversionError, match="generator"):
        ag.convert(count_up)


@ag.do_not_convert
def python_branch(x):
    if x.ndim == 1:                 # Python control flow on a static fact, kept as it is
        return x * 3
    return x


def calls_marked(x):
    return python_branch(x) + 1


def test_do_not_convert_decorator():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.ConversionWarning)
        check(calls_marked, (POSITIVE,), (NEGATIVE,))
    assert describe_call(python_branch) == "as is"


def staged_helper(x):
    if x.sum() > 0:
        return x
    return -x


def test_do_not_convert_as_a_function_keeps_python_control_flow():
    marked = ag.do_not_convert(staged_helper)
    assert marked is staged_helper
    try:
        with pytest.raises(ag.TracingError):   # its `if` on a traced value is not staged
            ag.convert(lambda x: marked(x) * 2)(POSITIVE)
    finally:
        del staged_helper.__autograph_do_not_convert__
    check(lambda x: staged_helper(x) * 2, (POSITIVE,), (NEGATIVE,))


def test_do_not_convert_a_class_makes_it_as_is():
    class Plain:
        def __init__(self, x):
            self.x = x if x.ndim == 1 else None
    ag.do_not_convert(Plain)
    assert describe_call(Plain) == "as is"
    check(lambda x: Plain(x).x + 1, (POSITIVE,))


def test_ag_convert_of_a_marked_function_traces_it_as_it_is():
    graph_fn = ag.convert(python_branch)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ag.ConversionWarning)
        assert_same(python_branch(POSITIVE), graph_fn(POSITIVE))
    assert ag.convert(python_branch).python_function is python_branch
