"""Joining and selecting: concatenate, stack, split, where and nonzero.

Handlers serve `np.concatenate` (axis=None flattens), `np.stack`, `np.split`
and `np.array_split` (a list of results, like NumPy: views of the array, followed by
writes in place, `follow_parts`), `np.where` (one argument:
`np.nonzero`) and `np.nonzero`, whose results have unknown length.
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from .. import primitives, views
from ..abstract import broadcast_shapes, normalize_axis
from ..dispatch import implements, unsupported
from ..errors import TracingError
from ..tracer import Tracer, bind
from ._rules import aval, dtype_by_example, reject
from .shape_ops import known_size, ndim, operand


# -- concatenate, stack, split -----------------------------------------------
def _join_dims(shapes, d, error):
    known = [(i, s[d]) for i, s in enumerate(shapes) if s[d] is not None]
    for i, size in known:
        if size != known[0][1]:
            raise error(d, known[0], (i, size))
    return known[0][1] if known else None


def _concat_error(d, first, other):
    return ValueError(
        "all the input array dimensions except for the concatenation axis must match exactly, "
        f"but along dimension {d}, the array at index {first[0]} has size {first[1]} and the "
        f"array at index {other[0]} has size {other[1]}")


def _concatenate_example(*xs, **dtype):
    return np.concatenate(xs, axis=None, **dtype)


def _stack_example(*xs, **dtype):
    return np.stack(xs, **dtype)


def _concatenate_rule(*xs, axis=0, **dtype):
    if not xs:
        raise ValueError("need at least one array to concatenate")
    shapes = [x.aval.shape for x in xs]
    if axis is None:
        shapes, axis = [(known_size(s),) for s in shapes], 0
    nd = len(shapes[0])
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis(axis, nd)
    for i, s in enumerate(shapes):
        if len(s) != nd:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array at "
                f"index 0 has {nd} dimension(s) and the array at index {i} has {len(s)} "
                "dimension(s)")
    sizes = [s[axis] for s in shapes]
    out = [_join_dims(shapes, d, _concat_error) if d != axis else None for d in range(nd)]
    out[axis] = None if None in sizes else sum(sizes)
    return aval(out, dtype_by_example(_concatenate_example, xs, **dtype))


def _stack_rule(*xs, axis=0, **dtype):
    if not xs:
        raise ValueError("need at least one array to stack")
    shapes = [x.aval.shape for x in xs]
    if any(len(s) != len(shapes[0]) for s in shapes):
        raise ValueError("all input arrays must have the same shape")
    error = lambda *_: ValueError("all input arrays must have the same shape")  # noqa: E731
    out = [_join_dims(shapes, d, error) for d in range(len(shapes[0]))]
    out.insert(normalize_axis(axis, len(out) + 1), len(xs))
    return aval(out, dtype_by_example(_stack_example, xs, **dtype))


def _split_rule(x, *, indices_or_sections, axis=0):
    n, ios = x.aval.shape[axis], indices_or_sections
    if isinstance(ios, int):
        if ios <= 0:
            raise ValueError("number sections must be larger than 0.")
        if n is not None and n % ios:
            raise ValueError("array split does not result in an equal division")
        sizes = [None if n is None else n // ios] * ios
    else:
        points = [0, *ios, n]
        sizes = [None if n is None else len(range(n)[a:b]) for a, b in zip(points, points[1:])]
    shape = x.aval.shape
    return [aval(shape[:axis] + (s,) + shape[axis + 1:], x.aval.dtype) for s in sizes]


def _join_kernel(name):
    def kernel(xp, axis=0, dtype=None):
        f = functools.partial(getattr(xp, name), axis=axis,
                              **({} if dtype is None else {"dtype": dtype}))
        return lambda *arrays: f(arrays)
    return kernel


concatenate_p = primitives.define("concatenate", _concatenate_rule, _join_kernel("concatenate"))
stack_p = primitives.define("stack", _stack_rule, _join_kernel("stack"))
split_p = primitives.define(
    "split", _split_rule,
    lambda xp, indices_or_sections, axis=0: functools.partial(
        xp.split, indices_or_sections=indices_or_sections, axis=axis),
    multiple_results=True, views=True)


def _emit_split(gen, eqn, refs, outs, indent):
    """`i, f = z[:, 0:10], z[:, 10:20]`: the parts as basic slices (views, as NumPy's),
    0.14 µs each, where `np.split` costs 7 µs in Python code; the kernel where the
    dimension split in equal sections is unknown."""
    axis, ios = eqn.params["axis"], eqn.params["indices_or_sections"]
    n = eqn.inputs[0].aval.shape[axis]
    if isinstance(ios, int):
        if n is None:
            return gen.kernel_call(eqn, refs, outs, indent)
        points = [k * (n // ios) for k in range(ios + 1)]
    else:
        points = [0, *ios, None]
    lead = ":, " * axis
    parts = [f"{refs[0]}[{lead}{'' if a == 0 else a}:{'' if b is None else b}]"
             for a, b in zip(points, points[1:])]
    gen.assign(outs, ", ".join(parts) + ("," if len(parts) == 1 else ""), indent, eqn)


primitives.emitters[split_p] = _emit_split


def _join(prim, arrays, axis, extra, out, dtype, casting):
    reject({"out": out}, f"numpy.{prim.name}")
    if casting != "same_kind":
        raise unsupported(f"numpy.{prim.name}(..., casting={casting!r})")
    arrays = [operand(a) for a in arrays]
    if arrays and axis is not None:
        if ndim(arrays[0]) + extra == 0:
            raise ValueError("zero-dimensional arrays cannot be concatenated")
        axis = normalize_axis(axis, ndim(arrays[0]) + extra)
    params = {"axis": axis} | ({} if dtype is None else {"dtype": np.dtype(dtype)})
    return bind(prim, *arrays, **params)


@implements(np.concatenate, out=True)
def _concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return _join(concatenate_p, arrays, axis, 0, out, dtype, casting)


@implements(np.stack)
def _stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return _join(stack_p, arrays, axis, 1, out, dtype, casting)


@implements(np.split)
def _split(ary, indices_or_sections, axis=0):
    ary = operand(ary)
    axis = normalize_axis(axis, ndim(ary))
    if isinstance(indices_or_sections, (tuple, list, np.ndarray)):
        ios = tuple(operator.index(i) for i in indices_or_sections)
    else:
        ios = operator.index(indices_or_sections)
    return follow_parts(ary, indices_or_sections=ios, axis=axis)


def follow_parts(ary, **params) -> list:
    """`split_p`'s parts of a traced ary, each linked as a view of it (`runtime.views`):
    derived by splitting ary again, scattered by joining the parts with the written one
    in its place, so that any dimension may be unknown."""
    parts = bind(split_p, ary, **params)
    if isinstance(ary, Tracer):
        for i, part in enumerate(parts):
            if part.node.id in part.builder.shares_memory:
                views.link(part, ary, _part_view(i, params))
    return parts


def _part_view(i, params):
    def derive(base):
        return bind(split_p, base, **params)[i]

    def scatter(base, value):
        parts = bind(split_p, base, **params)
        parts[i] = value
        return bind(concatenate_p, *parts, axis=params["axis"])
    return derive, scatter, params["axis"] == 0


@implements(np.array_split)
def _array_split(ary, indices_or_sections, axis=0):
    ary = operand(ary)
    axis = normalize_axis(axis, ndim(ary))
    if isinstance(indices_or_sections, (tuple, list, np.ndarray)):
        return _split(ary, indices_or_sections, axis)
    sections, n = operator.index(indices_or_sections), ary.shape[axis]
    if sections <= 0:
        raise ValueError("number sections must be larger than 0.")
    if n is None:
        raise TracingError(
            f"np.array_split into {sections} sections along dimension {axis}, which is unknown "
            "while tracing: the piece sizes are unknown; pass a list of split indices instead")
    each, extra = divmod(n, sections)
    bounds = np.cumsum([each + 1] * extra + [each] * (sections - extra))[:-1]
    return follow_parts(ary, indices_or_sections=tuple(bounds.tolist()), axis=axis)


# -- where, nonzero ----------------------------------------------------------
def _where_rule(c, x, y):
    shape = broadcast_shapes(c.aval.shape, x.aval.shape, y.aval.shape)
    return aval(shape, dtype_by_example(np.where, [c, x, y]))


def _nonzero_rule(x):
    if x.aval.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    return [aval((None,), np.intp)] * x.aval.ndim


where_p = primitives.define("where", _where_rule, lambda xp: xp.where)
nonzero_p = primitives.define("nonzero", _nonzero_rule, lambda xp: xp.nonzero,
                              multiple_results=True)


@implements(np.where)
def _where(condition, *xy):
    if not xy:
        return _nonzero(condition)
    if len(xy) != 2:
        raise ValueError("either both or neither of x and y should be given")
    return bind(where_p, *(operand(a) for a in (condition, *xy)))


@implements(np.nonzero)
def _nonzero(a):
    return tuple(bind(nonzero_p, operand(a)))


