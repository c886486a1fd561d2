"""The Dask backend: graphs as lazy `dask.array` expressions, checked against NumPy's.

`DaskBackend` binds the shared kernel table to `dask.array` (`dask_arrays.py`),
with `backend.DASK_OVERRIDES` merged over it. Each equation runs through
`chunked`: dask.array's kernel, its result given NumPy's dtype and checked
against NumPy's shape; where dask.array has no form for it (or for a primitive
of `backend.DASK_ONE_CHUNK`), NumPy's kernel on operands rechunked whole along the
axes it needs, or gathered into one chunk, no larger than `max_gather` bytes a block
(`dask_gather.gathered`). `dask_backend(...)` makes one backend
per device name, and `get_backend` finds them by name (`backend.NAMED_BACKENDS`).
"""
from __future__ import annotations

import numpy as np

from .backend import CPU, DASK_ONE_CHUNK, DASK_OVERRIDES, NAMED_BACKENDS, Backend
from .dask_arrays import (DEFAULT_MAX_GATHER, DaskArrays, check_options, device_name,
                          gather_limit, is_dask_array)
from .dask_gather import gathered


class DaskBackend(Backend):
    """Graphs as lazy `dask.array` expressions, computed on a cluster where `client` is given.

    NumPy inputs and constants are chunked (`chunks`: Dask's "auto", or what
    `dask.array.from_array` takes); Dask arrays pass through with their chunks;
    0-d values stay NumPy's, on the client. Results are Dask arrays, or NumPy
    arrays computed in one round trip where `compute` is set. A primitive with no
    chunked form gathers blocks of at most `max_gather` bytes (None: no limit).
    """

    inline_operators = False   # every equation through its kernel (`eqn_kernel`: typed)

    def __init__(self, name: str, chunks="auto", compute=False, persist_every=1, client=None,
                 max_gather=DEFAULT_MAX_GATHER):
        super().__init__(name, DaskArrays(client), DASK_OVERRIDES)
        self.chunks, self.compute, self.persist_every = chunks, compute, persist_every
        self.max_gather = max_gather

    def asarray(self, value):
        if is_dask_array(value):
            return value
        get = getattr(value, "get", None)   # a CuPy array
        value = np.asarray(get() if get is not None and not isinstance(value, np.ndarray)
                           else value)
        if value.ndim == 0:   # a NumPy scalar, as the NumPy tier has it (an index, a count)
            return value[()]
        chunked = self.xp.from_array(value, chunks=self._chunks_for(value.ndim))
        if self.xp.client is None:
            return chunked
        # on a cluster: sent once, so that each trip of a loop reading it does not send
        # the array again with its graph
        return self.xp.persist(chunked)[0]

    def _chunks_for(self, ndim: int):
        """`chunks` where it fits an array of `ndim` dims (a tuple of another length, for
        inputs of another rank, and a constant: Dask's "auto")."""
        chunks = self.chunks
        if isinstance(chunks, tuple) and len(chunks) != ndim:
            return "auto"
        if isinstance(chunks, dict):
            return {axis: c for axis, c in chunks.items() if -ndim <= axis < ndim}
        return chunks

    def eqn_kernel(self, eqn, run_graph=None):
        """The equation's kernel on Dask (`chunked`): NumPy's on host values only, and
        for an effectful primitive, on its operands computed (in one round trip);
        else dask.array's (sizes a mask left unknown computed first), its results given
        NumPy's dtypes and checked against
        NumPy's shapes; where dask.array has no form for it (it raises, or its shape
        differs), and for a primitive of `DASK_ONE_CHUNK`, NumPy's on operands whole along
        the axes it needs (`dask_gather.gathered`)."""
        prim = eqn.primitive
        if prim.higher_order:
            return self.kernel(prim, eqn.params, run_graph)
        numpy_kernel = CPU.kernel(prim, eqn.params)
        if prim.effectful:   # print, assert, py_function, draws, variables: on the client
            return lambda *operands: numpy_kernel(*self.xp.compute(*operands))
        avals = [v.aval for v in eqn.outputs]
        whole = gathered(numpy_kernel, prim, eqn.params, avals, eqn.source, self)
        if prim in DASK_ONE_CHUNK:
            return whole
        try:
            kernel = self.kernel(prim, eqn.params)
        except AttributeError as error:   # dask.array lacks the function
            kernel = _raiser(error)
        return chunked(kernel, numpy_kernel, whole, avals, prim)

    def truth(self, pred) -> bool:
        """A staged test's value: computed where the data lives, only the boolean back."""
        return bool(self.xp.compute(pred)[0]) if is_dask_array(pred) else bool(pred)

    def carry(self, *values) -> list:
        """A loop's carried values with their Dask arrays persisted (graphs bounded)."""
        return self.xp.persist(*values)

    def finish(self, leaves) -> list:
        """A graph's results: computed together where `compute` is set, else as they are."""
        if not self.compute:
            return list(leaves)
        return [np.asarray(x) if isinstance(x, np.generic) else x   # 0-d: an array, as NumPy's
                for x in self.xp.compute(*leaves)]


def _raiser(error):
    def run(*operands):
        raise error
    return run


def _fit(value, aval, prim):
    """`value` with NumPy's dtype (`matmul` of int32 on Dask gives int64); a shape other
    than NumPy's (Dask's `x[1, :, idx]`) raises `_ShapeDiffers`."""
    if aval.weak:
        return value
    dtype = getattr(value, "dtype", None)
    if dtype is not None and dtype != aval.dtype:
        value = value.astype(aval.dtype)
    shape = getattr(value, "shape", None)
    if shape is not None and (len(shape) != len(aval.shape) or any(
            want is not None and got == got and got != want
            for got, want in zip(shape, aval.shape))):
        raise _ShapeDiffers(f"dask.array's {prim.name} gives shape {tuple(shape)} where "
                            f"NumPy's gives {aval}")
    return value


class _ShapeDiffers(Exception):
    pass


def _sized(x):
    """`x` with sizes a mask left unknown computed, and without empty chunks: on either,
    some of dask.array's kernels answer wrongly (`cumsum` of `x[x < 0]` comes back empty)."""
    if not is_dask_array(x) or not any(n != n for n in x.shape) and all(
            all(chunks) for chunks in x.chunks):
        return x
    if any(n != n for n in x.shape):
        x = x.compute_chunk_sizes()
    return x.rechunk(tuple(tuple(n for n in chunks if n) or (0,) for chunks in x.chunks))


def chunked(kernel, numpy_kernel, whole, avals, prim):
    """The kernel an equation runs on Dask (see `DaskBackend.eqn_kernel`)."""
    def run(*operands):
        if not any(is_dask_array(x) for x in operands):
            return numpy_kernel(*operands)   # host values: NumPy's, on the client
        operands = [_sized(x) for x in operands]
        try:
            out = kernel(*operands)
            if prim.multiple_results:
                return [_fit(v, a, prim) for v, a in zip(out, avals)]
            return _fit(out, avals[0], prim)
        except Exception as error:   # no chunked form here: NumPy's kernel (dask_gather)
            return whole(*operands, why=error)
    return run


_dask_backends: dict[str, DaskBackend] = {}


def dask_backend(chunks="auto", compute=False, persist_every=1, client=None,
                 max_gather=DEFAULT_MAX_GATHER) -> DaskBackend:
    """The Dask backend of these options (one per distinct device name)."""
    check_options(chunks, compute, persist_every, max_gather)
    max_gather = gather_limit(max_gather)
    name = device_name(chunks, compute, persist_every, client, max_gather)
    backend = _dask_backends.get(name)
    if backend is None:
        backend = _dask_backends[name] = DaskBackend(name, chunks, compute, persist_every,
                                                     client, max_gather)
    elif client is not None:
        backend.xp.client = client   # a new client of the same scheduler
    return backend


def _by_name(device: str) -> DaskBackend:
    backend = _dask_backends.get(device)
    if backend is None and device == "dask":
        backend = dask_backend()
    if backend is None:
        raise ValueError(f"unknown device {device!r}: a Dask device with options is "
                         f"made by ag.device('dask', chunks=..., compute=...)")
    return backend


NAMED_BACKENDS["dask"] = _by_name
