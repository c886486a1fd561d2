"""Lists whose length depends on an `if` on a traced value (issue #12).

Where the branches of a staged `if` leave a list with different lengths (or one
fills it in a staged loop and the other does not), the list after the `if` is a
`TracedList`, as after a staged loop: one stacked array whose length the graph
computes. Every way of reading it must give the eager answer, in dtype and
value, on every path, through one trace; what NumPy would type differently on
two paths (an empty list is float64) is a `PathTypeError`, and elements a stack
cannot hold are a `TracingError` naming the list and the line.
"""
import numpy as np
import pytest

import autograph as ag
from autograph_runtime import TracingError
from autograph_runtime.errors import PathTypeError


def brief_example(x):
    L = []
    if x.sum() > 0:
        L.append(x[0])
    L.append(x[1])
    return np.sum(L), len(L)


def np_stack(x):
    L = [x[2]]
    if x.sum() > 0:
        L.append(x[0])
        L.append(x[0] * 2)
    return np.stack(L).mean(), np.stack(L)


def builtin_sum(x):
    s = x[0]
    L = [s]
    if x[1] > 0:
        L.append(x[1] * 3)
    return sum(L), s + sum(L)


def for_over(x):
    s = 0.0
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])
    elif x[2] > 0:
        L.append(x[2])
        L.append(x[2] + 1)
    for v in L:
        s = s + v * v
    return s


def returned(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])
    return L


def returned_in_tuple(x):
    L = []
    if x[1] > 0:
        L.append(x[1])
        L.append(x[2])
    L.append(x[0])
    return x * 2, L


def comprehension(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])
    return np.array([v + 1 for v in L]), len(L)


def indexed(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])
    return L[0] + L[-1], np.array(L[1:], dtype=np.float32)


def mixed_int_float(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(np.int64(3))         # an int appended to floats: floats, as np.array gives
    if x[2] > 0:
        L.append(np.sum(x > 0))
    return np.array(L), np.sum(L)


def ints_then_float(x):
    L = []
    if x[1] > 0:
        L.append(np.int64(3))
    L.append(x[0])                    # floats on every path from here
    return np.array(L), np.sum(L)


def arrays(x):
    rows = [x]
    if x[0] > 0:
        rows.append(x * 2)
    return np.mean(rows, axis=0), np.stack(rows, axis=1), np.concatenate(rows)


def new_list_in_branch(x):
    L = [x[0]]
    if x[1] > 0:
        L = [x[1], x[2], x[0]]
    else:
        L.append(x[2])
    return np.sum(L), len(L)


def nested_ifs(x):
    L = []
    if x[0] > 0:
        L.append(x[0])
        if x[1] > 0:
            L.append(x[1])
    else:
        L.append(x[2])
    return np.sum(L), len(L)


def staged_loop_in_branch(x, n):
    L = [x[0]]
    if x[1] > 0:
        for i in range(n):
            L.append(x[2] * i)
    return np.sum(L), len(L)


def in_python_loop(x):
    L = [x[0]]
    for j in range(3):
        if x[j] > 0:
            L.append(x[j] * j)
    return np.sum(L), len(L)


def sorted_list(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])
        L.append(x[2])
    L.sort()
    M = [x[0]]
    if x[1] > 0:
        M.append(x[1])
    if x[2] > 0:
        M.sort()                      # carried by the `if`: its branch sorts its own copy
    return np.array(L), sorted(L), np.array(M)


def empty_path_floats(x):
    L = []
    if x[1] > 0:
        L.append(x[1])
    return np.sum(L), np.array(L), sum(x[0] + v for v in L), [v for v in L], L


def empty_path_sum(x):
    s = x[0]
    L = []
    if x[1] > 0:
        L.append(np.int64(2))
    return s + sum(L)


def empty_path_stack(x):
    L = []
    if x[1] > 0:
        L.append(x[1])
    return np.stack(L).mean()


def empty_path_max(x):
    L = []
    if x[1] > 0:
        L.append(x[1])
    return max(L)


def concatenated(x):
    L = [x[0]]
    if x[1] > 0:
        L = L + [x[1], x[2]]
    M = [x[2]] + L
    M.reverse()
    L.extend([x[0], x[1]])
    return np.array(M), np.array(L.copy())


def weak_length(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])
    return x.astype(np.float32) * len(L), len(L) + 1


def appended_in_a_later_loop(x, n):
    L = []
    if x[1] > 0:
        L.append(x[1])
    for i in range(n):
        L.append(x[0] * i)
    return np.sum(L), len(L), L


def read_before_appending_in_a_branch(x):
    L = []
    if x[0] > 0:
        t = np.sum(L) + len(L)        # [] here: 0.0 + 0
        L.append(x[1] + t)
    return np.sum(L), len(L)


def read_before_appending_in_a_loop(x, n):
    L = []
    s = 0.0
    for i in range(n):
        s = s + np.sum(L) + len(L)    # [] on the first step
        for v in L:
            s = s + v
        L.append(x[i % 3])
    return s, L


def returned_early_before_growing(x):
    L = []
    if x[0] > 2.5:
        return x[1], L                # the list as it is here: []
    if x[1] > 0:
        L.append(x[1])
    if x[2] > 0:
        return x[2], L                # stacked here, a plain [] in the first `return`
    return x[0], L


def dtype_per_path_then_floats(x):
    L = []
    if x[0] > 0:
        L.append(np.int64(1))
        L.append(np.int64(2))
    else:
        L.append(x[1])
    L.append(x[2])                    # float64 on every path from here
    return np.sum(L), np.array(L), len(L)


def dtype_per_path_iterated(x):
    L = [np.int64(1)]
    if x[0] > 0:
        L.append(x[1])                # float64 elements on this path only
    s = x[2]
    for v in L:
        s = s + v
    return s, len(L)


def dtype_per_path_summed(x):
    L = [np.int64(1)]
    if x[0] > 0:
        L.append(x[1])
    return np.sum(L)                  # int64 or float64, by the path


INPUTS = [np.array(v) for v in ([1.0, 2.0, 3.0], [-3.0, 1.0, -1.0], [1.0, -2.0, 0.5],
                                [-1.0, -2.0, -0.5], [2.0, 0.5, -4.0], [3.0, 1.0, 2.0])]
CASES = [brief_example, np_stack, builtin_sum, for_over, returned, returned_in_tuple,
         comprehension, indexed, mixed_int_float, ints_then_float, arrays, new_list_in_branch,
         nested_ifs, in_python_loop, sorted_list, empty_path_floats, empty_path_sum,
         concatenated, weak_length, read_before_appending_in_a_branch,
         returned_early_before_growing, dtype_per_path_then_floats, dtype_per_path_iterated]


def _same(got, want):
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if not isinstance(want, (bool, int, float, complex)):  # a Python number: joined weakly
        assert np.asarray(got).dtype == np.asarray(want).dtype, (got, want)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fn", CASES, ids=[fn.__name__ for fn in CASES])
def test_matches_eager_on_every_path_through_one_trace(fn):
    converted = ag.convert(fn)
    for x in INPUTS:
        _same(converted(x), fn(x))
    assert converted.trace_count == 1


@pytest.mark.parametrize("fn", [staged_loop_in_branch, appended_in_a_later_loop,
                                read_before_appending_in_a_loop])
def test_with_a_staged_loop(fn):
    converted = ag.convert(fn)
    for x in INPUTS:
        for n in (np.int64(0), np.int64(3)):
            _same(converted(x, n), fn(x, n))
    assert converted.trace_count == 1


@pytest.mark.parametrize("fn", [empty_path_stack, empty_path_max])
def test_empty_path_raises_as_eager(fn):
    converted = ag.convert(fn)
    full, empty = np.array([1.0, 2.0, 3.0]), np.array([1.0, -2.0, 3.0])
    _same(converted(full), fn(full))
    with pytest.raises(ValueError):
        fn(empty)
    with pytest.raises(ValueError):
        converted(empty)
    assert converted.trace_count == 1


def empty_path_int_sum(x):
    L = []
    if x[1] > 0:
        L.append(np.int64(2))
    return np.sum(L)


def test_empty_path_of_ints_is_a_path_type_error_when_it_runs():
    converted = ag.convert(empty_path_int_sum)
    full = np.array([1.0, 2.0, 3.0])
    _same(converted(full), empty_path_int_sum(full))     # int64 where it is not empty
    with pytest.raises(PathTypeError, match="'L'"):      # eager: float64 0.0 here
        converted(np.array([1.0, -2.0, 3.0]))
    assert converted.trace_count == 1


def mixed_max(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(np.int64(3))
    return max(L)


def mixed_returned(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(np.int64(3))
    return L


def shapes_differ(x):
    L = []
    if x[1] > 0:
        L.append(x[0])
    else:
        L.append(x)
        L.append(x)
    return len(L)


def shapes_differ_in_one_branch(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x)
    return len(L)


def unstackable(x):
    L = [x[0], x]
    if x[1] > 0:
        L.append(x[0])
    return len(L)


def aliased(x):
    L = [x[0]]
    M = L
    if x[1] > 0:
        L.append(x[1])
    return np.sum(M)


def truth_value(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])
    if L:
        return x
    return -x


def out_of_range(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])
    return L[1]


def test_an_item_past_the_end_raises_as_eager():
    converted = ag.convert(out_of_range)
    full = np.array([1.0, 2.0, 3.0])
    _same(converted(full), out_of_range(full))
    with pytest.raises(IndexError):
        converted(np.array([1.0, -2.0, 3.0]))


def sorted_by_a_closure(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])

    def order():
        L.sort()
    if x[2] > 0:
        order()
    return np.array(L)


def popped(x):
    L = [x[0]]
    if x[1] > 0:
        L.append(x[1])
    return L.pop()


@pytest.mark.parametrize("fn, error, match", [
    (popped, TracingError, r"L\.pop\(\)"),
    (sorted_by_a_closure, TracingError, r"L\.sort\(\) inside an `if`"),
    (mixed_max, PathTypeError, "max.*'L'.*different dtypes"),
    (dtype_per_path_summed, PathTypeError, "np.sum.*'L'.*float64 or int64 elements"),
    (mixed_returned, PathTypeError, "'L'.*different dtypes"),
    (shapes_differ, TracingError, r"'L' holds elements of shape \(\) on one path .*\(3,\)"),
    (shapes_differ_in_one_branch, TracingError, r"'L' holds elements of shape \(\) .*\(3,\)"),
    (unstackable, TracingError, "'L' has a different length.*cannot be stacked"),
    (aliased, TracingError, "'M' is the same list"),
    (truth_value, TracingError, "truth value of list 'L'"),
], ids=lambda v: getattr(v, "__name__", None))
def test_what_a_stack_cannot_hold_is_refused_naming_the_list(fn, error, match):
    with pytest.raises(error, match=match) as caught:
        ag.convert(fn)(np.array([1.0, 2.0, 3.0]))
    assert "test_staged_if_lists.py" in str(caught.value) or fn is mixed_returned


# --- the same in staged loops, which may run no trip -----------------------------------

def loop_int_sum(n):
    xs = []
    for i in range(n):
        xs.append(i * 2)
    return np.sum(xs), len(xs)


def loop_stack(n):
    xs = []
    for i in range(n):
        xs.append(np.ones(2) * i)
    return np.stack(xs)


def loop_mixed_returned(n, x):
    xs = [x[0]]
    for i in range(n):
        xs.append(i)
    return xs


def loop_aliased(n):
    xs = []
    ys = xs
    for i in range(n):
        xs.append(i * 2.0)
    return np.sum(ys)


def test_a_loop_that_may_run_no_trip():
    converted = ag.convert(loop_int_sum)
    _same(converted(np.int64(3)), loop_int_sum(np.int64(3)))
    with pytest.raises(PathTypeError, match="'xs'"):    # eager: float64 0.0 of []
        converted(np.int64(0))
    stacked = ag.convert(loop_stack)
    _same(stacked(np.int64(2)), loop_stack(np.int64(2)))
    with pytest.raises(ValueError, match="need at least one array"):
        stacked(np.int64(0))
    assert converted.trace_count == stacked.trace_count == 1


def test_a_loop_list_of_mixed_dtypes_returned_is_refused():
    with pytest.raises(PathTypeError, match="'xs'.*different dtypes"):
        ag.convert(loop_mixed_returned)(np.int64(2), np.array([0.5, 1.0]))


def test_a_loop_list_with_an_alias_is_refused():
    with pytest.raises(TracingError, match="'xs' grows in a loop.*'ys' is the same list"):
        ag.convert(loop_aliased)(np.int64(2))


def appended_only_after_a_break(n, x):
    s = x.sum()
    L = []
    for j in range(n):               # staged: n is traced
        try:
            break
        finally:
            s = s + 1.0
        L.append(x[0])               # never runs: no path appends
    return L, s


def test_a_list_no_path_appends_to_is_returned_empty():
    """The graph returned its internal `TracedList(Placeholder('list'))` (a campaign find)."""
    converted = ag.convert(appended_only_after_a_break)
    for n in (0, 3):
        eager = appended_only_after_a_break(np.int64(n), np.ones(3))
        graph = converted(np.int64(n), np.ones(3))
        assert graph[0] == [] == eager[0] and graph[1] == eager[1]
    assert converted.trace_count == 1


def returned_from_a_branch_the_other_loops(k, x):
    L = [x[0]]
    if k == 1:                        # traced
        for j0 in (1, 2):
            return L
        else:
            L.append(x.sum())
    else:
        for v in x:                   # a staged loop in the other branch
            x = x * 1.5
    return L


def test_a_list_returned_from_one_branch_keeps_its_items_on_the_other():
    """The return value's placeholder in the other branch holds no list, so the `if`'s result
    for it is a new list, not written back into `L` (3 campaign programs got [0.0])."""
    converted = ag.convert(returned_from_a_branch_the_other_loops)
    for k in (0, 1):
        eager = returned_from_a_branch_the_other_loops(np.int64(k), np.array([1.0, 2.0]))
        graph = converted(np.int64(k), np.array([1.0, 2.0]))
        assert [float(v) for v in graph] == [float(v) for v in eager]
