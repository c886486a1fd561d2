"""Arguments a graph function writes in place, written back to the caller's arrays.

>>> import numpy as np
>>> import autograph as ag
>>> @ag.convert
... def bump(x):
...     x += 1                  # also x.fill(v), x.sort(), np.add(x, 1, out=x), ...
...     return x.sum()
>>> a = np.ones(3)
>>> bump(a)
array(6.)
>>> a                           # as in eager NumPy
array([2., 2., 2.])
>>> bump.get_concrete_function(a).writes_arguments    # input 0 is graph output 1
{0: 1}

While tracing, an argument written in place ends the trace with its Tracer
holding a new node (`runtime.tracer_value.write_in_place`; a staged `if` or
loop that writes its state in place passes the write on, see
`runtime.tracing.write_through`). The graph returns those final values after
the result (`ConcreteFunction.writes_arguments`: flat input index to graph
output index), and each call copies them into the caller's arrays before it
returns, whether or not the result is used. Only NumPy (and CuPy) arrays are
written: a NumPy scalar or Python number argument is immutable, and eager
code rebinds it. A view passed as the argument (`bump(a[1:])`) writes its base,
as eagerly.

Before the graph runs, `check_targets` refuses what the graph cannot follow:
a read-only array (NumPy's own `ValueError`), and an argument written in place
that shares memory with another argument (`f(a, a)`, `f(a, a[::2])`): the
trace assumed distinct arrays; and a written argument of two or more dimensions
that is not C-contiguous (Fortran order, `a.T`, `a[:, ::2]`): the trace took it
for a C array, whose `ravel()` and `reshape()` are views where NumPy copies this
one, so writes through them would reach it where NumPy's do not. Both are
`ArgumentsNotFollowed`, a refusal naming the arguments, on which the call runs
eagerly (`autograph.eager_fallback`). Functions that write no argument pay
nothing: their short call path is the compiled graph itself.
"""
from __future__ import annotations

import numpy as np

from autograph_runtime import TracingError
from autograph_runtime.backend import CPU
from autograph_runtime.tree import flatten


class ArgumentsNotFollowed(TracingError):
    """A written argument shares memory with another, or is not in the C order its graph
    was traced for; raised before the graph runs, so the call may run eagerly instead."""


def check_targets(inputs, writes, name: str, labels=None) -> None:
    """Refuses read-only written arguments, written arguments that alias another one, and
    written arguments not in C order.

    `labels()`, where given, names the inputs in the error (called only then).
    """
    for i in writes:
        target = inputs[i]
        flags = getattr(target, "flags", None)
        if flags is None or isinstance(target, np.generic):
            continue      # immutable: eager code rebinds it
        if not getattr(flags, "writeable", True):
            raise ValueError(f"output array is read-only (argument "
                             f"{_label(labels, i)} of {name}, which it writes in place)")
        if target.ndim > 1 and not flags.c_contiguous:
            raise ArgumentsNotFollowed(
                f"{name} writes argument {_label(labels, i)} in place, and it is not a "
                f"C-contiguous array (Fortran order, a transpose or a strided view): its "
                f"graph was traced for C order, whose ravel() and reshape() are views where "
                f"NumPy copies this array; pass np.ascontiguousarray(...) of it")
        for j, other in enumerate(inputs):
            if j != i and _shares(target, other):
                raise ArgumentsNotFollowed(
                    f"{name} writes argument {_label(labels, i)} in place, and argument "
                    f"{_label(labels, j)} shares its memory; its graph was traced for "
                    f"distinct arrays, so the result would differ from NumPy's: pass a "
                    f"copy (e.g. `{name}(a, a.copy())`)")


def copy_back(inputs, writes, values) -> None:
    """Copies the final value of each written argument into the caller's array."""
    for i, value in zip(writes, values):
        target = inputs[i]
        if isinstance(target, np.ndarray):
            np.copyto(target, CPU.asarray(value), casting="same_kind")
        elif hasattr(target, "__cuda_array_interface__"):
            target[...] = value


def with_callers_arrays(result, inputs, writes, values, returned=()):
    """`result` with each leaf that is the final value of a written argument, or a view of
    one, replaced by the caller's array, which `copy_back` wrote, or the same view of it:
    eagerly a function writing its argument and returning it returns that very array
    (`b[0] *= 2; return b`), so writes through the result reach it. `returned`: (leaf,
    input) pairs the graph knows (the same value: also a 0-d one, which the graph's
    output makes a new array); other leaves are matched by object, and views by base."""
    swap = {id(v): (v, inputs[i]) for i, v in zip(writes, values)
            if type(inputs[i]) is np.ndarray and type(v) is np.ndarray}
    if not swap and not returned:
        return result
    leaves, tree = flatten(result)
    new = [_callers(leaf, swap) if type(leaf) is np.ndarray else leaf for leaf in leaves]
    for leaf, i in returned:
        if type(inputs[i]) is np.ndarray:
            new[leaf] = inputs[i]
    if all(a is b for a, b in zip(new, leaves)):
        return result
    return tree.unflatten(new)


def _callers(leaf, swap: dict):
    """`leaf` as the caller's array, or as the same view of it, where it is a written
    argument's final value or a view of one (both C-ordered: a written argument is)."""
    if id(leaf) in swap:
        return swap[id(leaf)][1]
    base = leaf.base
    while isinstance(base, np.ndarray) and id(base) not in swap:
        base = base.base
    if base is None or id(base) not in swap:
        return leaf
    value, caller = swap[id(base)]
    if not (value.flags.c_contiguous and caller.flags.c_contiguous) or \
            value.dtype != caller.dtype or value.shape != caller.shape:
        return leaf
    offset = leaf.__array_interface__["data"][0] - value.__array_interface__["data"][0]
    return np.ndarray(leaf.shape, leaf.dtype, buffer=caller, offset=offset,
                      strides=leaf.strides)


def _shares(a, b) -> bool:
    if a is b:
        return True
    if not (isinstance(b, np.ndarray) and isinstance(a, np.ndarray)):
        return (hasattr(b, "__cuda_array_interface__")
                and hasattr(a, "__cuda_array_interface__") and _cuda_overlap(a, b))
    if not np.may_share_memory(a, b):     # bounds only: cheap
        return False
    try:
        return np.shares_memory(a, b, max_work=10_000)
    except np.exceptions.TooHardError:
        return True


def _cuda_overlap(a, b) -> bool:
    import cupy
    return bool(cupy.may_share_memory(a, b))


def _label(labels, i) -> str:
    labels = labels() if labels is not None else None
    return repr(labels[i]) if labels is not None and i < len(labels) else str(i)
