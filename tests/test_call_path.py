"""The short call path (`autograph/fast_path.py`) agrees with the full one.

A graph function whose short path is switched off (`full_path_only`) is the
reference: for every call, the two give the same result (value, dtype, type),
the same `trace_count` and the same error.
"""
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
from autograph.fast_path import call_key
from autograph.trace_cache import MAX_CALL_KEYS
from autograph_runtime.call_modes import modes as call_modes


def full_path_only(f):
    """`f` with its short path never filled: every call binds, flattens and keys."""
    f._prepare_short_path = lambda *args: None
    return f


def count_full_calls(f):
    """Counts the calls `f` sends down its full path (in `f.full_calls`)."""
    f.full_calls = 0
    full = f._call

    def counted(args, kwargs):
        f.full_calls += 1
        return full(args, kwargs)
    f._call = counted
    return f


def outcome(f, args, kwargs):
    try:
        return "ok", f(*args, **kwargs)
    except Exception as error:   # the same error type and text on both paths
        return "error", (type(error), str(error).splitlines()[0])


def assert_same(got, want):
    if isinstance(want, tuple) and want and want[0] in ("ok", "error"):
        assert got[0] == want[0], (got, want)
        got, want = got[1], want[1]
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), (got, want)
        for a, b in zip(got, want):
            assert_same(a, b)
        return
    assert type(got) is type(want), (got, want)
    if isinstance(want, (np.ndarray, np.generic)):
        assert got.dtype == want.dtype and np.shape(got) == np.shape(want)
        np.testing.assert_array_equal(got, want)
    else:   # floats by repr: -0.0 is not 0.0, nan is nan
        assert repr(got) == repr(want), (got, want)


def make_target():
    """A new function object each time (its own closure cell): wrappers share no traces."""
    offset = np.float32(0.5)

    def target(x, s, k=2, *rest, mode="add", **options):
        y = x * s
        if mode == "add":
            z = y + k
        else:
            z = y - k
        for r in rest:
            z = z * r
        if options.get("flip"):
            z = -z
        return y, s, z, offset
    return target


# Values that look alike (equal, or equal once converted): one example draws its
# calls' Python and NumPy leaves from one group, so calls meet keys they must not share.
LOOK_ALIKE = [
    [0.0, -0.0, 0, False, np.float64(-0.0), np.array(-0.0), (0.0,), (-0.0,)],
    [1, 1.0, True, np.float64(1.0), np.array(1.0), np.int64(1), np.float32(1.0)],
    [np.bool_(True), np.array(True), np.array([1.0]), (1,), (1.0,), (True,), [1.0], "1"],
    [float("nan"), float("nan"), np.float64("nan"), np.array(np.nan), (float("nan"),),
     float("inf"), np.float32("inf")],
    [2**40, 2**63 - 1, np.uint8(200), np.int8(-4), b"x", (), None, [np.float32(1)]],
]
ARRAYS_ALIKE = [np.ones(3), np.ones(3, np.float32), np.ones(3, np.int64), np.ones((1, 3)),
                np.ones(3, bool), np.ones(3, ">f8"), np.float64(1), np.array(1.0)]
arrays = st.sampled_from([np.arange(3, dtype=np.float32), np.ones(3), np.arange(6).reshape(2, 3),
                          np.array(1.0), np.array(True), np.array([True, False, True]),
                          np.arange(3, dtype=np.int8), np.float32(1.5), np.int64(3)])


@st.composite
def calls(draw, group):
    leaf = st.sampled_from(group)
    args = [draw(arrays), draw(leaf)]
    kwargs = {}
    if draw(st.booleans()):
        k = draw(st.one_of(leaf, arrays))
        if draw(st.booleans()):
            args.append(k)
            args += draw(st.lists(leaf, max_size=2))
        else:
            kwargs["k"] = k
    if draw(st.booleans()):
        kwargs["mode"] = draw(st.sampled_from(["add", "sub"]))
    if draw(st.booleans()):
        kwargs["flip"] = draw(leaf)
    if draw(st.booleans()):
        kwargs = dict(reversed(list(kwargs.items())))
    return tuple(args), kwargs


@pytest.mark.filterwarnings("ignore::autograph.RetracingWarning")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")   # overflow, nan, as eagerly
@settings(max_examples=100, deadline=None)
@given(st.data())
@pytest.mark.parametrize("options", [{}, {"reduce_retracing": True}])
def test_short_and_full_paths_agree(options, data):
    group = data.draw(st.sampled_from(LOOK_ALIKE))
    (_, _, *rest), kwargs = data.draw(calls(group))   # one call, its `x` and `s` varied:
    pairs = st.tuples(st.sampled_from(ARRAYS_ALIKE), st.sampled_from(group))
    call_list = [((x, s, *rest), kwargs)
                 for x, s in data.draw(st.lists(pairs, min_size=2, max_size=8))]
    call_list += data.draw(st.lists(calls(group), max_size=6))   # and calls of any shape
    fast = ag.convert(make_target(), **options)
    full = full_path_only(ag.convert(make_target(), **options))
    for _ in range(2):   # the second round repeats every call: hits where keys allow
        for args, kwargs in call_list:
            assert_same(outcome(fast, args, kwargs), outcome(full, args, kwargs))
            assert fast.trace_count == full.trace_count
        call_list = data.draw(st.permutations(call_list))


def scaled(x, s):
    return x * s


SPEC = [ag.TensorSpec((None, 3), np.float32), ag.TensorSpec((), np.float32)]
spec_args = st.sampled_from([np.ones((2, 3), np.float32), np.ones((5, 3), np.float32),
                             np.ones((2, 3)), np.ones(3, np.float32), np.ones((2, 4), np.float32),
                             np.float32(2.0), np.float64(2.0), np.array(2.0, np.float32), 2.0,
                             [[1.0, 2.0, 3.0]], None])


@pytest.mark.filterwarnings("ignore::autograph.RetracingWarning")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.sampled_from([np.ones((2, 3), np.float32),
                                                     np.ones((4, 3), np.float32)]), spec_args),
                          st.one_of(st.sampled_from([np.float32(3), np.array(1, np.float32)]),
                                    spec_args)),
                min_size=1, max_size=10))
def test_short_and_full_paths_agree_under_an_input_signature(call_list):
    fast = ag.convert(lambda x, s: scaled(x, s), input_signature=SPEC)
    full = full_path_only(ag.convert(lambda x, s: scaled(x, s), input_signature=SPEC))
    for args in call_list + call_list:
        assert_same(outcome(fast, args, {}), outcome(full, args, {}))
        assert fast.trace_count == full.trace_count


# -- what takes the short path -------------------------------------------------------

def scale(x, s, k=1.0, *, mode="add"):
    return x * s + k if mode == "add" else x * s - k


@pytest.mark.parametrize("args, kwargs", [
    ((np.ones(3, np.float32),), {"s": np.float32(2)}),                 # keyword
    ((np.ones(3, np.float32), np.float32(2)), {}),                     # NumPy scalar, default
    ((np.ones(3, np.float32), 2.0), {}),                               # Python float
    ((np.ones(3), 2, 0.5), {"mode": "sub"}),                           # mixed
    ((np.ones(3), np.array(2.0)), {"k": np.int64(3)}),                 # 0-d array, keyword scalar
])
def test_a_repeated_call_of_any_kind_takes_the_short_path(args, kwargs):
    f = count_full_calls(ag.convert(scale))
    for _ in range(3):
        assert_same(f(*args, **kwargs), scale(*args, **kwargs))
    assert f.trace_count == 1 and f.full_calls == 1


def test_the_short_path_is_filled_after_a_first_call_of_another_kind():
    f = count_full_calls(ag.convert(scale))
    x = np.ones(3, np.float32)
    f(x, np.float32(2))          # a NumPy scalar first
    f(x, x)
    f(x, x)                      # then arrays: the second call is short
    assert f.full_calls == 2 and f.trace_count == 2


def test_python_values_are_keyed_by_type_and_exact_value():
    f = count_full_calls(ag.convert(scale))
    x = np.ones(2)
    for s in (1, 1.0, True, 0.0, -0.0, float("nan"), float("nan"), 1, 1.0, True, -0.0, 0.0):
        assert_same(f(x, s), scale(x, s))
    assert f.trace_count == 6          # 1, 1.0, True, 0.0, -0.0, nan
    assert f.full_calls == 6           # two nan objects share a key: the second is short
    assert np.signbit(f(x, -0.0, k=-0.0)).all() and not np.signbit(f(x, 0.0, k=0.0)).any()


def test_numpy_scalars_are_keyed_by_type_only_where_it_fixes_the_dtype():
    # np.int64 is keyed by its type (cheaper than its dtype); a datetime64's or a str_'s
    # type holds several dtypes (units, lengths), so those are keyed by the dtype
    f = count_full_calls(ag.convert(lambda x: x))
    calls = [np.datetime64("2020-01-01", "D"), np.datetime64("2020-01-01T05", "h"),
             np.datetime64("2021-03-04", "D"), np.int64(3), np.int64(4), np.longlong(5)]
    for x in calls:
        got = f(x)
        assert got.dtype == x.dtype and got == x
    assert f.trace_count == 3          # datetime64[D], datetime64[h], int64
    assert f.full_calls == 4           # np.longlong is another type of the same dtype
    assert call_key((np.int64(1),), {}) is np.int64   # a lone NumPy scalar: its type
    assert call_key((np.int64(1), 2), {})[0] is np.int64
    assert call_key((np.str_("ab"),), {})[0] == np.dtype("<U2")


def test_keys_of_different_kinds_never_collide():
    x = np.ones(2, np.float32)
    keys = [call_key(args, kwargs) for args, kwargs in [
        ((x,), {}), ((np.float32(1),), {}), ((np.array(1, np.float32),), {}), ((1,), {}),
        ((1.0,), {}), ((True,), {}), ((np.float64(1),), {}), (((1,),), {}), (([1],), {}),
        ((), {"x": 1}), ((1,), {"x": 1}), ((), {"s": 1}), (((x,),), {}), ((None,), {}),
        (("1",), {}), ((b"1",), {}), ((0.0,), {}), ((-0.0,), {})]]
    assert None not in keys and len(set(keys)) == len(keys)


def test_kinds_the_short_path_does_not_take_keep_the_full_path():
    f = count_full_calls(ag.convert(lambda x, s: x * s["a"] if isinstance(s, dict) else x * s))
    x = np.ones(2)
    for s in ({"a": 2.0}, {"a": 2.0}, np.ma.masked_array(x), np.float64(2)):
        if isinstance(s, np.ma.MaskedArray):
            with pytest.raises(TypeError, match="ndarray subclass"):
                f(x, s)
        else:
            f(x, s)
    assert call_key((x, {"a": 2.0}), {}) is None
    assert call_key((x, np.ma.masked_array(x)), {}) is None
    assert f.full_calls == 4
    f(x, np.float64(2))
    assert f.full_calls == 4


def test_an_array_default_keeps_the_full_path():
    w = np.ones(2)

    def f(x, w=w):
        return x + w
    g = count_full_calls(ag.convert(f))
    g(np.ones(2))
    w += 1
    assert_same(g(np.ones(2)), f(np.ones(2)))
    assert g.full_calls == 2


# -- input signatures, writes, tracing, methods, eviction, threads ------------------

def test_an_input_signature_still_refuses_a_wrong_dtype_or_shape():
    f = ag.convert(lambda x: x * 2, input_signature=[ag.TensorSpec((None,), np.float32)])
    for n in (2, 3, 2, 3):
        assert_same(f(np.ones(n, np.float32)), np.full(n, 2, np.float32))
    assert f.trace_count == 1
    with pytest.raises(TypeError, match="dtype float64"):
        f(np.ones(2))
    with pytest.raises(ValueError, match="shape"):
        f(np.ones((2, 2), np.float32))
    assert_same(f([1.0, 2.0]), np.array([2, 4], np.float32))   # converted: the full path


def test_an_input_signature_with_many_shapes_bounds_its_raw_keys():
    f = count_full_calls(ag.convert(lambda x: x + 1,
                                    input_signature=[ag.TensorSpec((None,), np.float64)]))
    for n in range(MAX_CALL_KEYS + 5):
        f(np.ones(n))
    assert len(f._fast) == MAX_CALL_KEYS and f.trace_count == 1
    f.full_calls = 0
    f(np.ones(MAX_CALL_KEYS + 2))
    f(np.ones(1))
    assert f.full_calls == 1


def test_writes_to_arguments_happen_on_the_short_path():
    def bump(x, *, by):
        x[...] += by
        return x.sum()
    f = count_full_calls(ag.convert(bump))
    a, b = np.zeros(3), np.zeros(3)
    f(a, by=1.0)
    f(b, by=1.0)
    f(b, by=1.0)
    np.testing.assert_array_equal(a, [1, 1, 1])
    np.testing.assert_array_equal(b, [2, 2, 2])
    assert f.full_calls == 1


def test_a_call_while_tracing_is_staged_not_run_at_trace_time():
    v = ag.Variable(np.ones(2), name="v")
    inner = ag.convert(lambda x: x * v.read_value())
    inner(np.ones(2))
    inner(np.ones(2))                      # filled: the short path knows this call
    outer = ag.convert(lambda y: y + inner(np.ones(2)))
    np.testing.assert_array_equal(outer(np.zeros(2)), [1, 1])
    v.assign(np.full(2, 5.0))
    np.testing.assert_array_equal(outer(np.zeros(2)), [5, 5])   # the read is in the graph


def test_a_method_takes_the_short_path_per_instance():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @ag.convert
        def __call__(self, x, *, offset=0.0):
            return x * self.k + offset
    a, b = Scaler(2.0), Scaler(3.0)
    for _ in range(3):
        np.testing.assert_array_equal(a(np.ones(2), offset=1.0), [3, 3])
        np.testing.assert_array_equal(b(np.ones(2)), [3, 3])
    assert len(Scaler.__call__.__get__(a)._fast) == 1


def test_an_evicted_graph_leaves_the_short_path_too():
    f = ag.convert(scale)
    f._traces.max_entries = 2
    x = np.ones(2)
    for s in (1.0, 2.0, 1.0, 3.0):
        f(x, s)
    assert f.trace_count == 3
    assert len(f._fast) == 2
    f(x, 1.0)                       # evicted with its raw key: traced again, as the full path does
    assert f.trace_count == 4


def test_threads_share_the_short_path():
    f = ag.convert(scale)
    x = np.arange(3.0)
    errors = []

    def work(i):
        try:
            for j in range(200):
                s = float(j % 4)
                np.testing.assert_array_equal(f(x, s, k=i % 2), x * s + i % 2)
        except Exception as error:   # reported below
            errors.append(error)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and f.trace_count == 8


def test_modes_entered_are_all_left_after_traces_errors_devices_and_eager_runs():
    f = ag.convert(lambda x: x * 2)
    x = np.ones(2)

    def checked(x):
        if x.shape[0] == 2:
            raise ValueError("two")   # raised while tracing
        return x
    with pytest.raises(ValueError, match="two"):
        ag.convert(checked)(x)
    assert call_modes.entered == 0
    with ag.device("cpu"):
        np.testing.assert_array_equal(f(x), [2, 2])
    with ag.run_functions_eagerly(True):
        assert call_modes.entered == 1
        np.testing.assert_array_equal(f(x), [2, 2])
    assert call_modes.entered == 0
    np.testing.assert_array_equal(f(x), [2, 2])


def test_a_call_while_another_thread_traces_reads_its_own_thread_s_state():
    started, release = threading.Event(), threading.Event()

    def slow(x):
        started.set()
        release.wait(5)      # tracing holds the mode entered meanwhile
        return x + 1
    f, g = ag.convert(lambda x: x * 3), ag.convert(slow)
    x = np.ones(2)
    f(x)
    thread = threading.Thread(target=g, args=(x,))
    thread.start()
    started.wait(5)
    try:
        assert call_modes.entered >= 1
        np.testing.assert_array_equal(f(x), [3, 3])      # not staged into the other's graph
        np.testing.assert_array_equal(f(x + 1), [6, 6])
    finally:
        release.set()
        thread.join()
    assert call_modes.entered == 0 and f.trace_count == 1


def test_defaults_keyed_by_identity_take_the_short_path_as_the_full_path_decides():
    sentinel = object()

    def f(x, how=sentinel, extra=[]):     # noqa: B006  (the same list on every call)
        return x * (2 if how is sentinel else 3) + len(extra)
    g = count_full_calls(ag.convert(f))
    x = np.ones(2)
    for _ in range(3):
        np.testing.assert_array_equal(g(x), [2, 2])
    assert g.full_calls == 1 and g.trace_count == 1
    np.testing.assert_array_equal(ag.convert(np.sum)(x, axis=0), 2.0)   # np._NoValue defaults
