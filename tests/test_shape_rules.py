"""Hypothesis tests of the shape rules: the traced type against NumPy on real arrays.

Each test draws shapes and arguments, applies a NumPy function to real arrays
(the oracle) and to traced values of the same types, and requires the traced
`AbstractValue` to be NumPy's result type, or NumPy's exception type where NumPy
raises. The same function traced with dimensions randomly made unknown (None)
must give a type that fits NumPy's result: known dimensions equal, the others None.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from oracle import assert_type_fits, quiet

from autograph_runtime import AbstractValue, GraphBuilder
from autograph_runtime.abstract import broadcast_shapes

SETTINGS = settings(max_examples=150, deadline=None)
DTYPES = st.sampled_from(["float32", "int32", "bool"])


def shapes(min_dims=0, max_dims=4, min_side=0):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=4)


def traced_type(fn, avals) -> AbstractValue:
    """The type of `fn`'s result on traced values of types `avals`."""
    with quiet(), GraphBuilder("shape_rule") as builder:
        out = fn(*[builder.new_input(av) for av in avals])
    return out.aval


def hide(data, shape) -> tuple:
    """`shape` with randomly drawn dimensions made unknown."""
    return tuple(None if data.draw(st.booleans()) else d for d in shape)


def check_rule(data, fn, *arrays):
    """`fn` traced types like `fn(*arrays)` on NumPy, with known and with hidden dims."""
    avals = [AbstractValue(a.shape, a.dtype) for a in arrays]
    try:
        with quiet():
            expected = np.asarray(fn(*arrays))
    except Exception as error:
        with pytest.raises(type(error)):
            traced_type(fn, avals)
        return
    assert traced_type(fn, avals) == AbstractValue(expected.shape, expected.dtype)
    hidden = [AbstractValue(hide(data, av.shape), av.dtype) for av in avals]
    assert_type_fits(traced_type(fn, hidden), expected, f"with input types {hidden}")


# -- broadcasting ------------------------------------------------------------------------
SHAPE_LISTS = st.one_of(
    hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=4, max_side=4).map(
        lambda r: list(r.input_shapes)),
    st.lists(shapes(max_dims=3), min_size=1, max_size=3))


@SETTINGS
@given(SHAPE_LISTS, st.data())
def test_broadcast_shapes(shape_list, data):
    try:
        expected = np.broadcast_shapes(*shape_list)
    except ValueError:
        with pytest.raises(ValueError):
            broadcast_shapes(*shape_list)
        return
    assert broadcast_shapes(*shape_list) == expected
    hidden = [hide(data, s) for s in shape_list]
    got = broadcast_shapes(*hidden)
    assert len(got) == len(expected) and all(g is None or g == e for g, e in zip(got, expected))


@SETTINGS
@given(SHAPE_LISTS, DTYPES, st.data())
def test_elementwise_broadcasting(shape_list, dtype, data):
    arrays = [np.ones(s, dtype) for s in shape_list]
    check_rule(data, lambda *xs: np.where(*xs) if len(xs) == 3 else np.add(*xs), *arrays)


# -- reductions, scans and sorts -----------------------------------------------------------------
REDUCTIONS = [np.sum, np.prod, np.mean, np.std, np.var, np.max, np.min, np.any, np.all,
              np.argmax, np.argmin]
ALONG_AXIS = [np.cumsum, np.cumprod, np.sort, np.argsort]


def axes(ndim, tuples=True):
    one = st.integers(-ndim - 1, ndim)
    return st.one_of(st.none(), one, *([st.tuples(one, one), st.tuples(one)] if tuples else []))


@SETTINGS
@given(shapes(), DTYPES, st.data())
def test_reductions(shape, dtype, data):
    fn = data.draw(st.sampled_from(REDUCTIONS + ALONG_AXIS))
    axis = data.draw(axes(len(shape), tuples=fn not in (np.argmax, np.argmin) + tuple(ALONG_AXIS)))
    kwargs = {} if fn in ALONG_AXIS else {"keepdims": data.draw(st.booleans())}
    x = np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
    check_rule(data, lambda x: fn(x, axis=axis, **kwargs), x)


# -- reshape, transpose ------------------------------------------------------------------------
@st.composite
def reshapes(draw):
    """A shape and a new shape of the same size, maybe with one -1, maybe wrong by one."""
    shape = draw(shapes(max_dims=3))
    dims = list(draw(st.permutations(shape)))
    while len(dims) > 1 and draw(st.booleans()):       # merge neighbours
        i = draw(st.integers(0, len(dims) - 2))
        dims[i:i + 2] = [dims[i] * dims[i + 1]]
    for _ in range(draw(st.integers(0, 2))):           # insert ones
        dims.insert(draw(st.integers(0, len(dims))), 1)
    if dims and draw(st.booleans()):
        dims[draw(st.integers(0, len(dims) - 1))] = -1
    if draw(st.integers(0, 9)) == 0:
        dims.append(2)                                 # sizes no longer match
    return shape, tuple(dims)


@SETTINGS
@given(reshapes(), st.data())
def test_reshape(shapes_, data):
    shape, new_shape = shapes_
    check_rule(data, lambda x: np.reshape(x, new_shape), np.zeros(shape, np.float32))


@SETTINGS
@given(shapes(), st.data())
def test_transpose_swapaxes_moveaxis(shape, data):
    nd = len(shape)
    perm = [a - nd if data.draw(st.booleans()) else a
            for a in data.draw(st.permutations(range(nd)))]
    one = st.integers(-nd - 1, nd) if nd else st.just(0)
    i, j = data.draw(one), data.draw(one)
    x = np.zeros(shape, np.int64)
    check_rule(data, lambda x: np.transpose(x, perm), x)
    check_rule(data, lambda x: np.transpose(x), x)
    check_rule(data, lambda x: np.swapaxes(x, i, j), x)
    check_rule(data, lambda x: np.moveaxis(x, i, j), x)


# -- concatenate, stack ----------------------------------------------------------------------
@SETTINGS
@given(shapes(max_dims=3), st.integers(1, 3), DTYPES, st.data())
def test_concatenate_and_stack(shape, n, dtype, data):
    nd = len(shape)
    axis = data.draw(st.one_of(st.none(), st.integers(-nd - 1, nd)))
    along = 0 if axis is None or not nd or not -nd <= axis < nd else axis % nd
    arrays = []
    for _ in range(n):
        s = list(shape)
        if nd and data.draw(st.booleans()):
            s[along] = data.draw(st.integers(0, 3))    # sizes along the axis differ
        if nd > 1 and data.draw(st.integers(0, 9)) == 0:
            s[(along + 1) % nd] += 1                  # a mismatch off the axis
        arrays.append(np.zeros(s, dtype))
    check_rule(data, lambda *xs: np.concatenate(xs, axis=axis), *arrays)
    check_rule(data, lambda *xs: np.stack(xs, axis=0 if axis is None else axis), *arrays)


# -- indexing ------------------------------------------------------------------------------
BOUND = st.one_of(st.none(), st.integers(-6, 6))
BASIC = st.one_of(
    st.integers(-5, 5), st.none(), st.just(Ellipsis),
    st.builds(slice, BOUND, BOUND, st.one_of(st.none(), st.integers(-3, 3).filter(bool))))


@st.composite
def basic_indexing(draw):
    """A shape and a basic index: a valid one or any mix (out of bounds, too many, two `...`)."""
    shape = draw(shapes())
    if draw(st.booleans()):
        return shape, draw(hnp.basic_indices(shape, allow_newaxis=True))
    index = draw(st.lists(BASIC, max_size=len(shape) + 1))
    return shape, tuple(index) if draw(st.booleans()) or len(index) != 1 else index[0]


@settings(SETTINGS, max_examples=300)
@given(basic_indexing(), st.data())
def test_basic_indexing(shape_index, data):
    shape, index = shape_index
    check_rule(data, lambda x: x[index], np.zeros(shape, np.float32))


ARRAY_SHAPES = st.sampled_from([(), (1,), (2,), (3,), (2, 1), (1, 3), (2, 3)])
OTHER = st.one_of(st.integers(-1, 0), st.just(slice(None)), st.builds(slice, BOUND, BOUND),
                  st.none(), st.just(Ellipsis))


@settings(SETTINGS, max_examples=300)
@given(shapes(min_dims=1, min_side=1), st.booleans(), st.data())
def test_integer_array_indexing(shape, traced, data):
    """One to three integer arrays (of -1s and 0s), as constants or as traced inputs,
    mixed in any order with ints, slices, None and Ellipsis."""
    arrays = [np.asarray(data.draw(hnp.arrays(np.int64, s, elements=st.integers(-1, 0))))
              for s in data.draw(st.lists(ARRAY_SHAPES, min_size=1, max_size=3))]
    others = data.draw(st.lists(OTHER, max_size=max(len(shape) + 1 - len(arrays), 0)))
    index = data.draw(st.permutations(arrays + others))
    positions = [i for i, e in enumerate(index) if isinstance(e, np.ndarray)]
    arrays = [index[i] for i in positions] if traced else []

    def at(x, *traced_arrays):
        full = list(index)
        for i, a in zip(positions, traced_arrays):
            full[i] = a
        return x[tuple(full)]
    check_rule(data, at, np.zeros(shape, np.float32), *arrays)
