"""Indexing: basic (ints, slices, None, Ellipsis), integer-array and boolean-mask.

`x[index]` becomes one `getitem` equation. Its `index` param is a static
template; traced parts of the index (arrays, scalar ints, slice bounds) are
extra operands that the template refers to as `Dyn(k)`. A boolean mask gives
an unknown dimension (its count of True values is known only at run time).

>>> getitem_shape((3, None, 5), (slice(None), 0, Dyn(0)), [((2,), "int")])
(3, 2)
>>> getitem_shape((3, None, 5), (0, slice(None), Dyn(0)), [((2,), "int")])  # split: first
(2, None)
"""
from __future__ import annotations

import operator
from typing import NamedTuple

import numpy as np

from .. import primitives
from ..abstract import broadcast_shapes, normalize_axis
from ..dispatch import implements
from ..source import called_by_user
from ..tracer import Tracer, bind, read_if_variable
from ..tracer_value import tracer_method, zero_d_array
from ._rules import aval, reject
from .introspection import dynamic_shape
from .shape_ops import fmt_shape


class Dyn(NamedTuple):
    """The k-th dynamic operand of an index template."""

    k: int


def _is_array_like(entry) -> bool:
    return isinstance(entry, (Tracer, np.ndarray, list))


def _template(index) -> tuple[tuple, list]:
    """Splits an index into a hashable template and its dynamic operands."""
    operands: list = []

    def dyn(value):
        operands.append(value)
        return Dyn(len(operands) - 1)

    def part(entry) -> list:
        if entry is None or entry is Ellipsis:
            return [entry]
        if isinstance(entry, slice):
            return [slice(*(_bound(c, dyn) for c in (entry.start, entry.stop, entry.step)))]
        if isinstance(entry, (bool, np.bool_)):
            return [dyn(np.asarray(entry))]
        if isinstance(entry, (int, np.integer)):
            return [operator.index(entry)]
        if isinstance(entry, (list, tuple, range)):   # a sequence: NumPy's index array
            entry = np.asarray(entry)
            entry = entry if entry.size else entry.astype(np.intp)  # NumPy's x[[]]
        if isinstance(entry, np.ndarray) and entry.dtype == bool and entry.ndim:
            return [dyn(i) for i in np.nonzero(entry)]  # a known mask: its indices
        if isinstance(entry, (Tracer, np.ndarray)):
            return [dyn(entry)]
        raise IndexError(
            "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
            f"integer or boolean arrays are valid indices (got {type(entry).__name__})")

    entries = index if isinstance(index, tuple) else (index,)
    template = [part_ for entry in entries for part_ in part(entry)]
    return tuple(template), operands


def _bound(c, dyn):
    """A slice bound: None, an int, or an integer scalar operand (as NumPy accepts)."""
    if c is None or isinstance(c, int):
        return c
    if isinstance(c, np.integer):
        return int(c)
    if isinstance(c, (Tracer, np.ndarray)) and c.ndim == 0 and c.dtype.kind in "iu":
        return dyn(c)
    raise TypeError("slice indices must be integers or None or have an __index__ method")


def getitem_shape(shape, template, dyn_types):
    """The result shape of indexing `shape` with `template`.

    `dyn_types[k]` is `(shape, kind)` of operand k, kind "int" or "bool".
    """
    def consumed(entry):
        if entry is None or entry is Ellipsis:
            return 0
        if isinstance(entry, Dyn) and dyn_types[entry.k][1] == "bool":
            return len(dyn_types[entry.k][0])
        return 1

    used = sum(consumed(e) for e in template)
    if used > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but {used} were indexed")
    if template.count(Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if Ellipsis in template:
        i = template.index(Ellipsis)
        fill = (slice(None),) * (len(shape) - used) or (Ellipsis,)  # an empty `...` stays:
        template = template[:i] + fill + template[i + 1:]           # it separates indices
    else:
        template = template + (slice(None),) * (len(shape) - used)

    advanced = any(isinstance(e, Dyn) and (dyn_types[e.k][0] or dyn_types[e.k][1] == "bool")
                   for e in template)
    out, adv_shapes, adv_at, dim, last_adv = [], [], None, 0, None
    for pos, entry in enumerate(template):
        if entry is None:
            out.append(1)
            continue
        if entry is Ellipsis:
            continue
        is_adv = isinstance(entry, Dyn) or (advanced and isinstance(entry, int))
        if not is_adv:
            n = shape[dim]
            if isinstance(entry, int):
                if n is not None and not -n <= entry < n:
                    raise IndexError(f"index {entry} is out of bounds for axis {dim} "
                                     f"with size {n}")
            elif isinstance(entry, slice):
                static = all(c is None or isinstance(c, int) for c in
                             (entry.start, entry.stop, entry.step))
                if entry == slice(None) or (static and n is not None):
                    out.append(n if n is None else len(range(*entry.indices(n))))
                else:
                    out.append(None)
            dim += 1
            continue
        if isinstance(entry, int):
            adv_shapes.append(())
            n_dims = 1
        else:
            d_shape, kind = dyn_types[entry.k]
            n_dims = len(d_shape) if kind == "bool" else 1
            if kind == "bool":
                _check_mask(d_shape, shape[dim:dim + n_dims], dim)
                adv_shapes.append((None,))
            else:
                adv_shapes.append(d_shape)
        if adv_at is None:
            adv_at = len(out)
        elif last_adv != pos - 1:
            adv_at = 0  # advanced indices separated by a slice go first, as in NumPy
        last_adv = pos
        dim += n_dims
    if adv_at is None:
        return tuple(out)
    try:
        adv = broadcast_shapes(*adv_shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {' '.join(map(fmt_shape, adv_shapes))}") from None
    return tuple(out[:adv_at]) + adv + tuple(out[adv_at:])


def _check_mask(mask_shape, dims, first_dim):
    for i, (m, n) in enumerate(zip(mask_shape, dims)):
        if m is not None and n is not None and m != n:
            raise IndexError(f"boolean index did not match indexed array along axis "
                             f"{first_dim + i}; size of axis is {n} but size of "
                             f"corresponding boolean axis is {m}")


def _kind(av):
    if av.dtype == bool:
        return "bool"
    if av.dtype.kind in "iu":
        return "int"
    raise IndexError("arrays used as indices must be of integer (or boolean) type")


def _abstract_eval(x, *dyn, index):
    types = [(a.aval.shape, _kind(a.aval)) for a in dyn]
    return aval(getitem_shape(x.aval.shape, index, types), x.aval.dtype)


def _fill(template, values):
    def one(entry):
        if isinstance(entry, Dyn):
            return values[entry.k]
        if isinstance(entry, slice):
            return slice(*(one(c) for c in (entry.start, entry.stop, entry.step)))
        return entry
    return tuple(one(e) for e in template)


def _kernel(xp, index):
    if not any(isinstance(e, Dyn) or isinstance(e, slice) and any(
            isinstance(c, Dyn) for c in (e.start, e.stop, e.step)) for e in index):
        return operator.itemgetter(index)
    return lambda x, *values: x[_fill(index, values)]


getitem_p = primitives.define("getitem", _abstract_eval, _kernel, views=True)


def index_source(template, refs) -> str | None:
    """The index `template` as Python source, its `Dyn(k)` operands named by `refs`
    (`x[t0, 1:n_2]`); None where an entry is not an int, a slice, None or `...`."""
    def one(entry):
        if isinstance(entry, Dyn):
            return refs[entry.k]
        if entry is None or type(entry) is int:
            return repr(entry)
        raise LookupError(entry)

    def part(entry):
        if entry is Ellipsis:
            return "..."
        if isinstance(entry, slice):
            bounds = ["" if c is None else one(c) for c in (entry.start, entry.stop, entry.step)]
            return ":".join(bounds[:2]) + (f":{bounds[2]}" if bounds[2] else "")
        return one(entry)
    try:
        parts = [part(e) for e in template]
    except LookupError:
        return None
    return "()" if not parts else parts[0] if len(parts) == 1 else ", ".join(parts)


def _emit_getitem(gen, eqn, refs, outs, indent):
    """`x = xs[t0]`: Python's subscript, 0.13 µs, where calling the kernel costs 1 µs."""
    index = index_source(eqn.params["index"], refs[1:])
    if index is None or not gen.backend.inline_operators:
        return gen.kernel_call(eqn, refs, outs, indent)
    gen.assign(outs, f"{refs[0]}[{index}]", indent, eqn)


primitives.emitters[getitem_p] = _emit_getitem


@tracer_method("__getitem__")
def getitem(x, index):
    """`x[index]` for a traced `x` (or a traced index)."""
    index = tuple(map(read_if_variable, index)) if isinstance(index, tuple) \
        else read_if_variable(index)
    template, operands = _template(index)
    result = bind(getitem_p, x, *operands, index=template)
    if Ellipsis in template and not result.ndim and called_by_user(1):
        return zero_d_array(result, (x,))   # `x[..., 0]`: NumPy's 0-d view, not a scalar
    return result


@implements(np.take, out=True)
def take(a, indices, axis=None, out=None, mode="raise"):
    """`np.take` with a traced array or indices; `mode="wrap"` takes indices modulo the
    axis's length, `mode="clip"` clips them into it (a negative one to 0), as NumPy does."""
    reject({"out": out}, "numpy.take")
    if mode not in (None, "raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    if axis is None:
        a, axis = np.ravel(a), 0
    if not isinstance(a, Tracer):
        a = np.asarray(a)
    axis = normalize_axis(axis, a.ndim)
    if mode in ("wrap", "clip"):
        n = dynamic_shape(a)[axis]
        indices = indices if isinstance(indices, Tracer) else np.asarray(indices)
        if not isinstance(n, Tracer) and n == 0 and indices.size != 0:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        indices = np.mod(indices, n) if mode == "wrap" else np.clip(indices, 0, n - 1)
    return getitem(a, (slice(None),) * axis + (indices,))
