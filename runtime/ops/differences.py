"""Differences and signals: diff, ediff1d, gradient (composed of slices, so they
have gradients and take unknown dimensions), and the primitives convolve,
correlate and interp (NumPy's kernels; their rules are in
`autodiff/rules_statistics.py`).

`diff(a, n, axis, prepend, append)` is NumPy's own algorithm: `n` times
`a[1:] - a[:-1]` along `axis` (`!=` for booleans) after joining `prepend` and
`append`. `gradient(f, *spacing, axis, edge_order)` takes scalar spacings
(one, or one per axis) and edge order 1 or 2, computed as NumPy computes them
(integers in float64), with a `(edge_order + 1)`-element minimum that unknown
dimensions check when the graph runs (`require_length`, the identity on arrays
long enough, NumPy's `ValueError` on others). Params:
convolve and correlate `mode` ("full", "same", "valid"); interp `left`,
`right` (Python numbers or None) and `period`.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import primitives
from ..abstract import normalize_axis, normalize_axes
from ..dispatch import implements, unsupported
from ..tracer import Tracer, bind
from ._rules import aval, dtype_by_example
from .shape_ops import ndim, operand


# -- diff, ediff1d -----------------------------------------------------------------
def _along(nd, axis, index):
    return (slice(None),) * axis + (index,) + (slice(None),) * (nd - axis - 1)


def _edge(value, a, axis):
    """A prepend/append value as NumPy joins it: a scalar broadcast to one slice of `a`."""
    value = operand(value)
    if ndim(value) != 0:
        return value
    if isinstance(value, (int, float, complex, bool)):
        value = np.asarray(value)
    first = a[_along(a.ndim, axis, slice(0, 1))]
    if None not in first.shape:
        return np.broadcast_to(value, first.shape)
    return np.zeros_like(first, dtype=value.dtype) + value


@implements(np.diff)
def _diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    a = operand(a)
    if ndim(a) == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    if n == 0:
        return a
    axis = normalize_axis(axis, ndim(a))
    if prepend is not np._NoValue or append is not np._NoValue:
        parts = [_edge(prepend, a, axis)] if prepend is not np._NoValue else []
        parts.append(a)
        if append is not np._NoValue:
            parts.append(_edge(append, a, axis))
        a = np.concatenate(parts, axis=axis)
    op = np.not_equal if a.dtype == np.bool_ else np.subtract
    upper, lower = _along(a.ndim, axis, slice(1, None)), _along(a.ndim, axis, slice(None, -1))
    for _ in range(n):
        a = op(a[upper], a[lower])
    return a


@implements(np.ediff1d)
def _ediff1d(ary, to_end=None, to_begin=None):
    ary = np.ravel(operand(ary))
    dtype = ary.dtype
    if to_begin is None and to_end is None:
        return ary[1:] - ary[:-1]
    parts = []
    for edge, name in ((to_begin, "to_begin"), (to_end, "to_end")):
        if edge is None:
            parts.append(None)
            continue
        edge = operand(edge)
        edge_dtype = edge.dtype if hasattr(edge, "dtype") else np.asarray(edge).dtype
        if not np.can_cast(edge_dtype, dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under "
                            "the `same_kind` rule.")
        parts.append(np.ravel(edge))
    body = [ary[1:] - ary[:-1]]
    joined = [p for p in (parts[0], *body, parts[1]) if p is not None]
    return np.concatenate([np.astype(p, dtype) for p in joined])


# -- gradient ----------------------------------------------------------------------
def _one_gradient(f, axis, dx, edge_order, otype):
    nd = f.ndim

    def at(index):
        return f[_along(nd, axis, index)]
    interior = (at(slice(2, None)) - at(slice(None, -2))) / (2. * dx)
    if edge_order == 1:
        first = (at(slice(1, 2)) - at(slice(0, 1))) / dx
        last = (at(slice(-1, None)) - at(slice(-2, -1))) / dx
    else:
        a, b, c = -1.5 / dx, 2. / dx, -0.5 / dx
        first = a * at(slice(0, 1)) + b * at(slice(1, 2)) + c * at(slice(2, 3))
        a, b, c = 0.5 / dx, -2. / dx, 1.5 / dx
        last = a * at(slice(-3, -2)) + b * at(slice(-2, -1)) + c * at(slice(-1, None))
    parts = [np.astype(p, otype) for p in (first, interior, last)]
    return np.concatenate(parts, axis=axis)


_TOO_SMALL = ("Shape of array too small to calculate a numerical gradient, at least "
              "(edge_order + 1) elements are required.")


def _require_length_kernel(xp, axis, minimum):
    def check(x):
        if x.shape[axis] < minimum:
            raise ValueError(_TOO_SMALL)
        return x
    return check


require_length_p = primitives.define(
    "require_length", lambda x, *, axis, minimum: x.aval, _require_length_kernel)


@implements(np.gradient)
def _gradient(f, *varargs, axis=None, edge_order=1):
    f = operand(f)
    nd = ndim(f)
    axes = tuple(range(nd)) if axis is None else normalize_axes(axis, nd)
    if axis is not None and len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    if len(varargs) == 0:
        dx = [1.0] * len(axes)
    elif len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        dx = list(varargs) * len(axes)
    elif len(varargs) == len(axes):
        dx = list(varargs)
    else:
        raise TypeError("invalid number of arguments")
    if any(np.ndim(d) != 0 for d in dx):
        raise unsupported("numpy.gradient with coordinate arrays as spacing")
    dx = [d if isinstance(d, Tracer) else np.asarray(d)[()] if isinstance(d, np.ndarray)
          else d for d in dx]
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if np.issubdtype(otype, np.integer):
        f, otype = np.astype(f, np.float64), np.dtype(np.float64)
    outs = []
    for ax, d in zip(axes, dx):
        if f.shape[ax] is not None and f.shape[ax] < edge_order + 1:
            raise ValueError(_TOO_SMALL)
        checked = f if f.shape[ax] is not None else bind(
            require_length_p, f, axis=ax, minimum=edge_order + 1)  # checked when it runs
        outs.append(_one_gradient(checked, ax, d, edge_order, otype))
    return outs[0] if len(axes) == 1 else tuple(outs)


# -- convolve, correlate -----------------------------------------------------------
_MODES = ("full", "same", "valid")


def _signal_rule(name):
    numpy_fn = getattr(np, name)

    def rule(a, v, *, mode="full"):
        for x in (a, v):
            if x.aval.ndim != 1:
                raise ValueError("object too deep for desired array" if x.aval.ndim > 1
                                 else "object of too small depth for desired array")
        na, nv = a.aval.shape[0], v.aval.shape[0]
        if 0 in (na, nv):
            raise ValueError(f"{'a' if na == 0 else 'v'} cannot be empty")
        if None in (na, nv):
            size = None
        else:
            size = {"full": na + nv - 1, "same": max(na, nv), "valid": max(na, nv) -
                    min(na, nv) + 1}[mode]
        return aval((size,), dtype_by_example(numpy_fn, [a, v]))
    return rule


def _signal_kernel(name):
    return lambda xp, mode="full": lambda a, v: getattr(xp, name)(a, v, mode=mode)


convolve_p = primitives.define("convolve", _signal_rule("convolve"), _signal_kernel("convolve"))
correlate_p = primitives.define("correlate", _signal_rule("correlate"),
                                _signal_kernel("correlate"))


def _signal(prim, default_mode):
    def handler(a, v, mode=default_mode):
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {list(_MODES)}, got {mode!r}")
        return bind(prim, np.ravel(operand(a)) if ndim(a) == 0 else operand(a),
                    np.ravel(operand(v)) if ndim(v) == 0 else operand(v), mode=mode)
    return handler


implements(np.convolve)(_signal(convolve_p, "full"))
implements(np.correlate)(_signal(correlate_p, "valid"))


# -- interp ------------------------------------------------------------------------
def _interp_rule(x, xp, fp, *, left=None, right=None, period=None):
    if xp.aval.ndim != 1 or fp.aval.ndim != 1:
        raise ValueError("object too deep for desired array")
    if xp.aval.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if None not in (xp.aval.shape[0], fp.aval.shape[0]) and xp.aval.shape != fp.aval.shape:
        raise ValueError("fp and xp are not of the same length.")
    dtype = np.complex128 if fp.aval.dtype.kind == "c" else np.float64
    return aval(x.aval.shape, dtype)


def _interp_kernel(xp, left=None, right=None, period=None):
    return lambda x, xs, fs: xp.interp(x, xs, fs, left=left, right=right, period=period)


interp_p = primitives.define("interp", _interp_rule, _interp_kernel)


def _static_number(value, name):
    if value is None:
        return None
    if isinstance(value, Tracer):
        raise unsupported(f"numpy.interp(..., {name}=<traced>)")
    value = np.asarray(value)[()]
    return complex(value) if np.iscomplexobj(value) else float(value)


@implements(np.interp)
def _interp(x, xp, fp, left=None, right=None, period=None):
    if period is not None:
        period = _static_number(period, "period")
        if period == 0:
            raise ValueError("period must be a non-zero value")
    return bind(interp_p, operand(x), operand(xp), operand(fp),
                left=_static_number(left, "left"), right=_static_number(right, "right"),
                period=None if period is None else abs(period))
