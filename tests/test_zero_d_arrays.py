"""0-d arrays against NumPy scalars: what eager NumPy gives decides views and copies.

`x.reshape(())`, `np.squeeze(x)` of one element and `x[..., 0]` are 0-d views:
`+=` on them writes `x`. A 0-d array from `np.where`, `np.squeeze`, `np.copy`
or `np.tensordot` used as an index is an advanced index: `a[j]` is a copy, so
writing `a` after leaves it as it was. A NumPy scalar (`x.argmax()`, `x[0]`)
indexes a view. Each function runs eagerly and converted on copies of the same
arguments; results and arguments must agree (or the call runs eagerly, refused).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as ag


def via_reshape(x):
    r = x.reshape(())
    r += 1
    return x.sum()


def via_ellipsis(x):
    z = x[..., 0]
    z[...] = 7.0
    return x.sum()


def via_squeeze(x):
    s = np.squeeze(x)
    s *= 3
    return x.sum(), s


def via_slice_reshape(x):
    z = x[0:1].reshape(())
    z += 10
    return x.sum()


def scalar_stays_a_copy(x):
    s = x[0]          # a NumPy scalar: `+=` rebinds it, x is not written
    s += 1
    m = x.max()
    m += 1
    return x.sum(), s, m


@pytest.mark.parametrize("fn", [via_reshape, via_ellipsis, via_squeeze, via_slice_reshape,
                                scalar_stays_a_copy])
def test_writes_through_0d_views_reach_the_array_as_eagerly(fn):
    for x in (np.array([5.0]), np.array([[2.5]])):
        check(fn, x)


def index_by(make):
    def keep(x, a):
        j = make(x)
        r = a[j]
        a[j, 0] = 99.0
        return r
    return keep


INDEXES = {
    "squeeze": lambda x: np.squeeze(x[:1] % 3),
    "reshape": lambda x: (x[:1] % 3).reshape(()),
    "where": lambda x: np.where(x[0] > 0, 1, 2),
    "copy": lambda x: np.copy(np.argmax(x)),
    "tensordot": lambda x: np.tensordot(x[:2] % 2, x[:2] % 2, axes=1),
    "argmax (a scalar: a view)": lambda x: np.argmax(x),
    "item (a Python int: a view)": lambda x: int(np.argmax(x)),
}


@pytest.mark.parametrize("name", INDEXES)
def test_a_0d_array_index_copies_and_a_scalar_index_views_as_eagerly(name):
    keep = index_by(INDEXES[name])
    check(keep, np.array([1, 5, 2]), np.arange(9.0).reshape(3, 3))


def check(fn, *args):
    eager_args = [a.copy() for a in args]
    graph_args = [a.copy() for a in args]
    want = fn(*eager_args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FallbackWarning)
        got = ag.convert(fn, eager_fallback=True)(*graph_args)
    for w, g in zip(np.atleast_1d(np.asarray(want, dtype=object)),
                    np.atleast_1d(np.asarray(got, dtype=object))):
        np.testing.assert_array_equal(g, w)
    for w, g in zip(eager_args, graph_args):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("make", [
    lambda k: np.asarray(k), lambda k: np.array(k), lambda k: np.asanyarray(k),
    lambda k: np.array(k, dtype=np.int32),
], ids=["asarray", "array", "asanyarray", "array dtype"])
def test_an_array_made_of_a_traced_scalar_index_copies_as_eagerly(make):
    def keep(a, k):
        r = a[make(k)]
        a[k, 0] = -1.0
        return r
    check(keep, np.arange(9.0).reshape(3, 3), np.int64(1))
