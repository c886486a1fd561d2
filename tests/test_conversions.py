"""Python and NumPy conversions of traced values in converted code
(autograph/operators/conversions.py, runtime/ops/python_calls.py, runtime/ops/methods.py).

Each function runs eagerly and as a graph (`ag.convert`, autograph on); the graph's
0-d result must be NumPy's scalar of the eager result's type (a Python float is a
float64, a Python int an int64), with equal values, or raise the same exception.
"""
from __future__ import annotations

import math
import numbers

import numpy as np
import pytest
from oracle import quiet

import autograph as ag


def same_as_eager(fn, *args):
    """`fn(*args)` as a graph equals it eagerly: type (Python numbers as their dtypes),
    shape and value; or both raise the same exception type. Returns the eager result."""
    try:
        with quiet():
            expected = fn(*args)
    except Exception as error:
        with quiet(), pytest.raises(type(error)):
            ag.convert(fn)(*args)
        return error
    with quiet():
        got = ag.convert(fn)(*args)
    want = np.asarray(expected)
    assert got.dtype == want.dtype and got.shape == want.shape, (got, expected)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    return expected


F32, F64, I64, B = np.float32(2.75), np.float64(-2.5), np.int64(-7), np.bool_(True)
NUMBERS = [F32, F64, I64, B, np.int8(5), np.uint8(200), np.complex128(1 + 2j),
           np.float64("nan"), np.float64("inf"), np.float64(0.0)]


def _ids(values):
    return [f"{type(v).__name__}({v})" for v in values]


@pytest.mark.parametrize("s", NUMBERS, ids=_ids(NUMBERS))
@pytest.mark.parametrize("convert", [float, int, bool, complex], ids=lambda f: f.__name__)
def test_python_number_types(convert, s):
    """`float(s) * 3`: Python's result type computes on (a float32 times a Python float
    stays float32); `int` truncates toward zero and raises for nan and inf."""
    same_as_eager(lambda s: convert(s), s)
    same_as_eager(lambda s: convert(s) * s, s)
    same_as_eager(lambda s: convert(s) + 1, s)


MATH = [math.sqrt, math.exp, math.log, math.sin, math.cos, math.floor, math.ceil,
        math.isnan, math.isfinite, math.fabs, math.tanh, math.trunc, math.atan]


@pytest.mark.parametrize("s", NUMBERS, ids=_ids(NUMBERS))
@pytest.mark.parametrize("fn", MATH, ids=lambda f: f.__name__)
def test_math_functions(fn, s):
    """Python's own function when the graph runs: `math.sqrt(-2.5)` raises ValueError,
    `math.floor(2.75)` is an int, `math.log(0.0)` a ValueError, complex a TypeError."""
    same_as_eager(lambda s: fn(s), s)
    same_as_eager(lambda s: fn(s) * math.pi, s)


MATH2 = [math.atan2, math.hypot, math.pow, math.copysign, math.fmod, math.remainder, math.log]
SECOND = [np.float64(2.0), 0.5, np.int64(-3), np.float32(0.0)]


@pytest.mark.parametrize("t", SECOND, ids=_ids(SECOND))
@pytest.mark.parametrize("s", NUMBERS, ids=_ids(NUMBERS))
@pytest.mark.parametrize("fn", MATH2, ids=lambda f: f.__name__)
def test_math_functions_of_two_numbers(fn, s, t):
    """`math.atan2(s, t)`, `math.log(s, base)`: Python's own, traced or not on either side
    (`math.fmod(s, 0.0)` and `math.log(s, 1)` raise as Python does)."""
    same_as_eager(lambda s, t: fn(s, t), s, t)
    same_as_eager(lambda s: fn(2.5, s) + 1, s)


def test_gcd_and_ldexp_of_integers():
    same_as_eager(lambda a, b: math.gcd(a, b) * 2, np.int64(12), np.int64(-18))
    same_as_eager(lambda x, e: math.ldexp(x, e), np.float64(0.75), np.int64(4))


ROUNDED = [F32, F64, I64, np.float64(2.675), np.float64(0.5), np.float64(1.5),
           np.float64("nan"), np.float64("inf"), np.float64(1e300), np.int64(25)]


@pytest.mark.parametrize("s", ROUNDED, ids=_ids(ROUNDED))
def test_round_as_python_rounds(s):
    """`round(s)` is a Python int (half to even, never wrapped; nan a ValueError, inf an
    OverflowError);
    `round(s, 2)` NumPy's `np.round` of a NumPy scalar, Python's digits of a Python float
    (`round(2.675, 2)` is 2.67 from Python, 2.68 from NumPy)."""
    assert isinstance(same_as_eager(lambda s: round(s) % 1000, s), (int, Exception))
    same_as_eager(lambda s: round(s) // 3 % 1000 - 1, s)
    same_as_eager(lambda s: round(s, 2), s)
    same_as_eager(lambda s: round(float(s), 2), s)
    same_as_eager(lambda s: round(s, -1), s)


def test_round_of_an_array_is_numpys_type_error():
    with pytest.raises(TypeError, match="ndarray doesn't define __round__"):
        ag.convert(lambda x: round(x))(np.arange(3.0))


def test_math_floor_is_an_int_and_int_never_wraps():
    assert same_as_eager(lambda s: math.floor(s), F32) == 2
    assert same_as_eager(lambda s: int(s) // 2, np.float64(-7.5)) == -4
    graph = ag.convert(lambda s: math.floor(s)).get_concrete_function(F32).graph
    assert "python_call[fn='math.floor']" in str(graph) and "i64[]~weak" in str(graph)


@pytest.mark.parametrize("scalar_type", [np.float32, np.float64, np.float16, np.int8,
                                         np.uint8, np.int16, np.int32, np.int64, np.uint64,
                                         np.bool_, np.complex64, np.complex128],
                         ids=lambda t: t.__name__)
@pytest.mark.parametrize("s", [F64, np.int64(300), B, np.float32(-1.5)],
                         ids=_ids([F64, np.int64(300), B, np.float32(-1.5)]))
def test_numpy_scalar_types(scalar_type, s):
    """`np.int8(x)`: NumPy's cast (an int64 300 wraps to 44); of a Python number NumPy's
    conversion (`np.int8(int(x))` raises OverflowError)."""
    same_as_eager(lambda s: scalar_type(s), s)
    same_as_eager(lambda s: scalar_type(s) * 2, s)
    same_as_eager(lambda s: scalar_type(int(s)), s)
    same_as_eager(lambda x: scalar_type(x), np.arange(3.0) - 1)


def test_array_and_asarray_of_traced_values():
    x = np.arange(6.0).reshape(2, 3)
    same_as_eager(lambda x: np.array(x) * 2, x)
    same_as_eager(lambda x: np.asarray(x, np.float32), x)
    same_as_eager(lambda x: np.asarray(x, dtype=np.int8) + 1, x)
    same_as_eager(lambda x: np.array(x[0, 1], dtype=np.complex128), x)
    same_as_eager(lambda x: np.array([x[0, 0], float(x[1, 1])]), x)


def test_array_and_asarray_take_numpys_positional_and_keyword_arguments():
    x = np.arange(6.0).reshape(2, 3)
    same_as_eager(lambda x: np.asarray(x, np.float32, "C") + 1, x)
    same_as_eager(lambda x: np.array(x, np.int64, ndmin=3), x)
    same_as_eager(lambda x: np.asarray(x.T, order="F", copy=True), x)
    same_as_eager(lambda x: np.array(x[0], copy=None, ndmin=2)[0], x)
    same_as_eager(lambda x: np.array(x, dtype=np.int8, copy=False), x)   # NumPy's ValueError


def test_contiguous_and_fortran_arrays_of_traced_values():
    x = np.arange(6.0).reshape(2, 3)
    same_as_eager(lambda x: np.ascontiguousarray(x.T).sum(axis=1), x)
    same_as_eager(lambda x: np.asfortranarray(x, dtype=np.float32)[0], x)
    same_as_eager(lambda x: np.ascontiguousarray(x[0, 0]), x)       # at least 1-d, as NumPy
    same_as_eager(lambda x: np.asfortranarray([x[0, 0], 1.0]), x)


def test_a_write_to_an_array_that_may_be_its_argument_is_refused():
    def fill_first(x):
        a = np.ascontiguousarray(x)   # x itself where x is contiguous, a copy otherwise
        a[0] = 7.0
        return x

    with pytest.raises(ag.TracingError, match="'a' is written"):
        ag.convert(fill_first)(np.ones(3))


def test_item_in_converted_code():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    same_as_eager(lambda x: x.item(4) * x, x)
    same_as_eager(lambda x: x[1, 2].item() + 0.5, x)
    same_as_eager(lambda x: x.sum().item() > 3, x)
    same_as_eager(lambda x: x.item(), x)  # ValueError: size 6


def test_tolist_of_known_shape_and_refused_for_unknown():
    x = np.arange(6.0).reshape(2, 3)
    f = ag.convert(lambda x: sum(x.tolist()[1]))
    assert f(x) == 12.0
    spec = ag.TensorSpec((None, 3), np.float64)
    with pytest.raises(ag.TracingError, match=r"x\.tolist\(\).*ag\.py_function"):
        ag.convert(lambda x: x.tolist()).get_concrete_function(spec)


def test_conversion_as_a_condition_and_not():
    def clamp(s):
        if float(s) > 1.0:
            return s * 0.0
        return s + bool(s)
    for s in (np.float64(2.0), np.float64(0.5), np.float64(0.0)):
        same_as_eager(clamp, s)


def test_traced_value_stored_into_a_local_array():
    def fill(x):
        out = np.zeros(3)
        out[0] = x.sum()
        out[1] = float(x[0])
        out[2] = math.sqrt(x[1])
        return out
    same_as_eager(fill, np.array([4.0, 9.0]))


def test_gradient_refused_through_a_python_float_and_kept_through_int():
    """A Python number carries no cotangent, so `float(x)` would cut the gradient:
    refused, naming the NumPy spelling; `int(x)`'s zero gradient is kept."""
    x = np.arange(3.0)
    with pytest.raises(ag.TracingError, match=r"math\.sin\(x\).*np\.sin\(x\)"):
        ag.grad(lambda x: math.sin(x.sum()))(x)
    with pytest.raises(ag.TracingError, match=r"float\(x\)"):
        ag.grad(lambda x: x.sum() * float(x.sum()))(x)
    np.testing.assert_allclose(ag.grad(lambda x: x.sum() * int(x.sum()))(x), [3.0] * 3)


def test_no_ptp_method_as_numpy_2():
    """NumPy 2 arrays have no `ptp` method (2.0-2.3 keep a stub raising AttributeError)."""
    seen = []
    ag.convert(lambda x: seen.append(hasattr(x, "ptp")) or x, autograph=False)(np.ones(2))
    assert seen == [hasattr(np.ones(2), "ptp")] == [False]


def test_saved_and_loaded_graph_keeps_python_calls(tmp_path):
    """`python_call`'s one param is its function's name: JSON, loaded in a fresh function."""
    def f(x):
        return math.floor(x.sum()) + x.item(0) * float(x[1]) + x.take([1, 0]).round(1)
    x = np.array([1.25, -2.5])
    converted = ag.convert(f)
    converted(x)
    ag.save(converted, tmp_path / "saved")
    loaded = ag.load(tmp_path / "saved")
    np.testing.assert_allclose(loaded(x), f(x))
    with pytest.raises(ValueError):  # Python's error when the loaded graph runs
        ag.load(tmp_path / "saved")(np.array([np.nan, 1.0]))


TABLE = np.array([[1.5, -2.0, 3.25], [4.0, 0.5, -6.0]])


@pytest.mark.parametrize("read", [
    lambda i: TABLE[i],
    lambda i: TABLE[1, i],
    lambda i: TABLE[:, i] * 2,
    lambda i: TABLE[i, 1:],
    lambda i: TABLE.ravel()[i:],
    lambda i: TABLE[i][i],
    lambda i: np.arange(5)[[i, 0]],
    lambda i: TABLE[i + 7],                 # IndexError, as NumPy's
    lambda i: TABLE[0, 0] + TABLE[i, -1],  # constant indices stay NumPy's own reads
], ids=["row", "item", "column", "row-slice", "slice-start", "twice", "list", "out-of-range",
        "constant"])
def test_numpy_array_indexed_by_a_traced_index(read):
    for i in (np.int64(0), np.int64(1), np.int32(-1)):
        same_as_eager(read, i)


def test_lookup_table_built_in_the_function_read_in_a_staged_loop():
    def walk(i, n):
        lut = np.cumsum(np.arange(10.0))
        total = 0.0
        while n > 0:
            total = total + lut[i % 10]
            i = i + 3
            n = n - 1
        return total
    same_as_eager(walk, np.int64(4), np.int64(7))


def test_only_non_constant_index_reads_are_rewritten():
    code = ag.to_code(lambda x, i: x[0] + x[1:, ::2].sum() + x[..., None].sum() + x[i])
    assert "x[0]" in code and "x[1:, ::2]" in code and "ag__.getitem(x, i)" in code


def test_an_unsupported_method_names_the_line_and_the_way_out():
    def use(x):
        return x.partition(1)  # the message names this line
    with pytest.raises(AttributeError) as info:
        ag.convert(use)(np.arange(3.0))
    message = str(info.value)
    assert "ndarray.partition is not supported on traced values" in message
    assert f"{use.__code__.co_filename}:{use.__code__.co_firstlineno + 1}" in message
    assert "ag.py_function(lambda a: a.partition(...), x, out=" in message
    with pytest.raises(AttributeError, match="no attribute 'no_such'"):
        ag.convert(lambda x: x.no_such)(np.arange(3.0))


# -- isinstance and type of traced values: what eager code holds there -------------------------------

def type_checks(x, s):
    return np.array([
        isinstance(x, np.ndarray), type(x) is np.ndarray,
        isinstance(x[0], float), type(x[0]) is np.float64, isinstance(x.sum(), np.floating),
        isinstance(float(x[0]), float), isinstance(x.item(0), (int, float)),
        isinstance(x[0], numbers.Number), isinstance(x.astype(np.float32)[0], float),
        isinstance(s, np.ndarray), isinstance(int(x[1]), int), isinstance(x > 0, np.ndarray),
    ])


@pytest.mark.parametrize("s", [np.array(3.0), np.float64(3.0)], ids=["0-d array", "scalar"])
def test_isinstance_and_type_answer_as_eagerly(s):
    # once a silent difference: a Tracer is none of these types, so every check was False
    x = np.array([1.0, 2.0])
    np.testing.assert_array_equal(ag.convert(type_checks)(x, s), type_checks(x, s))


def _closeness(a, b):
    return (math.isclose(a, b), math.isclose(a, b, rel_tol=0.1),
            math.isclose(a, b, abs_tol=0.5), math.isclose(a, 1.0, rel_tol=1e-3, abs_tol=0.0))


@pytest.mark.parametrize("a, b", [(1.0, 1.05), (1.0, 1.0), (np.inf, np.inf), (np.nan, np.nan),
                                  (0.0, 0.4), (1e-12, 0.0), (-np.inf, np.inf)])
def test_math_isclose_with_tolerances_is_pythons(a, b):
    want = _closeness(np.float64(a), np.float64(b))
    got = ag.convert(_closeness)(np.float64(a), np.float64(b))
    assert [bool(g) for g in got] == list(want)
