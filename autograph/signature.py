"""Call signatures: what part of a call selects (and keys) a traced graph.

Arguments are bound to the function's parameters (defaults applied) and
flattened. Each leaf gets a key: arrays (NumPy arrays and scalars, CuPy arrays,
traced values, `TensorSpec`s) an `ArrayKey` (dtype and shape), since they
become graph inputs; every other Python value a `PyKey` (type and value) or,
where it is unhashable or hashed by identity, an `ObjectKey`, since it is
frozen into the graph. A `CacheKey` adds the device and the structure. Keys
are named tuples, hashed and compared in C (the slow call path looks one up
on every call). Keys of two kinds never compare equal: a named tuple compares
as a plain tuple, but an `ArrayKey`'s dtype equals no Python type (NumPy
would take a type for the object dtype, which arrays here never have: tracing
refuses them) and its shape is a tuple, which a `PyKey`'s value and an
`ObjectKey`'s identity are not (tuples are flattened).

>>> sig = flatten_call(inspect.signature(lambda x, k=2: x), (np.ones(3),), {}, {})
>>> sig.cache_key("cpu").leaves
(ArrayKey(dtype=dtype('float64'), shape=(3,), scalar=False), PyKey(type=<class 'int'>, value=2))
"""
from __future__ import annotations

import dataclasses
import inspect
import weakref
from typing import NamedTuple

import numpy as np

from runtime import AbstractValue, Tracer
from runtime.errors import add_note_once
from runtime.source import location_note, user_source
from runtime.tree import flatten, leaf_paths

from .specs import TensorSpec


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


@dataclasses.dataclass
class CallSignature:
    """One call, flattened: leaves, their keys and labels, and how to rebuild it."""

    leaves: list
    keys: tuple
    labels: list
    trees: Structure
    bound: inspect.BoundArguments

    def cache_key(self, device: str) -> CacheKey:
        return CacheKey(device, self.trees, self.keys)

    def without_values(self) -> "CallSignature":
        """This signature without the argument values (which it must not keep alive)."""
        return dataclasses.replace(self, leaves=None, bound=None)

    def rebuild(self, leaves) -> tuple[tuple, dict]:
        """(args, kwargs) for calling the function with `leaves` in place."""
        names, trees = self.trees
        it = iter(leaves)
        for name, tree in zip(names, trees):
            self.bound.arguments[name] = tree.unflatten([next(it) for _ in range(tree.num_leaves)])
        return self.bound.args, self.bound.kwargs


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
    if hasattr(x, "__cuda_array_interface__"):
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


def check_against_spec(x, spec: TensorSpec, label: str):
    """`x` as an input of `spec`; Python values convert, mismatched arrays raise."""
    if isinstance(x, TensorSpec):
        value_dtype, value_shape = x.dtype, x.shape
    elif isinstance(x, (np.ndarray, np.generic, Tracer)) or hasattr(x, "__cuda_array_interface__"):
        value_dtype, value_shape = np.dtype(x.dtype), tuple(x.shape)
    else:
        try:
            x = np.asarray(x, dtype=spec.dtype)
        except (TypeError, ValueError) as error:
            raise TypeError(f"{label}: {x!r} does not convert to {spec}: {error}") from None
        value_dtype, value_shape = x.dtype, x.shape
    if value_dtype != spec.dtype:
        raise TypeError(f"{label} has dtype {value_dtype}, but the input signature "
                        f"declares {spec}")
    if not AbstractValue(spec.shape, spec.dtype).accepts(AbstractValue(value_shape, spec.dtype)):
        raise ValueError(f"{label} has shape {tuple(value_shape)}, which does not fit "
                         f"the input signature's {spec}")
    return x


def flatten_call(signature: inspect.Signature, args, kwargs, param_specs: dict,
                 apply_defaults: bool = True, name: str = "function") -> CallSignature:
    """Binds and flattens one call; leaves under a spec'd parameter are checked.

    Defaults join the key of Python functions; builtins such as ufuncs, whose
    defaults are not values to pass back, are called with what was given.
    Arguments that do not bind are a `TypeError` in Python's own words, naming
    the function `name` (see `bind_error`) and noting the caller's line; so is
    an array subclass (`np.matrix`, a masked array), which a graph would
    silently run as a plain array (`np.memmap` passes: it is one).
    """
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        error = bind_error(signature, name, args, kwargs)
        add_note_once(error, f"calling graph function {name}{location_note(user_source())}")
        raise error from None
    if apply_defaults:
        bound.apply_defaults()
    leaves, keys, labels, names, trees = [], [], [], [], []
    for name, value in bound.arguments.items():
        specs = param_specs.get(name)
        if specs is not None:
            spec_leaves, value_tree = flatten(specs, is_leaf=lambda s: isinstance(s, TensorSpec))
            value_leaves = _flatten_like(specs, value, name)
            paths = leaf_paths(value_tree, name)
            value_leaves = [check_against_spec(v, s, f"argument {p!r}")
                            for v, s, p in zip(value_leaves, spec_leaves, paths)]
            keys.extend(leaf_key(v, s) for v, s in zip(value_leaves, spec_leaves))
        else:
            value_leaves, value_tree = flatten(value)
            paths = leaf_paths(value_tree, name)
            keys.extend(leaf_key(v) for v in value_leaves)
        for v, path in zip(value_leaves, paths):
            if isinstance(v, np.ndarray) and type(v) not in (np.ndarray, np.memmap):
                _refuse_subclass(v, path)
        leaves.extend(value_leaves)
        labels.extend(paths)
        names.append(name)
        trees.append(value_tree)
    return CallSignature(leaves, tuple(keys), labels, Structure(tuple(names), tuple(trees)),
                         bound)


def bind_error(signature: inspect.Signature, name: str, args, kwargs) -> TypeError:
    """The `TypeError` Python raises for `name(*args, **kwargs)` with `signature`.

    A stand-in with the same parameters (no annotations, `None` defaults) is
    called, so the wording is Python's own: `f() missing 1 required
    positional argument: 'y'`, `f() takes 1 positional argument but 2 were given`.
    """
    params = [p.replace(annotation=p.empty, default=None if p.default is not p.empty else p.empty)
              for p in signature.parameters.values()]
    text = str(signature.replace(parameters=params, return_annotation=signature.empty))
    scope: dict = {}
    try:
        exec(f"def stand_in{text}: pass", scope)  # noqa: S102  (parameter names only)
        stand_in = scope["stand_in"]
        stand_in.__qualname__ = name
        stand_in(*args, **kwargs)
    except TypeError as error:
        return TypeError(str(error))
    except SyntaxError:
        pass
    try:
        signature.bind(*args, **kwargs)
    except TypeError as error:
        return TypeError(f"{name}(): {error}")
    return TypeError(f"{name}(): the arguments do not bind")


def _refuse_subclass(value, label: str):
    kind = f"{type(value).__module__}.{type(value).__qualname__}"
    fix = (f"{label}.filled(fill_value) or np.asarray({label})"
           if isinstance(value, np.ma.MaskedArray) else f"np.asarray({label})")
    error = TypeError(f"argument {label!r} is a {kind}, an ndarray subclass; graph functions "
                      f"take plain arrays, whose subclass behaviour (masks, matrix products) "
                      f"they would drop: pass {fix}")
    add_note_once(error, f"in a call{location_note(user_source())}")
    raise error


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


def param_specs_of(fn, signature: inspect.Signature, input_signature) -> dict:
    """Per-parameter specs: from `input_signature` (positional order) or annotations."""
    params = [p for p in signature.parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if input_signature is not None:
        input_signature = list(input_signature)
        if len(input_signature) > len(params):
            raise TypeError(f"input_signature has {len(input_signature)} entries but "
                            f"{getattr(fn, '__name__', fn)} takes {len(params)} positional "
                            f"parameters")
        return {p.name: s for p, s in zip(params, input_signature)}
    return {p.name: p.annotation for p in signature.parameters.values()
            if isinstance(p.annotation, TensorSpec)}


def _flatten_like(specs, value, label: str) -> list:
    """The parts of `value` that the `TensorSpec`s of `specs` describe, in order."""
    if isinstance(specs, TensorSpec):
        return [value]
    if isinstance(specs, dict):
        if not isinstance(value, dict) or set(value) != set(specs):
            raise TypeError(f"argument {label!r} must be a dict with keys {sorted(specs)}, "
                            f"got {value!r}")
        return [leaf for k in specs for leaf in _flatten_like(specs[k], value[k], f"{label}[{k!r}]")]
    if isinstance(specs, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(specs):
            raise TypeError(f"argument {label!r} must be a sequence of {len(specs)} "
                            f"(like the input signature {specs!r}), got {value!r}")
        return [leaf for i, (s, v) in enumerate(zip(specs, value))
                for leaf in _flatten_like(s, v, f"{label}[{i}]")]
    raise TypeError(f"input signature entries must be TensorSpecs or structures of them, "
                    f"got {specs!r}")
