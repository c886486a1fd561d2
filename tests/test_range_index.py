"""A `range`, or a tuple inside the index tuple, indexes a traced array as NumPy reads it:
an integer index array, for reads and writes."""
import numpy as np
import pytest

import autograph as ag

U = np.arange(12.0).reshape(3, 4)
ROWS = np.array([1, 0, 2, 1])
I = np.int64(1)


def _write(index, value, add=False):
    def f(U, rows, i):
        V = U.copy()
        if add:
            V[index(rows, i)] += value
        else:
            V[index(rows, i)] = value
        return V
    return f


READS = {
    "rows and a range (sklearn's svd_flip)": lambda U, rows, i: U[rows, range(U.shape[1])],
    "a range alone": lambda U, rows, i: U[range(2)],
    "a descending range": lambda U, rows, i: U[:, range(3, 0, -1)],
    "an empty range": lambda U, rows, i: U[range(0)],
    "a tuple of ints inside the index": lambda U, rows, i: U[(0, 2), 1],
    "a tuple with a traced int inside the index": lambda U, rows, i: U[(i, 0), 1],
    "a list of ints and an array": lambda U, rows, i: U[[0, 2], rows[:2]],
    "a list with a traced int": lambda U, rows, i: U[[i, 0], [0, i]],
    "slice objects": lambda U, rows, i: U[slice(i, None), slice(None, None, 2)],
    "NumPy integer scalars": lambda U, rows, i: U[np.int64(2), np.int32(1)],
}

WRITES = {
    "rows and a range": _write(lambda rows, i: (rows[:3], range(3)), -1.0),
    "a range alone": _write(lambda rows, i: range(2), 0.0),
    "a tuple of ints inside the index": _write(lambda rows, i: ((0, 2), 1), 5.0),
    "a tuple with a traced int inside the index": _write(lambda rows, i: ((i, 2), 0), 9.0),
    "+= at two ranges": _write(lambda rows, i: (range(2), range(2)), 1.0, add=True),
}


@pytest.mark.parametrize("fn", list(READS.values()) + list(WRITES.values()),
                         ids=[f"read {k}" for k in READS] + [f"write {k}" for k in WRITES])
def test_index_gives_eagers_result(fn):
    expected = fn(U, ROWS, I)
    got = ag.convert(fn, eager_fallback=False)(U, ROWS, I)
    assert np.shape(got) == np.shape(expected)
    assert np.asarray(got).dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_a_range_index_out_of_bounds_raises_as_eager():
    def f(U):
        return U[range(5)]
    with pytest.raises(IndexError):
        f(U)
    with pytest.raises(IndexError):
        ag.convert(f, eager_fallback=False)(U)
