"""Backends: an array module plus the kernel table bound to it.

The CPU backend uses NumPy and the shared kernel table as it is. The GPU
backend uses CuPy, imported here and nowhere else, lazily, with its
differences kept in `CUPY_OVERRIDES`, merged over the shared table. The Dask
backend (`dask_backend.DaskBackend`) binds the table to `dask.array`
(`dask_arrays.py`) with `DASK_OVERRIDES` merged over it, and adds the hooks generated code calls
on a backend that has them: `truth(pred)` for a staged `if`'s or `while`'s
test, `carry(*values)` for a loop's carried values after each trip, and
`finish(leaves)` for a graph's results. The NumPy tier has none (`None`).
"""
from __future__ import annotations

import functools

import numpy as np

from . import primitives

CUPY_OVERRIDES: dict = {}
DASK_OVERRIDES: dict = {}   # primitive -> kernel factory, where dask.array's differs
# primitives with no chunked form on Dask: NumPy's kernel over each operand as one chunk
DASK_ONE_CHUNK: set = set()
# primitive -> rule(params, ndims) -> (axes each operand needs whole, the axes of each result
# those give) or None (every axis): the rest stay chunked (`dask_forms.py`, `dask_gather.py`)
DASK_WHOLE_AXES: dict = {}
# device name prefix -> the backend of a name (filled by dask_backend.py, which needs this
# module's Backend and CPU)
NAMED_BACKENDS: dict = {}


class Backend:
    """`xp` (the array module) and `kernel(prim, params)` bound for it."""

    truth = carry = finish = None   # hooks of a lazy backend (`DaskBackend`)
    persist_every = 1
    inline_operators = True   # generated code may write operators and subscripts as Python's

    def __init__(self, name: str, xp, overrides: dict, device_id: int | None = None):
        self.name = name
        self.xp = xp
        self.device_id = device_id
        self._overrides = overrides

    def kernel(self, prim, params: dict, run_graph=None):
        """The kernel of `prim` bound to this backend and `params`.

        A higher-order primitive's kernel also takes `run_graph(graph)`, which
        returns a function running a subgraph (compiled, or interpreted).
        """
        factory = self._overrides.get(prim) or primitives.kernels.get(prim)
        if factory is None:
            raise NotImplementedError(f"primitive {prim.name!r} has no kernel")
        if prim.higher_order:
            if run_graph is None:
                raise TypeError(f"primitive {prim.name!r} runs subgraphs: its kernel needs "
                                f"a run_graph callback")
            return factory(self.xp, run_graph, **params)
        return factory(self.xp, **params)

    def eqn_kernel(self, eqn, run_graph=None):
        """The kernel of one equation (`kernel` of its primitive and params)."""
        return self.kernel(eqn.primitive, eqn.params, run_graph)

    def asarray(self, value):
        """`value` as an array of this backend (a copy onto the device where needed)."""
        if self.xp is np:
            get = getattr(value, "get", None)  # a CuPy array coming back to the host
            return np.asarray(get() if get is not None and not isinstance(value, np.ndarray)
                              else value)
        with self.xp.cuda.Device(self.device_id or 0):
            return self.xp.asarray(value)

    def __repr__(self):
        return f"Backend({self.name})"


CPU = Backend("cpu", np, {})


def _import_cupy():
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no CUDA device")
    except Exception as error:  # ImportError, or CUDA missing at run time
        raise RuntimeError(
            f"a GPU was asked for, but CuPy cannot use one here ({error}); "
            "install with `pip install .[gpu]` on a machine with an NVIDIA GPU, "
            "or run under ag.device('cpu')") from None
    return cupy


@functools.lru_cache(maxsize=None)
def get_backend(device: str) -> Backend:
    """The backend for `"cpu"`, `"gpu"`, `"gpu:N"`, or a name of `NAMED_BACKENDS` (`"dask"`,
    or a name `dask_backend.dask_backend` gave)."""
    if device == "cpu":
        return CPU
    for prefix, by_name in NAMED_BACKENDS.items():
        if device.startswith(prefix):
            return by_name(device)
    kind, _, index = device.partition(":")
    if kind != "gpu" or not (index == "" or index.isdigit()):
        raise ValueError(f"unknown device {device!r}: use 'cpu', 'gpu', 'gpu:N' or 'dask'")
    cupy = _import_cupy()
    device_id = int(index or 0)
    if device_id >= cupy.cuda.runtime.getDeviceCount():
        raise RuntimeError(f"device {device!r} does not exist: this machine has "
                           f"{cupy.cuda.runtime.getDeviceCount()} GPU(s)")
    return Backend(f"gpu:{device_id}", cupy, CUPY_OVERRIDES, device_id)


def gpu_available() -> bool:
    """True where CuPy imports and sees at least one GPU."""
    try:
        _import_cupy()
    except RuntimeError:
        return False
    return True

