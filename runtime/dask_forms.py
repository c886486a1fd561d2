"""Which primitives have no chunked form on Dask: `backend.DASK_ONE_CHUNK`, filled here.

Each of these runs NumPy's own kernel as one task over its operands gathered
whole (one chunk), so its answer is NumPy's: sorts and searches (dask.array
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
"""
from __future__ import annotations

from .autodiff.cotangents import reshape_like_p, sum_to_shape_p
from .autodiff.rules_building import diagonal_scatter_p
from .autodiff.rules_indexing import scatter_add_p
from .backend import DASK_ONE_CHUNK
from .ops import counting, differences, fft, np_linalg
from .ops.comparisons import array_equal_p
from .ops.linalg import inner_p
from .ops.nan_reductions import nanargmax_p, nanargmin_p
from .ops.numpy_calls import numpy_call_p
from .ops.sorting import argsort_p, sort_p
from .ops.updates import index_update_p

DASK_ONE_CHUNK.update({
    sort_p, argsort_p, counting.searchsorted_p, counting.histogram_p, counting.unique_p,
    array_equal_p, inner_p, nanargmax_p, nanargmin_p, index_update_p, numpy_call_p,
    scatter_add_p, diagonal_scatter_p, sum_to_shape_p, reshape_like_p,
    differences.convolve_p, differences.correlate_p, differences.interp_p,
    fft.fft_p, fft.ifft_p, fft.rfft_p, fft.irfft_p,
    np_linalg.inv_p, np_linalg.det_p, np_linalg.slogdet_p, np_linalg.cholesky_p,
    np_linalg.solve_p, np_linalg.eigh_p, np_linalg.eigvalsh_p, np_linalg.eig_p,
    np_linalg.eigvals_p, np_linalg.svd_p, np_linalg.svdvals_p, np_linalg.qr_p,
    np_linalg.lstsq_p, np_linalg.pinv_p,
})
