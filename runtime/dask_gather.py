"""What has no chunked form on Dask: NumPy's kernel block by block, or on one chunk, guarded.

`gathered(...)` is the kernel `DaskBackend.eqn_kernel` gives a primitive of
`backend.DASK_ONE_CHUNK`, and the one `chunked` falls back to where dask.array's
kernel fails. Where `backend.DASK_WHOLE_AXES` has a rule for the primitive, only
the axes its kernel needs are rechunked into one chunk and NumPy's kernel runs
on each block (`dask.array.apply_gufunc`): the other axes keep their chunks.
Else each operand is gathered into one chunk and the kernel runs as one task.

Before either, the largest block each operand would make is checked against
the device's `max_gather` (bytes; None: no limit): beyond it, `DaskGatherError`
names the primitive, the operand, the limit, the user's line and the ways out,
and nothing is computed. Sizes a mask left unknown are computed first. A
`OneChunkWarning` says, once per equation, where an operand of several chunks
is gathered into one; an operand in one chunk already, or one rechunked along
some axes only, gives none.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from . import primitives
from .abstract import AbstractValue
from .backend import DASK_WHOLE_AXES
from .dask_arrays import is_dask_array
from .errors import DaskGatherError
from .ir import Var


class OneChunkWarning(UserWarning):
    """dask.array has no chunked form for a primitive: NumPy's kernel ran on an operand of
    several chunks gathered into one."""


def gathered(numpy_kernel, prim, params: dict, avals: list, source, backend):
    """The kernel of an equation with no chunked form on Dask (see the module docstring);
    `run(*operands, why=error)` where dask.array's own kernel raised `error`."""
    rule = DASK_WHOLE_AXES.get(prim)
    warned = []

    def run(*operands, why=None):
        if not any(is_dask_array(x) for x in operands):
            return numpy_kernel(*operands)   # host values: as on NumPy
        operands = [x.compute_chunk_sizes() if is_dask_array(x) and any(
            n != n for n in x.shape) else x for x in operands]
        plan = None if rule is None else _plan(rule, prim, params, operands, avals)
        whole = plan[0] if plan else [tuple(range(np.ndim(x))) for x in operands]
        _guard(prim, source, operands, whole, backend.max_gather)
        several = [k for k, (x, axes) in enumerate(zip(operands, whole)) if is_dask_array(x)
                   and x.npartitions > 1 and len(axes) == x.ndim]
        if several and not warned:
            warned.append(True)
            warnings.warn(_warning(prim, source, several, why), OneChunkWarning, stacklevel=2)
        if plan:
            return by_blocks(numpy_kernel, operands, *plan, prim.multiple_results, backend.xp)
        return one_chunk(numpy_kernel, avals, prim.multiple_results, backend.xp)(*operands)
    return run


def _plan(rule, prim, params, operands, avals):
    """The rule's axes, non-negative (each operand's, each result's), and the results'
    types, or None where the kernel needs every axis or a result's length along its axes
    is unknown."""
    ndims = [np.ndim(x) for x in operands]
    plan = rule(params, ndims)
    if plan is None:
        return None
    ins = [tuple(a % n for a in axes) for axes, n in zip(plan[0], ndims)]
    outs = [tuple(a % len(v.shape) for a in axes) for axes, v in zip(plan[1], avals)]
    if any(v.shape[a] is None for axes, v in zip(outs, avals) for a in axes):
        avals = _known_avals(prim, params, operands, avals)
        if avals is None:
            return None
    return ins, outs, avals


def _known_avals(prim, params, operands, avals):
    """The results' types with the lengths the graph left unknown: the shape rule on the
    operands' shapes as they are now (None where it refuses them)."""
    atoms = [Var(AbstractValue(np.shape(x), x.dtype if hasattr(x, "dtype")   # never computed
                               else np.result_type(x))) for x in operands]
    try:
        known = primitives.abstract_eval[prim](*atoms, **params)
    except Exception:
        return None
    known = known if prim.multiple_results else [known]
    if any(None in v.shape for v in known):
        return None
    return [AbstractValue(k.shape, v.dtype, v.weak) for k, v in zip(known, avals)]


def by_blocks(kernel, operands, ins, outs, avals, multiple: bool, xp):
    """NumPy's `kernel` on each block of `operands` rechunked whole along the axes `ins`
    (one tuple an operand); the results' axes `outs` are the kernel's, the rest follow
    the operands' other axes, with their chunks."""
    operands = _aligned([x.rechunk({a: -1 for a in axes}) if is_dask_array(x) and axes else x
                         for x, axes in zip(operands, ins)], ins)
    names_in = [[f"i{k}_{j}" for j in range(len(axes))] for k, axes in enumerate(ins)]
    names_out = [[f"o{k}_{j}" for j in range(len(axes))] for k, axes in enumerate(outs)]
    signature = (",".join(f"({','.join(n)})" for n in names_in) + "->"
                 + ",".join(f"({','.join(n)})" for n in names_out))
    sizes = {name: v.shape[a] for names, axes, v in zip(names_out, outs, avals)
             for name, a in zip(names, axes)}
    one = len(avals) == 1

    def block(*blocks):   # apply_gufunc moves the axes `ins` last: back, and `outs` last
        blocks = [np.moveaxis(b, range(-len(axes), 0), axes) for b, axes in zip(blocks, ins)]
        results = kernel(*blocks)
        results = results if multiple else (results,)
        results = [np.moveaxis(np.asarray(r), axes, range(-len(axes), 0))
                   for r, axes in zip(results, outs)]
        return results[0] if one else tuple(results)

    metas = [np.empty((0,) * len(v.shape), v.dtype) for v in avals]   # the results' types
    out = xp.apply_gufunc(block, signature, *operands, axes=[*ins, *outs],
                          meta=metas[0] if one else tuple(metas), output_sizes=sizes,
                          allow_rechunk=False)
    if not multiple:
        return out
    return [out] if one else list(out)


def _aligned(operands, ins):
    """`operands` with the chunks of their other axes (aligned from the last, as NumPy
    broadcasts) made the first's, where two of length above 1 differ (`solve(a, b)` of
    stacks chunked otherwise)."""
    loops = [[a for a in range(np.ndim(x)) if a not in axes] for x, axes in zip(operands, ins)]
    first = {}   # loop axis counted from the last -> chunks
    out = []
    for x, axes in zip(operands, loops):
        if not is_dask_array(x):
            out.append(x)
            continue
        change = {}
        for back, a in enumerate(reversed(axes)):
            if x.shape[a] > 1:
                chunks = first.setdefault(back, x.chunks[a])
                if chunks != x.chunks[a]:
                    change[a] = chunks
        out.append(x.rechunk(change) if change else x)
    return out


def one_chunk(kernel, avals, multiple: bool, xp):
    """NumPy's `kernel` run as one task on whole operands (each Dask array gathered into
    one chunk); its results are Dask arrays of one chunk (of unknown size where the
    graph does not know it)."""
    def run(*operands):
        if not any(is_dask_array(x) for x in operands):
            return kernel(*operands)   # host values: as on NumPy
        task = xp.delayed(kernel, nout=len(avals) if multiple else None, pure=True)(*operands)
        parts = [task[i] for i in range(len(avals))] if multiple else [task]
        out = [xp.from_delayed(part, shape=tuple(np.nan if d is None else d for d in a.shape),
                               dtype=a.dtype) for part, a in zip(parts, avals)]
        return out if multiple else out[0]
    return run


def _guard(prim, source, operands, whole, limit) -> None:
    """Raises `DaskGatherError` where an operand's largest block, whole along the axes
    `whole`, is over `limit` bytes."""
    if limit is None:
        return
    for k, (x, axes) in enumerate(zip(operands, whole)):
        if not is_dask_array(x):
            continue
        block = tuple(n if a in axes else max(x.chunks[a], default=0)
                      for a, n in enumerate(x.shape))
        size = math.prod(block) * x.dtype.itemsize
        if size > limit:
            raise DaskGatherError(_message(prim, source, k, x, axes, block, size, limit))


def _message(prim, source, k, x, axes, block, size, limit) -> str:
    where = f" (traced from {source})" if source else ""
    chunks = ", ".join(str(c) if len(c) <= 4 else f"{len(c)} chunks of up to {max(c)}"
                       for c in x.chunks)
    kept = [a for a in range(x.ndim) if a not in axes]
    need = ("gathered whole" if not kept else
            f"whole along axis {', '.join(map(str, axes))} (the others keep their chunks)")
    ways = [f"chunk axis {', '.join(map(str, kept))} smaller first (x.rechunk(...))"] if kept else []
    ways += [f"raise the limit to {_bytes(size)} or more: ag.device('dask', max_gather=...) "
             f"(bytes, a string such as '1 GiB', or None: no limit)",
             "or run this step on NumPy (compute the operand first, or call the function "
             "under ag.device('cpu'))"]
    return (f"{prim.name}{where} has no chunked form on Dask: NumPy's kernel needs operand "
            f"{k} ({x.dtype}{list(x.shape)}, chunks ({chunks})) {need}, blocks of "
            f"{list(block)} taking {_bytes(size)}, over this device's max_gather of "
            f"{_bytes(limit)}. Ways out: " + "; ".join(ways))


def _warning(prim, source, several, why) -> str:
    where = f" (traced from {source})" if source else ""
    reason = "" if why is None else f" for these operands ({type(why).__name__}: " \
                                    f"{str(why).strip()[:200]})"
    which = ("operand " if len(several) == 1 else "operands ") + ", ".join(map(str, several))
    return (f"{prim.name}{where} has no chunked form on Dask{reason}; NumPy's kernel runs "
            f"on {which} gathered from several chunks into one (memory for it on one "
            f"worker; this device's max_gather bounds it)")


def _bytes(n: float) -> str:
    """`n` bytes, readable: `_bytes(3 * 2**20)` is '3 MiB'."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.4g} {unit}"
        n /= 1024
