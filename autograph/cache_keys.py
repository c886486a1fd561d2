"""Cache keys: what selects a traced graph, leaf by leaf.

Each leaf of a call gets a key: arrays (NumPy arrays and scalars, CuPy arrays,
traced values, `TensorSpec`s) an `ArrayKey` (dtype, shape, and whether it is a
NumPy scalar), since they become graph inputs; every other Python value a
`PyKey` (type and value) or, where it is unhashable or hashed by identity, an
`ObjectKey`, since it is frozen into the graph. A `CacheKey` adds the device
and the structure. Keys are named tuples, hashed and compared in C (the slow
call path looks one up on every call). Keys of two kinds never compare equal: a
named tuple compares as a plain tuple, but an `ArrayKey`'s dtype equals no
Python type (NumPy would take a type for the object dtype, which arrays here
never have: tracing refuses them) and its shape is a tuple, which a `PyKey`'s
value and an `ObjectKey`'s identity are not (tuples are flattened).

>>> leaf_key(np.ones(3)), leaf_key(2)
(ArrayKey(dtype=dtype('float64'), shape=(3,), scalar=False), PyKey(type=<class 'int'>, value=2))
"""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from autograph_runtime import Tracer
from autograph_runtime.dask_arrays import is_dask_array

from .specs import TensorSpec

if TYPE_CHECKING:
    from .signature import CallSignature


class ArrayKey(NamedTuple):
    """An array leaf (a graph input): its dtype and shape (None for unknown dims).

    `scalar` tells a NumPy scalar from a 0-d array: `s += y` promotes the one
    and casts into the other, so they do not share a graph.
    """

    dtype: np.dtype
    shape: tuple
    scalar: bool = False

    def __str__(self):
        return f"{self.dtype.name}{list(self.shape)}".replace("None", "?").replace(" ", "")


class PyKey(NamedTuple):
    """A hashable Python leaf, frozen into the graph: its type and value (floats by repr)."""

    type: type
    value: object

    @property
    def python_value(self):
        """The value itself (floats and complexes are keyed by their repr)."""
        return self.type(self.value) if self.type in (float, complex) else self.value

    def __str__(self):
        """The value as the user wrote it."""
        return self.value if self.type in (float, complex) else repr(self.value)


class ObjectKey(NamedTuple):
    """A Python leaf compared by identity (a model, a function, a list), held weakly."""

    type: type
    identity: object    # WeakIdentity, or StrongIdentity where no weak reference can be made


class CacheKey(NamedTuple):
    """What selects a traced graph: the device, the arguments' structure and the leaves' keys."""

    device: str
    trees: Structure
    leaves: tuple       # one ArrayKey, PyKey or ObjectKey per leaf

    def weak_objects(self) -> list:
        """The objects this key names by weak identity (alive now)."""
        objects = []
        for key in self.leaves:
            if isinstance(key, ObjectKey) and isinstance(key.identity, WeakIdentity):
                obj = key.identity.ref()
                if obj is not None:
                    objects.append(obj)
        return objects


class Structure(NamedTuple):
    """The nesting of a call's arguments: parameter names, one `TreeDef` per parameter."""

    names: tuple
    trees: tuple


def is_array_key(key) -> bool:
    return type(key) is ArrayKey


def leaf_key(x, spec: TensorSpec | None = None):
    """The cache key of one leaf: an `ArrayKey`, a `PyKey` or an `ObjectKey`."""
    if spec is not None:
        return ArrayKey(spec.dtype, spec.shape)
    if isinstance(x, Tracer):  # a value computed in a graph is a scalar where it is 0-d
        return ArrayKey(x.dtype, x.shape, x.ndim == 0 and x.node.id not in x.builder.maybe_arrays)
    if isinstance(x, (np.ndarray, TensorSpec)):
        return ArrayKey(x.dtype, x.shape)
    if isinstance(x, np.generic):
        return ArrayKey(x.dtype, (), True)
    if hasattr(x, "__cuda_array_interface__") or is_dask_array(x):
        return ArrayKey(np.dtype(x.dtype), tuple(x.shape))
    if type(x) in (float, complex):
        return PyKey(type(x), repr(x))  # tells -0.0 from 0.0, and matches nan with nan
    try:
        hash(x)
    except TypeError:
        return ObjectKey(type(x), identity_key(x))
    if type(x).__hash__ is object.__hash__ and x is not None and x is not Ellipsis:
        # compared by identity: a model, a function
        return ObjectKey(type(x), identity_key(x))
    return PyKey(type(x), x)


def relax(old_keys: tuple, new_keys: tuple) -> tuple | None:
    """Keys with differing dims made unknown, where only array shapes differ (else None)."""
    out = []
    for a, b in zip(old_keys, new_keys):
        if a == b:
            out.append(a)
        elif (is_array_key(a) and is_array_key(b) and a.dtype == b.dtype
              and len(a.shape) == len(b.shape)):
            out.append(ArrayKey(a.dtype, tuple(x if x == y else None
                                               for x, y in zip(a.shape, b.shape))))
        else:
            return None
    return tuple(out)


class WeakIdentity:
    """A key for an object compared by identity, held weakly: a cache keyed by a
    model does not keep the model alive (see `TraceCache.remember`)."""

    __slots__ = ("ref", "id")

    def __init__(self, obj):
        self.ref = weakref.ref(obj)
        self.id = id(obj)

    def __hash__(self):
        return self.id

    def __eq__(self, other):
        if not isinstance(other, WeakIdentity) or other.id != self.id:
            return False
        obj = self.ref()
        return obj is not None and obj is other.ref()

    def __repr__(self):
        return f"<weak key of {self.ref()!r}>"


class StrongIdentity:
    """A key for an object compared by identity that cannot be held weakly."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return isinstance(other, StrongIdentity) and other.obj is self.obj


def identity_key(x):
    try:
        return WeakIdentity(x)
    except TypeError:
        return StrongIdentity(x)


def describe_change(old: CallSignature, new: CallSignature) -> str:
    """What differs between two calls, for the retracing warning and the trace log."""
    return "; ".join(describe_changes(old, new).values()) or "the device changed"


def describe_changes(old: CallSignature, new: CallSignature) -> dict[str, str]:
    """What differs between two calls, by the label of each argument that changed.

    A change of structure is keyed by the empty label; equal keys give `{}`.
    """
    if old.trees != new.trees:
        return {"": f"the structure of the arguments changed from {old.trees.trees} to "
                    f"{new.trees.trees}"}
    changes = {}
    for label, a, b in zip(new.labels, old.keys, new.keys):
        if a == b:
            continue
        if is_array_key(a) and is_array_key(b):
            changes[label] = f"argument {label!r} changed from {a} to {b}"
        elif isinstance(a, ObjectKey) and isinstance(b, ObjectKey) and a.type is b.type:
            changes[label] = (f"argument {label!r} is another {a.type.__name__} object "
                              f"(objects are keyed by identity)")
        elif isinstance(a, PyKey) and isinstance(b, PyKey):
            changes[label] = f"Python argument {label!r} changed value from {a} to {b}"
        else:
            changes[label] = f"argument {label!r} changed from {_kind(a)} to {_kind(b)}"
    return changes


def _kind(key):
    if is_array_key(key):
        return f"an array {key}"
    return f"a Python {key.type.__name__}" + (f" {key}" if isinstance(key, PyKey) else "")
