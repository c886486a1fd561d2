"""Call signatures: a call bound to the function's parameters and flattened.

Arguments are bound to the parameters (defaults applied; a call that does not
bind fails in Python's own words), checked against `TensorSpec`s, and
flattened; each leaf gets its key (`autograph.cache_keys`).

>>> sig = flatten_call(inspect.signature(lambda x, k=2: x), (np.ones(3),), {}, {})
>>> sig.cache_key("cpu").leaves
(ArrayKey(dtype=dtype('float64'), shape=(3,), scalar=False), PyKey(type=<class 'int'>, value=2))
"""
from __future__ import annotations

import dataclasses
import inspect

import numpy as np

from autograph_runtime import AbstractValue, Tracer
from autograph_runtime.dask_arrays import is_dask_array
from autograph_runtime.errors import add_note_once
from autograph_runtime.source import location_note, user_source
from autograph_runtime.tree import flatten, leaf_paths

from .cache_keys import CacheKey, Structure, leaf_key
from .specs import TensorSpec


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


def check_against_spec(x, spec: TensorSpec, label: str):
    """`x` as an input of `spec`; Python values convert, mismatched arrays raise."""
    if isinstance(x, TensorSpec):
        value_dtype, value_shape = x.dtype, x.shape
    elif (isinstance(x, (np.ndarray, np.generic, Tracer)) or hasattr(x, "__cuda_array_interface__")
          or is_dask_array(x)):
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
