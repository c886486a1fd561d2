"""`TraceCache`: the traced graphs of one graph function, by `CacheKey`.

It holds two tables: `entries` (every `CacheKey` to its `ConcreteFunction`)
and `fast`, the short call path's (CPU, positional NumPy arrays only: the flat
tuple `(dtype0, shape0, dtype1, shape1, ...)` to the compiled graph). An entry
whose key names an object by weak identity (a model passed as an argument) is
forgotten, in both tables, when that object dies. With `reduce_retracing`,
`relaxed_key` finds the key with unknown dimensions that a new shape and a
cached one share.
"""
from __future__ import annotations

import weakref

import numpy as np

from runtime.tree import LEAF

from .signature import CacheKey, CallSignature, relax


class TraceCache:
    """The graphs traced for one graph function; see the module docstring."""

    def __init__(self):
        self.entries: dict = {}   # CacheKey -> ConcreteFunction
        self.fast: dict = {}      # (dtype0, shape0, ...) -> compiled graph, CPU only

    def get(self, key: CacheKey):
        return self.entries.get(key)

    def remember(self, key: CacheKey, concrete, sig: CallSignature | None = None,
                 positional: bool = False) -> None:
        """Caches `concrete` under `key` (and for the short path, where `sig` fits it)."""
        self.entries[key] = concrete
        this = weakref.ref(self)
        for obj in key.weak_objects():
            weakref.finalize(obj, _forget, this, key)
        if sig is not None and positional and key.device == "cpu" and _plain_arrays(sig):
            flat = []
            for x in sig.leaves:
                flat += (x.dtype, x.shape)
            self.fast[tuple(flat)] = concrete._fn

    def forget(self, key: CacheKey) -> None:
        """Drops the entry of `key` (an object it names died), from both tables."""
        concrete = self.entries.pop(key, None)
        if concrete is not None:
            for flat in [k for k, fn in self.fast.items() if fn is concrete._fn]:
                del self.fast[flat]

    def relaxed_key(self, key: CacheKey) -> CacheKey | None:
        """A key with unknown dims where a cached key differs from `key` in shapes only."""
        for other in list(self.entries):
            if (other.device, other.trees) == (key.device, key.trees):
                leaves = relax(other.leaves, key.leaves)
                if leaves is not None:
                    return CacheKey(key.device, key.trees, leaves)
        return None

    def values(self) -> list:
        """The traced graphs (a copy: other threads may trace meanwhile)."""
        return list(self.entries.values())


def _plain_arrays(sig: CallSignature) -> bool:
    """True where every parameter is one NumPy array (what the short path checks)."""
    return (all(t is LEAF for t in sig.trees.trees)
            and all(type(x) is np.ndarray for x in sig.leaves))


def _forget(cache_ref, key):
    cache = cache_ref()
    if cache is not None:
        cache.forget(key)
