"""Selections: select, piecewise, compress, extract and trim_zeros, as NumPy writes them.

`np.select` is a chain of `where`s (the first true condition wins, in NumPy's
result dtype); `np.piecewise` follows NumPy exactly: a zero array of x's dtype
written at each condition's mask with `func(x[cond])` (a callable, called on
the traced elements the mask selects, so it need not be elementwise, in a
staged `cond` on whether it selects any: NumPy calls it only then) or a value, in order. `np.compress`, `np.extract` and `np.trim_zeros` give results
whose size is known only when the graph runs, like a boolean-mask read: a
gather at `nonzero`'s positions, or a slice between traced bounds. All are
compositions of existing primitives (gradients, CuPy and serialization free).

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as b:
...     x = b.new_input(AbstractValue((None,), np.float64), "x")
...     y = np.select([x > 0], [x], default=-1.0)
>>> print(b.build([y]))
graph f(x:f64[?]) {
  const t0:f64[]
  t1:bool[?] = greater x 0
  t2:f64[?] = where t1 x t0
  return t2
}
"""
from __future__ import annotations

import collections.abc

import numpy as np

from ..abstract import normalize_axis
from ..dispatch import implements, unsupported
from ..tracer import Tracer
from .building import array
from .control_flow import cond as cond_
from .introspection import dynamic_shape
from .rearranging import take
from .shape_ops import ndim
from .updates import index_update


def _dtype_of(x):
    """What `np.result_type` takes for x: a Python number as it is (weak), else a dtype."""
    if isinstance(x, Tracer):
        return x.aval.dtype
    return x if isinstance(x, (bool, int, float, complex)) else np.asarray(x).dtype


# -- select, piecewise ------------------------------------------------------------------
@implements(np.select)
def _select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    dtype = np.result_type(*map(_dtype_of, choicelist), _dtype_of(default))
    conds = [array(c) for c in condlist]
    for i, c in enumerate(conds):
        if np.dtype(c.dtype) != bool:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    result = _cast(default, dtype)
    for c, v in zip(reversed(conds), reversed(choicelist)):
        result = np.where(c, _cast(v, dtype), result)
    return result


def _cast(v, dtype):
    return v if isinstance(v, Tracer) and v.dtype == dtype else array(v).astype(dtype)


def _conditions(x, condlist):
    """NumPy's list of conditions: a single one (a bool or an array of x's shape) is
    wrapped; each as a bool array."""
    if isinstance(condlist, Tracer):
        single = condlist.ndim < 2 and ndim(x) != 0
        conds = [condlist] if single else [condlist[i] for i in range(condlist.shape[0])]
    else:
        first = condlist if np.isscalar(condlist) else condlist[0]
        single = np.isscalar(condlist) or (
            not isinstance(first, (list, np.ndarray, Tracer)) and ndim(x) != 0)
        conds = [condlist] if single else list(condlist)
    return [array(c) != 0 if np.dtype(array(c).dtype) != bool else array(c) for c in conds]


@implements(np.piecewise)
def _piecewise(x, condlist, funclist, *args, **kw):
    x = array(x)
    conds, n2 = _conditions(x, condlist), len(funclist)
    n = len(conds)
    if n == n2 - 1:   # the "otherwise" condition
        others = conds[0]
        for c in conds[1:]:
            others = others | c
        conds.append(~others)
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = np.zeros_like(x)
    for cond, func in zip(conds, funclist):
        if not isinstance(func, collections.abc.Callable):
            if isinstance(func, int) and not isinstance(func, bool):
                func = np.array(func, dtype=x.dtype)  # NumPy's OverflowError out of range
            y = index_update(y, cond, array(func))
        else:
            y = _called_where(y, x, cond, func, args, kw)
    return y


def _called_where(y, x, cond, func, args, kw):
    """`y[cond] = func(x[cond], ...)` where `cond` selects any element (NumPy calls func
    only then): a staged `cond` where the mask is traced."""
    def written(y, vals):
        return index_update(y, cond, array(func(vals, *args, **kw)))
    vals = x[cond]
    if not isinstance(cond, Tracer):
        return written(y, vals) if np.any(cond) else y
    return cond_(np.any(cond), written, lambda y, vals: y, y, vals)


# -- compress, extract, trim_zeros ---------------------------------------------------
@implements(np.compress)
def _compress(condition, a, axis=None, out=None):
    if out is not None:
        raise unsupported("numpy.compress(..., out=...)")
    condition, a = array(condition), array(a)
    if ndim(condition) != 1:
        raise ValueError("condition must be a 1-d array")
    if axis is None:
        a, axis = np.ravel(a), 0
    axis = normalize_axis(axis, ndim(a))
    return take(a, np.nonzero(condition)[0], axis)


@implements(np.extract)
def _extract(condition, arr):
    return np.take(np.ravel(array(arr)), np.nonzero(np.ravel(array(condition)))[0])


@implements(np.trim_zeros)
def _trim_zeros(filt, trim="fb", axis=None):
    filt = array(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    nd = ndim(filt)
    axes = range(nd) if axis is None else [normalize_axis(axis, nd)]
    nonzero = filt != 0
    index = [slice(None)] * nd
    for d in axes:
        others = tuple(i for i in range(nd) if i != d)
        hit = np.any(nonzero, axis=others) if others else nonzero
        n, found = dynamic_shape(filt)[d], np.any(hit)
        first = lambda h: np.argmax(np.concatenate([h, [True]]))  # noqa: E731 - n if none
        start = np.where(found, first(hit), 0) if "f" in trim else 0
        stop = np.where(found, n - first(hit[::-1]) if "b" in trim else n, 0)
        index[d] = slice(start, stop)   # all zeros: NumPy's empty slice 0:0
    return filt[tuple(index)] if nd else filt
