"""Arrays whose sizes are known only when the graph runs: `np.arange(n)`, `np.zeros(k)`, ...

`np.arange`, `np.zeros`, `np.ones`, `np.empty`, `np.full`, `np.linspace` and `np.eye`
never dispatch to a traced size (NumPy asks for `int(k)` first), so converted code
stages them through `ops.staged_calls`, which calls `staged` here while a graph
is traced: where a size is a traced 0-d integer, the result has an unknown (`None`)
dimension, which the rest of the graph and staged loops accept. Four primitives:

- `full` (operands: fill value, then the traced dims; params `shape`, known ints
  and `Dyn(k)` for the k-th traced dim, and `dtype`): `np.full`, and `zeros`,
  `ones` and `empty` (zeros: its contents are unspecified) with a constant fill;
- `arange` (operands start, stop, step; param `dtype`, NumPy's result dtype);
- `linspace` (operands start, stop, num; params `endpoint`, `axis`, `dtype`);
- `eye` (operands N, M; params `k`, `dtype`).

Their kernels compute sizes on the host (`operator.index` of the traced size);
`arange`, `linspace` and `eye` compute on the host with NumPy and move the result
to the backend. A negative size is NumPy's own `ValueError` when the graph runs;
a traced size that is not an integer is NumPy's `TypeError` while tracing.
Gradients (`autodiff/rules_sizes.py`): `full`'s fill value gets the summed
cotangent; `linspace`'s 0-d start and stop get theirs; `arange` and `eye` have none.

`np.flatnonzero` and `np.argwhere` are written with `np.nonzero`, as NumPy writes them.

>>> import autograph as ag
>>> @ag.convert
... def count_up(n):
...     return np.arange(n) * 2
>>> count_up(np.int64(4))
array([0, 2, 4, 6])
"""
from __future__ import annotations

import operator

import numpy as np

from .. import primitives
from ..abstract import AbstractValue, broadcast_shapes, python_example
from ..dispatch import implements
from ..errors import TracingError
from ..ir import Literal
from ..tracer import bind, current_builder
from ..tracer_value import Tracer
from .indexing import Dyn


def _host(x):
    return x if isinstance(x, np.ndarray) or not hasattr(x, "get") else x.get()


def _index(x) -> int:
    return operator.index(_host(x))


def _example(x):
    """A value of `x`'s type (a traced one's), to ask NumPy for a result dtype."""
    if isinstance(x, Tracer):
        return python_example(x.aval) if x.aval.weak else np.zeros(x.aval.shape, x.aval.dtype) \
            if None not in x.aval.shape else np.zeros((1,) * x.ndim, x.aval.dtype)
    return x


def _known(atom):
    """A size's value where it is a constant (a `Literal`), else None (unknown)."""
    return operator.index(atom.value) if isinstance(atom, Literal) else None


def _check_size(d, what="a size"):
    """A traced size must be a 0-d integer (NumPy's TypeError otherwise)."""
    if d.ndim != 0 or d.aval.dtype.kind not in "iu":
        raise TypeError(f"'{d.aval}' object cannot be interpreted as an integer "
                        f"({what} must be a 0-d integer)")
    return d


# -- full: zeros, ones, empty, full ------------------------------------------------

def _full_rule(fill, *dims, shape, dtype):
    return AbstractValue(tuple(None if isinstance(d, Dyn) else d for d in shape), dtype)


def _full_kernel(xp, shape, dtype):
    def run(fill, *dims):
        return xp.full(tuple(_index(dims[d.k]) if isinstance(d, Dyn) else d for d in shape),
                       fill, dtype=dtype)
    return run


full_p = primitives.define("full", _full_rule, _full_kernel)


def full(shape, fill_value, dtype=None):
    """`np.full(shape, fill_value, dtype)` with traced sizes in `shape` (or a traced fill)."""
    dims = []
    entries = shape if isinstance(shape, (tuple, list)) else (shape,)
    template = []
    for d in entries:
        if isinstance(d, Tracer):
            template.append(Dyn(len(dims)))
            dims.append(_check_size(d))
        else:
            template.append(operator.index(d))
    if dtype is None:
        dtype = np.array(_example(fill_value)).dtype
    return bind(full_p, fill_value, *dims, shape=tuple(template), dtype=np.dtype(dtype))


# -- arange --------------------------------------------------------------------------

def _arange_rule(start, stop, step, *, dtype):
    return AbstractValue((None,), dtype)


def _arange_kernel(xp, dtype):
    def run(start, stop, step):
        return xp.asarray(np.arange(_host(start), _host(stop), _host(step), dtype=dtype))
    return run


arange_p = primitives.define("arange", _arange_rule, _arange_kernel)


def arange(*args, dtype=None, **kwargs):
    """`np.arange(stop)`, `np.arange(start, stop[, step])` with traced bounds."""
    names = ("start", "stop", "step")
    given = dict(zip(("stop",) if len(args) == 1 else names, args), **kwargs)
    if "start" in given and "stop" not in given:
        given["stop"], given["start"] = given.pop("start"), 0
    start, stop, step = given.get("start", 0), given["stop"], given.get("step", 1)
    for x in (start, stop, step):
        if isinstance(x, Tracer) and x.ndim:
            raise ValueError("arange: the bounds and step must be scalars (0-d)")
    probe = np.arange(*(_example(x) for x in (start, stop)), 1 if step is None else
                      _example(step) or 1, dtype=dtype)
    return bind(arange_p, start, stop, 1 if step is None else step, dtype=probe.dtype)


# -- linspace ------------------------------------------------------------------------

def _linspace_rule(start, stop, num, *, endpoint, axis, dtype):
    shape = list(broadcast_shapes(start.aval.shape, stop.aval.shape))
    shape.insert(axis if axis >= 0 else len(shape) + axis + 1, _known(num))
    return AbstractValue(tuple(shape), dtype)


def _linspace_kernel(xp, endpoint, axis, dtype):
    def run(start, stop, num):
        return xp.asarray(np.linspace(_host(start), _host(stop), _index(num),
                                      endpoint=endpoint, dtype=dtype, axis=axis))
    return run


linspace_p = primitives.define("linspace", _linspace_rule, _linspace_kernel)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0,
             *, device=None):
    """`np.linspace` with a traced `num` (or traced `start`/`stop`)."""
    if retstep:
        raise TracingError("np.linspace(..., retstep=True) with a traced num is not "
                           "supported; compute the step as (stop - start) / (num - 1)")
    if device not in (None, "cpu"):
        raise TracingError(f"np.linspace(..., device={device!r}) is not supported")
    if isinstance(num, Tracer):
        _check_size(num, "num")
    probe = np.linspace(_example(start), _example(stop),
                        2 if isinstance(num, Tracer) else operator.index(num), endpoint=endpoint, dtype=dtype,
                        axis=axis)
    return bind(linspace_p, start, stop, num, endpoint=bool(endpoint), axis=int(axis),
                dtype=probe.dtype)


# -- eye -------------------------------------------------------------------------------

def _eye_rule(n, m, *, k, dtype):
    return AbstractValue(tuple(_known(d) for d in (n, m)), dtype)


def _eye_kernel(xp, k, dtype):
    def run(n, m):
        return xp.asarray(np.eye(_index(n), _index(m), k=k, dtype=dtype))
    return run


eye_p = primitives.define("eye", _eye_rule, _eye_kernel)


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """`np.eye` with a traced `N` (or `M`)."""
    for d in (N, M):
        if isinstance(d, Tracer):
            _check_size(d)
    return bind(eye_p, N, N if M is None else M, k=operator.index(k), dtype=np.dtype(dtype))


# -- staging: which calls have a traced size ------------------------------------------

def _zeros(shape, dtype=float, order="C", *, device=None, like=None):
    return full(shape, np.zeros((), dtype), dtype)


def _ones(shape, dtype=float, order="C", *, device=None, like=None):
    return full(shape, np.ones((), dtype), dtype)


def _full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    return full(shape, fill_value, dtype)


def _arange(*args, dtype=None, device=None, like=None, **kwargs):
    return arange(*args, dtype=dtype, **kwargs)


STAGED = {np.zeros: _zeros, np.ones: _ones, np.empty: _zeros, np.full: _full,
          np.arange: _arange, np.linspace: linspace, np.eye: eye}


def _traced(values) -> bool:
    return any(isinstance(v, Tracer) or (isinstance(v, (tuple, list)) and _traced(v))
               for v in values)


def staged(f, args, kwargs):
    """The staged call of `f` where it has a traced argument, or NotImplemented."""
    try:
        handler = STAGED.get(f)
    except TypeError:  # an unhashable callable
        return NotImplemented
    if handler is None or current_builder() is None or not _traced((*args, *kwargs.values())):
        return NotImplemented
    return handler(*args, **kwargs)


# -- indices of nonzero elements ------------------------------------------------------

@implements(np.flatnonzero)
def _flatnonzero(a):
    return np.nonzero(np.ravel(a))[0]


@implements(np.argwhere)
def _argwhere(a):
    if np.ndim(a) == 0:  # as NumPy: a 0-d array is treated as 1-d, with no columns
        return _argwhere(np.atleast_1d(a))[:, :0]
    return np.stack(np.nonzero(a), axis=-1)
