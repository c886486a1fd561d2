"""`py_function`: arbitrary Python called when the graph runs.

The function gets NumPy arrays and must return values matching `out` (a
`TensorSpec`-like object with `.shape` and `.dtype`, or a structure of them);
results are cast to the declared dtypes, and a shape that does not fit raises
`ValueError` naming the function. A graph holding one cannot be exported.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import primitives
from ..abstract import AbstractValue
from ..tracer import Tracer, bind, current_builder
from ..tree import flatten


def _abstract_eval(*args, fn, in_tree, out_tree, out_avals):
    return list(out_avals)


def _convert(fn, out_tree, out_avals, result, xp=np):
    leaves, tree = flatten(result)
    if tree != out_tree:
        raise ValueError(f"py_function {fn.__name__!r} returned {tree}, but out "
                         f"declares {out_tree}")
    arrays = []
    for leaf, aval in zip(leaves, out_avals):
        array = np.asarray(leaf, dtype=aval.dtype)  # NumPy's conversion (770 into uint8 raises)
        if not AbstractValue(aval.shape, aval.dtype).accepts(AbstractValue(array.shape, aval.dtype)):
            raise ValueError(f"py_function {fn.__name__!r} returned shape {array.shape} "
                             f"where out declares {aval}")
        arrays.append(xp.asarray(array))
    return arrays


def _kernel(xp, fn, in_tree, out_tree, out_avals):
    to_host = (lambda a: a) if xp is np else (lambda a: a.get())

    def run(*args):
        args = in_tree.unflatten([to_host(a) for a in args])
        return _convert(fn, out_tree, out_avals, fn(*args), xp)
    return run


py_function_p = primitives.define("py_function", _abstract_eval, _kernel,
                                  multiple_results=True, effectful=True)
primitives.save_rules[py_function_p] = lambda eqn: (
    f"its Python function {getattr(eqn.params['fn'], '__name__', '?')!r} cannot be "
    f"exported; compute it with NumPy operations instead")


def py_function(fn: Callable, *args: Any, out: Any, always_stage: bool = False) -> Any:
    """Calls `fn(*args)` when the graph runs (now, outside tracing) and returns its results.

    With `always_stage`, a call of Python values alone is staged too while tracing (an
    effect the eager function has at every call: a logging call)."""
    specs, out_tree = flatten(out, is_leaf=lambda s: hasattr(s, "dtype") and hasattr(s, "shape"))
    out_avals = tuple(AbstractValue(s.shape, s.dtype) for s in specs)
    leaves, in_tree = flatten(args)
    if not any(isinstance(a, Tracer) for a in leaves) and not (
            always_stage and current_builder() is not None):
        return out_tree.unflatten(_convert(fn, out_tree, out_avals, fn(*args)))
    results = bind(py_function_p, *leaves, fn=fn, in_tree=in_tree, out_tree=out_tree,
                   out_avals=out_avals)
    return out_tree.unflatten(results)
