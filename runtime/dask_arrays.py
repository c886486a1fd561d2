"""Dask's array module for the Dask backend (`backend.DaskBackend`), and its device names.

Dask is imported here and nowhere else, lazily, when a Dask device is first
asked for: `DaskArrays` is `dask.array` as the shared kernel table reaches it
(`xp.sum`, `xp.where`, ...), with NumPy's signatures where Dask's differ, and
the two scheduler calls the backend makes (`compute`, `persist`), on a
`dask.distributed.Client` where one is given.
"""
from __future__ import annotations

import numpy as np


def is_dask_array(x) -> bool:
    """Whether `x` is a Dask array (a collection with a dtype and a shape), dask unimported."""
    return hasattr(x, "__dask_graph__") and hasattr(x, "dtype") and hasattr(x, "shape")


def import_dask():
    """`dask.array` (and `dask`), or an error naming the extra to install."""
    try:
        import dask
        import dask.array as da
    except ImportError as error:
        raise RuntimeError(
            f"a Dask device was asked for, but Dask cannot be imported ({error}); "
            "install it with `pip install '.[dask]'` (dask[array,distributed])") from None
    return dask, da


class DaskArrays:
    """The array module of the Dask backend: `dask.array`, where the kernels reach it
    by name, with NumPy's signatures for `asarray` and `array` (Dask's second
    positional argument of `asarray` is not the dtype), and the scheduler calls.
    """

    def __init__(self, client=None):
        self._dask, self._da = import_dask()
        self.client = client

    def __getattr__(self, name):
        value = getattr(self._da, name, None)
        if value is None and isinstance(getattr(np, name, None), np.ufunc):
            value = self._da.ufunc.ufunc(getattr(np, name))   # NumPy's, chunk by chunk
        if value is None:
            raise AttributeError(f"dask.array has no {name!r}, so this primitive has no "
                                 f"chunked form on Dask; run it under ag.device('cpu')")
        setattr(self, name, value)   # looked up once
        return value

    def copy(self, a, order="K"):
        return a   # Dask arrays are never written in place: a copy is the array

    def reshape(self, a, shape, order="C"):
        if order == "F":   # Fortran order: reversed axes, reshaped, reversed back
            return self._da.reshape(a.T, tuple(reversed(shape))).T
        return self._da.reshape(a, shape)

    def asarray(self, value, dtype=None):
        return self._da.asarray(value, dtype=dtype)

    def array(self, value, dtype=None, copy=True):
        return self._da.array(value, dtype=dtype)   # Dask arrays are never written

    def delayed(self, fn, **options):
        return self._dask.delayed(fn, **options)

    def compute(self, *values) -> list:
        """`values` with every Dask array among them computed, in one round trip."""
        where = [i for i, x in enumerate(values) if is_dask_array(x)]
        if not where:
            return list(values)
        lazy = [values[i] for i in where]
        if self.client is not None:
            done = self.client.compute(lazy, sync=True)
        else:
            done = self._dask.compute(*lazy)
        out = list(values)
        for i, value in zip(where, done):
            out[i] = value
        return out

    def persist(self, *values) -> list:
        """`values` with every Dask array among them persisted (its graph one task a chunk;
        one persisted already, or passed on unchanged by a loop, is left as it is)."""
        where = [i for i, x in enumerate(values) if is_dask_array(x)
                 and len(x.__dask_graph__()) > x.npartitions]
        if not where:
            return list(values)
        lazy = [values[i] for i in where]
        done = (self.client.persist(lazy) if self.client is not None
                else self._dask.persist(*lazy))
        out = list(values)
        for i, value in zip(where, done):
            out[i] = value
        return out


DEFAULT_MAX_GATHER = 256 * 2**20   # bytes: the largest block a gather may make (docs/dask.md)


def device_name(chunks="auto", compute=False, persist_every=1, client=None,
                max_gather=DEFAULT_MAX_GATHER) -> str:
    """The canonical device name of these options: `dask`, `dask@ADDRESS[...]`
    (`max_gather` in bytes, as `gather_limit` gives it)."""
    name = "dask" if client is None else f"dask@{client.scheduler.address}"
    options = []
    if chunks != "auto":
        options.append(f"chunks={chunks!r}")
    if compute:
        options.append("compute=True")
    if persist_every != 1:
        options.append(f"persist_every={persist_every}")
    if max_gather != DEFAULT_MAX_GATHER:
        options.append(f"max_gather={max_gather}")
    return name + (f"[{', '.join(options)}]" if options else "")


def gather_limit(max_gather) -> int | None:
    """`max_gather` in bytes: an int, a string Dask's `parse_bytes` reads ("1 GiB" is
    1073741824), or None (no limit)."""
    if max_gather is None:
        return None
    if isinstance(max_gather, str):
        dask, _ = import_dask()
        try:
            max_gather = dask.utils.parse_bytes(max_gather)
        except ValueError as error:
            raise ValueError(f"max_gather must be a number of bytes, as an int or a string "
                             f"such as '512 MiB', got {max_gather!r} ({error})") from None
    if type(max_gather) is not int or max_gather < 0:
        raise TypeError(f"max_gather must be a number of bytes >= 0 (an int, or a string "
                        f"such as '512 MiB'), or None for no limit, got {max_gather!r}")
    return max_gather


def check_options(chunks, compute, persist_every, max_gather=DEFAULT_MAX_GATHER) -> None:
    gather_limit(max_gather)
    if not isinstance(compute, bool):
        raise TypeError(f"compute must be True or False, got {compute!r}")
    if type(persist_every) is not int or persist_every < 1:
        raise ValueError(f"persist_every must be an int >= 1, got {persist_every!r}")
    if not (chunks == "auto" or isinstance(chunks, (int, tuple, dict))):
        raise TypeError(f"chunks must be 'auto', an int, a tuple or a dict (as "
                        f"dask.array.from_array takes), got {chunks!r}")
