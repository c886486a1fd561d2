"""Shared helpers for shape and dtype rules.

Dtypes are computed *by example*: the NumPy function itself runs on tiny
arrays of the input dtypes (Python scalars passed as they are, so they stay
weakly typed), which makes every result dtype exactly NumPy's.
"""
from __future__ import annotations

import functools
import warnings

import numpy as np

from ..abstract import AbstractValue, python_example
from ..dispatch import unsupported
from ..ir import Literal


def example(atom, ndim: int | None = None):
    """A stand-in value for `atom`: its literal, a Python number for a weak value
    (so NumPy promotes it by NEP 50, as it will when the graph runs), or ones of
    its dtype (size-1 dims)."""
    if isinstance(atom, Literal):
        return atom.value
    if atom.aval.weak:
        return python_example(atom.aval)
    nd = atom.aval.ndim if ndim is None else ndim
    return np.ones((1,) * nd, atom.aval.dtype)


def _example_key(atom):
    if isinstance(atom, Literal):
        v = atom.value
        return (type(v), v) if isinstance(v, int) else (type(v), getattr(v, "dtype", None))
    return (atom.aval.dtype, atom.aval.ndim, atom.aval.weak)


def dtype_by_example(fn, atoms, **kwargs) -> np.dtype:
    """The dtype of `fn(*examples, **kwargs)`: NumPy's own answer, cached."""
    key = (fn, tuple(_example_key(a) for a in atoms), _freeze(kwargs))
    try:
        return _cached_dtypes(key, fn, atoms, kwargs)
    except TypeError:  # unhashable kwargs: no caching
        return _compute_dtype(fn, atoms, kwargs)


def _freeze(kwargs):
    return tuple(sorted(kwargs.items()))


_dtype_cache: dict = {}


def _cached_dtypes(key, fn, atoms, kwargs):
    hit = _dtype_cache.get(key)
    if hit is None:
        hit = _dtype_cache[key] = _compute_dtype(fn, atoms, kwargs)
    return hit


def _compute_dtype(fn, atoms, kwargs):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = fn(*[example(a) for a in atoms], **kwargs)
    if isinstance(result, tuple):
        return tuple(np.asarray(r).dtype for r in result)
    return np.asarray(result).dtype


def aval(shape, dtype) -> AbstractValue:
    return AbstractValue(shape, dtype)


def bound(fn, **params):
    """`fn` with static params bound (`fn` itself when there are none)."""
    params = {k: v for k, v in params.items() if v is not None}
    return functools.partial(fn, **params) if params else fn


def reject(kwargs: dict, where: str):
    """Raises for keyword arguments that tracing does not support."""
    for name, value in kwargs.items():
        if value is None or value is np._NoValue:
            continue
        if name == "out" and not hasattr(value, "shape") and not isinstance(value, tuple):
            raise TypeError("return arrays must be of ArrayType")  # as NumPy says
        raise unsupported(f"{where}(..., {name}=...)")
