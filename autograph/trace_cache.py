"""`TraceCache`: the traced graphs of one graph function, by `CacheKey`.

It holds two tables: `entries` (every `CacheKey` to its `ConcreteFunction`)
and `fast`, the short call path's (`fast_path.call_key` of a raw call to the
`FastEntry` that runs the entry's graph; filled by the full path through
`remember_call`, at most `MAX_CALL_KEYS` raw keys per entry). An entry
whose key names an object by weak identity (a model passed as an argument) is
forgotten, in both tables, when that object dies. With `reduce_retracing`,
`relaxed_key` finds the key with unknown dimensions that a new shape and a
cached one share, unless a trace for that key failed (`abandon`).

The cache is bounded: it keeps the `MAX_ENTRIES` keys used last (a hit on the
slow path or a new trace counts as a use; a hit on the short path, one dict
lookup, does not), so a function called with ever new Python values holds a
bounded number of graphs. An evicted key goes from both tables; its graph, and
the `linecache` entry of its compiled source, go once nothing else uses them.
"""
from __future__ import annotations

import collections
import weakref

from .cache_keys import CacheKey, relax

MAX_ENTRIES = 64   # keys (and so graphs) one graph function keeps
MAX_CALL_KEYS = 16  # raw call keys (orders of keywords, shapes under a spec) per key


class TraceCache:
    """The graphs traced for one graph function; see the module docstring."""

    def __init__(self, max_entries: int = MAX_ENTRIES):
        self.max_entries = max_entries
        # CacheKey -> ConcreteFunction, the least recently used first
        self.entries: collections.OrderedDict = collections.OrderedDict()
        self.fast: dict = {}          # fast_path.call_key(args, kwargs) -> FastEntry
        self._flat: dict = {}         # CacheKey -> its raw keys in `fast`
        self._finalizers: dict = {}   # CacheKey -> a weakref.finalize per object it names
        self._abandoned: collections.OrderedDict = collections.OrderedDict()  # failed relaxed keys

    def get(self, key: CacheKey):
        concrete = self.entries.get(key)
        if concrete is not None:
            try:
                self.entries.move_to_end(key)
            except KeyError:   # evicted meanwhile, by another thread or a collected object
                pass
        return concrete

    def remember(self, key: CacheKey, concrete) -> list[CacheKey]:
        """Caches `concrete` under `key`; returns the keys evicted to make room (the least
        recently used)."""
        if key in self.entries:
            self.forget(key)
        self.entries[key] = concrete
        this = weakref.ref(self)
        finalizers = [weakref.finalize(obj, _forget, this, key) for obj in key.weak_objects()]
        if finalizers:
            self._finalizers[key] = finalizers
        evicted = []
        while len(self.entries) > self.max_entries:
            oldest = next(iter(self.entries))
            self.forget(oldest)
            evicted.append(oldest)
        return evicted

    def remember_call(self, key: CacheKey, concrete, raw_key: tuple, entry) -> None:
        """Lets calls with `raw_key` take the short path to `concrete`, cached under `key`.

        Nothing is done where `key` no longer holds `concrete` (evicted meanwhile),
        or already has `MAX_CALL_KEYS` raw keys (those calls keep the full path).
        """
        if self.entries.get(key) is not concrete:
            return
        raw_keys = self._flat.setdefault(key, [])
        if len(raw_keys) < MAX_CALL_KEYS and raw_key not in self.fast:
            raw_keys.append(raw_key)
            self.fast[raw_key] = entry

    def forget(self, key: CacheKey) -> None:
        """Drops the entry of `key` (evicted, or an object it names died), from both tables."""
        self.entries.pop(key, None)
        for raw_key in self._flat.pop(key, ()):
            self.fast.pop(raw_key, None)
        for finalizer in self._finalizers.pop(key, ()):
            finalizer.detach()   # the object lives on: its finalizer must not keep `key`

    def relaxed_key(self, key: CacheKey) -> CacheKey | None:
        """A key with unknown dims where a cached key differs from `key` in shapes only.

        Keys passed to `abandon` are never offered.
        """
        for other in list(self.entries):
            if (other.device, other.trees) == (key.device, key.trees):
                leaves = relax(other.leaves, key.leaves)
                if leaves is not None:
                    relaxed = CacheKey(key.device, key.trees, leaves)
                    if relaxed not in self._abandoned:
                        return relaxed
        return None

    def abandon(self, relaxed: CacheKey) -> None:
        """Offers `relaxed` no more (its trace failed): calls that fit it trace exact shapes."""
        self._abandoned[relaxed] = True
        while len(self._abandoned) > self.max_entries:
            self._abandoned.popitem(last=False)

    def values(self) -> list:
        """The traced graphs (a copy: other threads may trace meanwhile)."""
        return list(self.entries.values())


def _forget(cache_ref, key):
    cache = cache_ref()
    if cache is not None:
        cache.forget(key)
