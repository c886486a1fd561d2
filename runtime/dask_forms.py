"""Which primitives have no chunked form on Dask: `backend.DASK_ONE_CHUNK`, filled here.

Each of these runs NumPy's own kernel on its operands whole along the axes it
needs (`DASK_WHOLE_AXES`, filled here too), else gathered into one chunk, so
its answer is NumPy's: sorts and searches (dask.array
has no `sort`), NumPy's linear algebra (`dask.array.linalg` lacks most of it,
and its `cholesky` is upper-triangular by default), FFTs (Dask's need the axis
in one chunk), writes at indices (Dask assigns along one axis only), and what
dask.array lacks or computes otherwise (`unique` with an axis, `histogram`
with traced bins, `interp`, `convolve`), and NumPy's own functions run
as they are (`numpy_call`). Effectful primitives (`print`,
`assert`, `py_function`, draws, variables) run NumPy's kernel on the client,
their operands computed. The rest run as dask.array's own chunked kernels
(`backend.DaskBackend.eqn_kernel`). The table is data: a primitive joins it
where `tests/test_dask_primitives.py` finds dask.array's kernel differs.

Most of them need only some axes whole: `backend.DASK_WHOLE_AXES` gives, per
primitive, a rule `(params, ndims)` -> the axes each operand needs in one chunk
and the axes of each result those give (negative: from the end), or None where
it needs every axis. `dask_gather.py` rechunks only those axes and runs NumPy's
kernel block by block, so the other axes keep their chunks: a sort along axis 1
of an array chunked along axis 0 moves nothing.

>>> DASK_WHOLE_AXES[sort_p]({"axis": 1}, [2])
(((1,),), ((1,),))
>>> DASK_WHOLE_AXES[np_linalg.det_p]({}, [3])
(((-2, -1),), ((),))
"""
from __future__ import annotations

from .autodiff.cotangents import reshape_like_p, sum_to_shape_p
from .autodiff.rules_building import diagonal_scatter_p
from .autodiff.rules_indexing import scatter_add_p
from .backend import DASK_ONE_CHUNK, DASK_WHOLE_AXES
from .ops import counting, differences, fft, np_linalg
from .ops.comparisons import array_equal_p
from .ops.index_accumulate import index_accumulate_p
from .ops.linalg import inner_p
from .ops.nan_reductions import nanargmax_p, nanargmin_p
from .ops.numpy_calls import numpy_call_p
from .ops.sorting import argsort_p, sort_p
from .ops.updates import index_update_p

DASK_ONE_CHUNK.update({
    sort_p, argsort_p, counting.searchsorted_p, counting.histogram_p, counting.unique_p,
    array_equal_p, inner_p, nanargmax_p, nanargmin_p, index_update_p, index_accumulate_p,
    numpy_call_p,
    scatter_add_p, diagonal_scatter_p, sum_to_shape_p, reshape_like_p,
    differences.convolve_p, differences.correlate_p, differences.interp_p,
    fft.fft_p, fft.ifft_p, fft.rfft_p, fft.irfft_p,
    np_linalg.inv_p, np_linalg.det_p, np_linalg.slogdet_p, np_linalg.cholesky_p,
    np_linalg.solve_p, np_linalg.eigh_p, np_linalg.eigvalsh_p, np_linalg.eig_p,
    np_linalg.eigvals_p, np_linalg.svd_p, np_linalg.svdvals_p, np_linalg.qr_p,
    np_linalg.lstsq_p, np_linalg.pinv_p,
})


def _along_axis(params, ndims):
    """Sorts, FFTs: the operand's `axis` whole (None: flattened, every axis)."""
    axis = params.get("axis", -1)
    return None if axis is None else (((axis,),), ((axis,),))


def _reduced_axis(params, ndims):
    """`nanargmax` along `axis`: that axis whole, gone from the result (kept with `keepdims`)."""
    axis = params.get("axis")
    return None if axis is None else (((axis,),), ((axis,) if params.get("keepdims") else (),))


def _looked_up(*operands):
    """`searchsorted(a, v)`, `interp(x, xp, fp)`: the 1-d tables whole, the rest chunked."""
    return lambda params, ndims: (operands, ((),))


_MATRIX = (-2, -1)


def _matrices(*results):
    """`np.linalg` on a stack of matrices: each matrix whole, the stack chunked."""
    return lambda params, ndims: ((_MATRIX,), results)


def _solve(params, ndims):
    vector = ndims[1] == 1   # NumPy 2: a 1-d `b` is one vector, else a stack of matrices
    return ((_MATRIX, (-1,)), ((-1,),)) if vector else ((_MATRIX, _MATRIX), (_MATRIX,))


def _qr(params, ndims):
    return ((_MATRIX,), (_MATRIX,) if params.get("mode") == "r" else (_MATRIX, _MATRIX))


DASK_WHOLE_AXES.update({
    sort_p: _along_axis, argsort_p: _along_axis,
    fft.fft_p: _along_axis, fft.ifft_p: _along_axis,
    fft.rfft_p: _along_axis, fft.irfft_p: _along_axis,
    nanargmax_p: _reduced_axis, nanargmin_p: _reduced_axis,
    counting.searchsorted_p: _looked_up((0,), ()),
    differences.interp_p: _looked_up((), (0,), (0,)),
    np_linalg.inv_p: _matrices(_MATRIX), np_linalg.cholesky_p: _matrices(_MATRIX),
    np_linalg.pinv_p: _matrices(_MATRIX), np_linalg.det_p: _matrices(()),
    np_linalg.slogdet_p: _matrices((), ()),
    np_linalg.eigh_p: _matrices((-1,), _MATRIX), np_linalg.eig_p: _matrices((-1,), _MATRIX),
    np_linalg.eigvalsh_p: _matrices((-1,)), np_linalg.eigvals_p: _matrices((-1,)),
    np_linalg.svd_p: _matrices(_MATRIX, (-1,), _MATRIX), np_linalg.svdvals_p: _matrices((-1,)),
    np_linalg.solve_p: _solve, np_linalg.qr_p: _qr,
})
