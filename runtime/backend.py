"""Backends: an array module plus the kernel table bound to it.

The CPU backend uses NumPy and the shared kernel table as it is. The GPU
backend uses CuPy, imported here and nowhere else, lazily, with its
differences kept in `CUPY_OVERRIDES`, merged over the shared table. The Dask
backend (`DaskBackend`) binds the table to `dask.array` (`dask_backend.py`)
with `DASK_OVERRIDES` merged over it, and adds the hooks generated code calls
on a backend that has them: `truth(pred)` for a staged `if`'s or `while`'s
test, `carry(*values)` for a loop's carried values after each trip, and
`finish(leaves)` for a graph's results. The NumPy tier has none (`None`).
"""
from __future__ import annotations

import functools

import numpy as np

from . import primitives
from .dask_backend import DaskArrays, check_options, device_name, is_dask_array

CUPY_OVERRIDES: dict = {}
DASK_OVERRIDES: dict = {}   # primitive -> kernel factory, where dask.array's differs or lacks


class Backend:
    """`xp` (the array module) and `kernel(prim, params)` bound for it."""

    truth = carry = finish = None   # hooks of a lazy backend (`DaskBackend`)
    persist_every = 1

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


class DaskBackend(Backend):
    """Graphs as lazy `dask.array` expressions, computed on a cluster where `client` is given.

    NumPy inputs and constants are chunked (`chunks`: Dask's "auto", or what
    `dask.array.from_array` takes); Dask arrays pass through with their chunks;
    0-d values stay NumPy's, on the client. Results are Dask arrays, or NumPy
    arrays computed in one round trip where `compute` is set.
    """

    def __init__(self, name: str, chunks="auto", compute=False, persist_every=1, client=None):
        super().__init__(name, DaskArrays(client), DASK_OVERRIDES)
        self.chunks, self.compute, self.persist_every = chunks, compute, persist_every

    def asarray(self, value):
        if is_dask_array(value):
            return value
        get = getattr(value, "get", None)   # a CuPy array
        value = np.asarray(get() if get is not None and not isinstance(value, np.ndarray)
                           else value)
        return value if value.ndim == 0 else self.xp.from_array(value, chunks=self.chunks)

    def truth(self, pred) -> bool:
        """A staged test's value: computed where the data lives, only the boolean back."""
        return bool(self.xp.compute(pred)[0]) if is_dask_array(pred) else bool(pred)

    def carry(self, *values) -> list:
        """A loop's carried values with their Dask arrays persisted (graphs bounded)."""
        return self.xp.persist(*values)

    def finish(self, leaves) -> list:
        """A graph's results: computed together where `compute` is set, else as they are."""
        return self.xp.compute(*leaves) if self.compute else list(leaves)


_dask_backends: dict[str, DaskBackend] = {}


def dask_backend(chunks="auto", compute=False, persist_every=1, client=None) -> DaskBackend:
    """The Dask backend of these options (one per distinct device name)."""
    check_options(chunks, compute, persist_every)
    name = device_name(chunks, compute, persist_every, client)
    backend = _dask_backends.get(name)
    if backend is None:
        backend = _dask_backends[name] = DaskBackend(name, chunks, compute, persist_every, client)
    elif client is not None:
        backend.xp.client = client   # a new client of the same scheduler
    return backend


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
    """The backend for `"cpu"`, `"gpu"`, `"gpu:N"`, `"dask"` or a name `dask_backend` gave."""
    if device == "cpu":
        return CPU
    if device.startswith("dask"):
        backend = _dask_backends.get(device)
        if backend is None and device == "dask":
            backend = dask_backend()
        if backend is None:
            raise ValueError(f"unknown device {device!r}: a Dask device with options is "
                             f"made by ag.device('dask', chunks=..., compute=...)")
        return backend
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

