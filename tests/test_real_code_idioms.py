"""Idioms of real NumPy code that crashed while tracing, against eager NumPy."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag

X = np.array([0.5, 2.0, -1.0, 3.0])


def index_by_appended_list(x, t):
    keep = []
    for i in range(4):
        if x[i] > t:          # staged: keep is a list of unknown length
            keep.append(i)
    return x[keep], np.arange(4.0)[keep]


def mask_by_appended_list(x, t):
    flags = []
    for i in range(4):
        flags.append(x[i] > t)
    return x[flags]


def joiners(x):
    return (np.concatenate([np.zeros(3), [x[0], x[1]]]), np.vstack([x[:2], [x[2], 1.0]]),
            np.hstack((x, [x.sum()])), np.stack([x[:2], [x[3], x[0]]], axis=1),
            np.column_stack([x[:2], [x[1], x[2]]]))


def rows_grown_in_a_loop(x):
    rows = np.empty((0, 2))
    for i in range(0, len(x) - 1, 2):
        rows = np.vstack([rows, [x[i], x[i + 1]]])
    return rows


@pytest.mark.parametrize("t", [0.0, 1.0, 10.0])
def test_a_list_appended_in_a_staged_block_indexes_as_eager_s(t):
    for fn in (index_by_appended_list, mask_by_appended_list):
        want, got = fn(X, t), ag.convert(fn)(X, np.float64(t))
        for w, g in zip(*(v if isinstance(v, tuple) else (v,) for v in (want, got))):
            assert w.dtype == g.dtype
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("fn", [joiners, rows_grown_in_a_loop])
def test_joiners_of_arrays_and_lists_of_traced_numbers(fn):
    want, got = fn(X), ag.convert(fn)(X)
    for w, g in zip(*(v if isinstance(v, tuple) else (v,) for v in (want, got))):
        assert w.dtype == g.dtype
        np.testing.assert_array_equal(g, w)


CASES = [(1, 2, 3, 4), (5, 6, 7, 8)]


def repeated_targets(x):
    names = [m * 2 for m, fn, _, _ in CASES]
    last = [a + b for a, b, a in [(1, 2, 3), (4, 5, 6)]]   # a is the last item, as Python's
    return x.sum() + sum(names) + sum(last)


def test_a_comprehension_binding_a_name_twice():
    # the comprehension's lambda took the target's names as parameters: a SyntaxError
    assert ag.convert(repeated_targets)(X) == repeated_targets(X)


def truths_of_mixed_and_or(b, x):
    n = 0
    if b[0] and x[0] > 0:               # an int item and a comparison: only the truth is read
        n = 1
    k = 0
    while (b[1] or x[1] > 5) and k < 3:
        k += 1
    if not (b[2] and x[2]):
        n += 10
    m = 100 if b[0] or x[2] < 0 else 200
    assert b[0] or b[1] or b[2] or x[0] > -10, "never"
    return n, k, m


@pytest.mark.parametrize("b", [[1, 0, 1], [0, 1, 0], [0, 0, 0], [3, -1, 2]])
def test_and_or_read_for_their_truth_join_bools(b):
    b = np.array(b)
    for x in (X[:3], -X[:3]):
        want, got = truths_of_mixed_and_or(b, x), ag.convert(truths_of_mixed_and_or)(b, x)
        assert [np.asarray(v).item() for v in got] == list(want)


def none_then_value(x):
    best = None
    for v in x:
        if v > 1:
            best = v
    return best


def test_none_joined_with_a_traced_value_names_the_line_and_the_way_out():
    with pytest.raises(ag.TracingError, match=r"NoneType .*test_real_code_idioms.py:\d+ .*"
                                              r"same kind on every path"):
        ag.convert(none_then_value)(X)


def label_by_sign(x):
    labels = []
    for v in x:
        if v > 0:
            labels.append("pos")
        else:
            labels.append("neg")
    state = "flat"
    if x.sum() > 1:
        state = "long"
    return labels, state


def test_texts_a_staged_block_chooses_are_returned_as_str():
    for x in (X, -X):
        want, got = label_by_sign(x), ag.convert(label_by_sign)(x)
        assert got == want and type(got[1]) is str and all(type(v) is str for v in got[0])


def pivoted(a):
    a = a.astype(float)
    for k in range(a.shape[0]):
        p = np.argmax(np.abs(a[k:, k])) + k   # traced
        a[[k, p]] = a[[p, k]]                 # a row swap by an index list holding p
        a[[p], k] += 0.5
    return a


@pytest.mark.parametrize("m", [np.array([[0.0, 2, 1], [1, 1, 1], [2, 1, 0]]),
                               np.array([[3, 1], [-4, 2]]), np.eye(3)[::-1].copy()])
def test_a_row_swap_with_a_traced_pivot_writes_as_eagerly(m):
    np.testing.assert_array_equal(ag.convert(pivoted)(m.copy()), pivoted(m.copy()))


def powers(d, e):
    return d ** 3, d ** 0.5, e ** -1.5, (d + e) ** 2.5, d ** 2


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 100.0), st.floats(0.01, 100.0), st.sampled_from([np.float32, np.float64]))
def test_powers_of_numpy_scalars_are_eager_s_bit_for_bit(a, b, dtype):
    # once 1 ulp off: the graph's np.power on a 0-d array rounds otherwise than NumPy's
    # scalar `**`, which eager code runs on the NumPy scalars it holds
    args = (dtype(a), dtype(b))
    for w, g in zip(powers(*args), ag.convert(powers)(*args)):
        assert np.asarray(g).dtype == w.dtype and np.asarray(g).tobytes() == w.tobytes()


def test_iterating_a_0d_array_is_numpy_s_type_error():
    def total(x):
        s = 0
        for v in x:
            s += v
        return s
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        total(np.array(3.0))
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        ag.convert(total)(np.array(3.0))


# -- a fourth real-code batch -------------------------------------------------------------

def late_bound(x):
    fs = []
    for k in range(3):
        fs.append(lambda v: v + k)          # each sees k's last value, 2, when called
    return [f(x) for f in fs] + [g(x) for g in [lambda v: v * j for j in range(2)]]


def bound_at_once(x, w):
    out = np.zeros(3)
    for i in range(3):
        scale = lambda v: v * w[i]           # called in its own trip only: converted
        out[i] = scale(np.apply_along_axis(lambda r: (r * w[i]).sum(), 0, x)[0])
    return out, sorted(range(3), key=lambda j: -x[j, 0])


def chosen_closure(x, flag):
    k = 1.0
    if flag:                                 # a Python condition: the branch still a function
        k = 2.0
        g = lambda v: v * k
    else:
        g = lambda v: v - k
    k = 10.0                                 # g reads this k when called
    return g(x)


@pytest.mark.parametrize("flag", [True, False])
def test_a_closure_made_in_an_if_reading_a_name_bound_again_later_is_eager_s(flag):
    x = np.ones(2)
    with pytest.raises(ag.ConversionError, match="reads 'k', which is assigned again"):
        ag.convert(chosen_closure, eager_fallback=False)(x, flag)
    with pytest.warns(ag.FallbackWarning):
        got = ag.convert(chosen_closure, eager_fallback=True)(x, flag)
    np.testing.assert_array_equal(got, chosen_closure(x, flag))


def test_a_closure_made_in_a_loop_reading_its_variable_is_refused_or_converted():
    x = np.ones(2)
    with pytest.raises(ag.ConversionError, match="reads 'k', which is assigned again"):
        ag.convert(late_bound, eager_fallback=False)(x)
    with pytest.warns(ag.FallbackWarning):
        got = ag.convert(late_bound, eager_fallback=True)(x)
    for g, w in zip(got, late_bound(x)):
        np.testing.assert_array_equal(g, w)
    args = (np.arange(9.0).reshape(3, 3), np.arange(3.0))
    want, got = bound_at_once(*args), ag.convert(bound_at_once)(*args)
    np.testing.assert_array_equal(got[0], want[0])
    assert [int(i) for i in got[1]] == want[1]


def pipeline(x):
    for f in [lambda v: v * 2, lambda v: v + 1]:
        x = f(x)
    return x


def rest_after_a_staged_loop(x, k):
    out = []
    i = 0
    while x[i] < k:
        out.append(x[i])
        i += 1
    out.extend(x[i:])                        # a traced array's items
    out.extend((x[0], x[1]))
    return np.array(out), len(out)


def texts(m, flag):
    label = "pos" if flag.sum() > 0 else "neg"
    return "\n".join(" ".join(f"{v:6.2f}" for v in row) for row in m), label


@pytest.mark.parametrize("k", [0, 3, 5])
def test_lists_of_functions_extend_by_arrays_and_joined_texts_are_eager_s(k):
    x = np.arange(6)
    np.testing.assert_array_equal(ag.convert(pipeline)(np.ones(2)), pipeline(np.ones(2)))
    want, got = rest_after_a_staged_loop(x, k), ag.convert(rest_after_a_staged_loop)(x, k)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1]
    flag = np.array([k - 2.5])
    assert ag.convert(texts)(np.eye(2) * k, flag) == texts(np.eye(2) * k, flag)


def test_a_str_method_of_a_text_a_traced_condition_chose_is_a_refusal():
    def shout(x):
        label = "pos" if x.sum() > 0 else "neg"
        return label.upper()
    with pytest.raises(AttributeError, match="str.upper of a text"):
        ag.convert(shout, eager_fallback=False)(np.ones(2))
    with pytest.warns(ag.FallbackWarning):
        assert ag.convert(shout, eager_fallback=True)(-np.ones(2)) == "NEG"
