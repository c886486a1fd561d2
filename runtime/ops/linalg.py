"""Products: matmul, dot, tensordot, einsum, outer and inner.

Handlers serve `np.matmul` (a gufunc: `x @ y` reaches it through
`__array_ufunc__`), `np.dot`, `np.tensordot` (axes an int or a pair of
sequences, normalized to a pair of tuples of non-negative axes), `np.einsum`
(explicit or implicit output, `...`, or the interleaved operand/sublist form,
normalized to a subscripts string), `np.outer` and `np.inner`.
"""
from __future__ import annotations

import collections
import functools
import operator
import string

import numpy as np

from .. import primitives, views
from ..abstract import broadcast_shapes
from ..dispatch import implements, ufunc_handlers, unsupported
from ..tracer import Tracer, bind
from ._rules import aval, dtype_by_example, reject
from .shape_ops import fmt_shape, known_size, operand

_MATMUL = "(n?,k),(k,m?)->(n?,m?)"


def _mismatch(a, b):
    return a is not None and b is not None and a != b


def _not_aligned(sa, sb, ia, ib):
    return ValueError(f"shapes {fmt_shape(sa)} and {fmt_shape(sb)} not aligned: "
                      f"{sa[ia]} (dim {ia}) != {sb[ib]} (dim {ib})")


def _matmul_rule(a, b, **dtype):
    sa, sb = a.aval.shape, b.aval.shape
    for i, s in enumerate((sa, sb)):
        if not s:
            raise ValueError(f"matmul: Input operand {i} does not have enough dimensions (has 0, "
                             f"gufunc core with signature {_MATMUL} requires 1)")
    a2, b2 = (1,) + sa if len(sa) == 1 else sa, sb + (1,) if len(sb) == 1 else sb
    if _mismatch(a2[-1], b2[-2]):
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature {_MATMUL} (size {b2[-2]} is different from {a2[-1]})")
    shape = (broadcast_shapes(a2[:-2], b2[:-2]) + (a2[-2:-1] if len(sa) > 1 else ())
             + (b2[-1:] if len(sb) > 1 else ()))
    return aval(shape, dtype_by_example(np.matmul, [a, b], **dtype))


def _dot_rule(a, b):
    sa, sb = a.aval.shape, b.aval.shape
    if not sa or not sb:
        shape = sa or sb
    else:
        ib = 0 if len(sb) == 1 else len(sb) - 2
        if _mismatch(sa[-1], sb[ib]):
            raise _not_aligned(sa, sb, len(sa) - 1, ib)
        shape = sa[:-1] + sb[:ib] + sb[ib + 1:]
    return aval(shape, dtype_by_example(np.dot, [a, b]))


def _inner_rule(a, b):
    sa, sb = a.aval.shape, b.aval.shape
    if sa and sb and _mismatch(sa[-1], sb[-1]):
        raise _not_aligned(sa, sb, len(sa) - 1, len(sb) - 1)
    shape = (sa or sb) if not sa or not sb else sa[:-1] + sb[:-1]
    return aval(shape, dtype_by_example(np.inner, [a, b]))


def _outer_rule(a, b):
    return aval((known_size(a.aval.shape), known_size(b.aval.shape)),
                dtype_by_example(np.outer, [a, b]))


def _tensordot_rule(a, b, *, axes):
    sa, sb = a.aval.shape, b.aval.shape
    if any(_mismatch(sa[i], sb[j]) for i, j in zip(*axes)):
        raise ValueError("shape-mismatch for sum")
    shape = (tuple(d for i, d in enumerate(sa) if i not in axes[0])
             + tuple(d for j, d in enumerate(sb) if j not in axes[1]))
    return aval(shape, dtype_by_example(np.tensordot, [a, b], axes=axes))


# -- einsum ----------------------------------------------------------------------
def _einsum_term(term, shape, i):
    """Maps the letters of one operand's term to its dims; returns (dims, ellipsis dims)."""
    bad = next((c for c in term.replace("...", "") if c not in string.ascii_letters), None)
    if bad == ".":
        raise ValueError("einstein sum subscripts string contains a '.' that is not part of an "
                         f"ellipsis ('...') in operand {i}")
    if bad is not None:
        raise ValueError(f"invalid subscript '{bad}' in einstein sum subscripts string, "
                         "subscripts must be letters")
    left, _, right = term.partition("...")
    n_ell = len(shape) - len(left) - len(right)
    if n_ell < 0:
        raise ValueError(f"einstein sum subscripts string contains too many subscripts for "
                         f"operand {i}")
    if n_ell and "..." not in term:
        raise ValueError("operand has more dimensions than subscripts given in einstein sum, but "
                         "no '...' ellipsis provided to broadcast the extra dimensions.")
    dims = {}
    for c, d in zip(left + right, shape[:len(left)] + shape[len(shape) - len(right):]):
        if _mismatch(dims.get(c), d):
            raise ValueError(f"dimensions in operand {i} for collapsing index '{c}' don't match "
                             f"({dims[c]} != {d})")
        dims[c] = d if dims.get(c) is None else dims[c]
    return dims, shape[len(left):len(left) + n_ell]


def einsum_shape(subscripts: str, shapes) -> tuple:
    """The output shape of `np.einsum(subscripts, *arrays of shapes)`."""
    lhs, arrow, out = subscripts.partition("->")
    if "->" in out:
        raise ValueError("invalid subscript '-' in einstein sum subscripts string, subscripts "
                         "must be letters")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"{'more' if len(shapes) > len(terms) else 'fewer'} operands provided to "
                         "einstein sum function than specified in the subscripts string")
    sizes, ells, counts = {}, [], collections.Counter()
    for i, (term, shape) in enumerate(zip(terms, shapes)):
        dims, ell = _einsum_term(term, shape, i)
        ells.append(ell)
        counts.update(term.replace("...", ""))
        for c, d in dims.items():
            try:
                sizes[c] = broadcast_shapes((sizes.get(c, 1),), (d,))[0]
            except ValueError:
                raise ValueError("operands could not be broadcast together with remapped shapes "
                                 "[original->remapped]: " + " ".join(map(fmt_shape, shapes))
                                 ) from None
    ell = broadcast_shapes(*ells)
    if not arrow:
        return ell + tuple(sizes[c] for c in sorted(c for c in counts if counts[c] == 1))
    left, has_ell, right = out.partition("...")
    for c in left + right:
        if c not in string.ascii_letters:
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, "
                             "subscripts must be letters")
        if c not in sizes:
            raise ValueError("einstein sum subscripts string included output subscript "
                             f"'{c}' which never appeared in an input")
        if (left + right).count(c) > 1:
            raise ValueError(f"einstein sum subscripts string includes output subscript '{c}' "
                             "multiple times")
    if ell and not has_ell:
        raise ValueError("output has more dimensions than subscripts given in einstein sum, but "
                         "no '...' ellipsis provided to broadcast the extra dimensions.")
    return tuple(sizes[c] for c in left) + (ell if has_ell else ()) + tuple(
        sizes[c] for c in right)


def _einsum_example(*operands, subscripts, **kwargs):
    return np.einsum(subscripts, *operands, **kwargs)


def _einsum_rule(*operands, subscripts, optimize=False, **dtype):
    shape = einsum_shape(subscripts, [x.aval.shape for x in operands])
    return aval(shape, dtype_by_example(_einsum_example, operands, subscripts=subscripts, **dtype))


def _sublist(sub):
    letters = string.ascii_letters
    return "".join("..." if s is Ellipsis else letters[operator.index(s)] for s in sub)


# -- primitives and handlers -----------------------------------------------------
matmul_p = primitives.define(
    "matmul", _matmul_rule,
    lambda xp, dtype=None: xp.matmul if dtype is None else functools.partial(xp.matmul, dtype=dtype))
dot_p = primitives.define("dot", _dot_rule, lambda xp: xp.dot)
tensordot_p = primitives.define(
    "tensordot", _tensordot_rule, lambda xp, axes: functools.partial(xp.tensordot, axes=axes))
einsum_p = primitives.define(
    "einsum", _einsum_rule,
    lambda xp, subscripts, **kw: functools.partial(xp.einsum, subscripts, **kw))
outer_p = primitives.define("outer", _outer_rule, lambda xp: xp.outer)
inner_p = primitives.define("inner", _inner_rule, lambda xp: xp.inner)


def _matmul(ufunc, a, b, dtype=None, casting="same_kind", **kwargs):
    reject({k: v for k, v in kwargs.items() if not (k in ("order", "subok") and v in ("K", True))},
           "numpy.matmul")
    if casting != "same_kind":
        raise unsupported(f"numpy.matmul(..., casting={casting!r})")
    return bind(matmul_p, operand(a), operand(b),
                **({} if dtype is None else {"dtype": np.dtype(dtype)}))


ufunc_handlers[(np.matmul, "__call__")] = _matmul


@implements(np.dot, out=True)
def _dot(a, b, out=None):
    reject({"out": out}, "numpy.dot")
    return bind(dot_p, operand(a), operand(b))


@implements(np.inner)
def _inner(a, b):
    return bind(inner_p, operand(a), operand(b))


@implements(np.outer, out=True)
def _outer(a, b, out=None):
    reject({"out": out}, "numpy.outer")
    return bind(outer_p, operand(a), operand(b))


@implements(np.tensordot)
def _tensordot(a, b, axes=2):
    a, b = operand(a), operand(b)
    sa, sb = getattr(a, "shape", ()), getattr(b, "shape", ())
    try:
        axes_a, axes_b = axes
    except TypeError:
        n = operator.index(axes)
        axes_a, axes_b = range(-n, 0), range(n)
    axes_a, axes_b = ([operator.index(i) for i in np.atleast_1d(x).tolist()]
                      for x in (axes_a, axes_b))
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    for i, j in zip(axes_a, axes_b):  # checked in NumPy's order, with its errors
        if not (-len(sa) <= i < len(sa) and -len(sb) <= j < len(sb)):
            raise IndexError(f"tensordot: axes {i} and {j} do not fit operands of shapes "
                             f"{fmt_shape(sa)} and {fmt_shape(sb)}")
        if _mismatch(sa[i], sb[j]):
            raise ValueError("shape-mismatch for sum")
    axes = (tuple(i % len(sa) for i in axes_a), tuple(j % len(sb) for j in axes_b))
    return bind(tensordot_p, a, b, axes=axes)


@implements(np.einsum)
def _einsum(*operands, out=None, optimize=False, dtype=None, order="K", casting="safe"):
    reject({"out": out}, "numpy.einsum")
    if order != "K" or casting != "safe":
        raise unsupported("numpy.einsum(..., order=/casting=...)")
    if not isinstance(optimize, (bool, str)):
        raise unsupported("numpy.einsum(..., optimize=<an explicit path>)")
    if operands and isinstance(operands[0], str):
        subscripts, arrays = operands[0].replace(" ", ""), operands[1:]
    else:  # interleaved: a, [0, 1], b, [1, 2], [0, 2]
        arrays = operands[0::2][:len(operands) // 2]
        subscripts = ",".join(_sublist(s) for s in operands[1::2][:len(arrays)])
        if len(operands) % 2:
            subscripts += "->" + _sublist(operands[-1])
    params = {"subscripts": subscripts} | ({"optimize": optimize} if optimize else {})
    params |= {} if dtype is None else {"dtype": np.dtype(dtype)}
    result = bind(einsum_p, *(operand(x) for x in arrays), **params)
    if len(arrays) == 1 and isinstance(arrays[0], Tracer) and _views(params, arrays[0]):
        views.link(result, arrays[0], None)   # a write to either: refused, not missed
    return result


def _views(params, x) -> bool:
    """Whether NumPy's einsum of the one array x returns a view of it (`ii->i`, `ij->ji`:
    nothing summed), as NumPy answers for an array of x's dtype and shape."""
    example = np.broadcast_to(np.zeros((), x.dtype), tuple(2 if d is None else d for d in x.shape))
    try:
        return np.shares_memory(np.einsum(params["subscripts"], example, **{
            k: v for k, v in params.items() if k != "subscripts"}), example)
    except Exception:   # noqa: BLE001 - unknown dims that do not fit the subscripts: a copy
        return False
