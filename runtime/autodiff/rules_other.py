"""Rules of `sort` (the cotangent goes back through the inverse permutation), `real` and
`imag` of real arrays (the cotangent, and none),
`py_function` and `python_block` (none: a gradient cannot flow through arbitrary
Python) and
`read_variable` (the read value's cotangent goes to the variable's resource).
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from ..errors import TracingError
from ..ops.complex_parts import imag_p, real_p
from ..ops.py_function import py_function_p
from ..ops.python_block import python_block_p
from ..ops.sorting import sort_p
from ..ops.state import read_variable_p
from ..tracer import bind
from .cotangents import reshape_like
from .linearize import linearize_rules


def _sort(g, out, x, *, axis=-1, kind=None):
    if axis is None:
        order = np.argsort(np.ravel(x), kind="stable")
        return (reshape_like(g[np.argsort(order, kind="stable")], x),)
    if None in x.shape:
        raise TracingError(f"no gradient for np.sort along an axis of {x.aval}, whose shape is "
                           f"not known while tracing")
    inverse = np.argsort(np.argsort(x, axis=axis, kind="stable"), axis=axis, kind="stable")
    grids = np.indices(x.shape, sparse=True)
    return (g[tuple(inverse if d == axis else grids[d] for d in range(x.ndim))],)


def _py_function(cts, outs, *args, fn, **params):
    raise TracingError(f"py_function {getattr(fn, '__name__', fn)!r} has no gradient: a "
                       f"gradient cannot flow through arbitrary Python; compute the value "
                       f"with NumPy functions to differentiate it")


def _python_block(cts, outs, *args, what, why, **params):
    raise TracingError(f"{what} has no gradient: it runs as Python when the graph runs "
                       f"({why}), and a gradient cannot flow through Python; differentiate "
                       f"a function without it")


def _linearize_python_block(args, active, **params):
    """Refused as soon as a differentiated value flows in: a Python number the block
    gives (weak, so carrying no cotangent) would silently stop the gradient there."""
    if any(active):
        _python_block(None, None, **params)
    return bind(python_block_p, *args, **params), None


def _real(g, out, x):
    if np.iscomplexobj(np.zeros((), x.dtype)):
        raise TracingError("no gradient for np.real of a complex array (complex gradients are "
                           "not supported)")
    return (g,)


def _imag(g, out, x):
    if np.iscomplexobj(np.zeros((), x.dtype)):
        raise TracingError("no gradient for np.imag of a complex array (complex gradients are "
                           "not supported)")
    return (np.zeros_like(g),)


def _read_variable(g, out, resource):
    return (g,)


primitives.vjp_rules[sort_p] = _sort
primitives.vjp_rules[real_p] = _real
primitives.vjp_rules[imag_p] = _imag
primitives.vjp_rules[read_variable_p] = _read_variable
primitives.vjp_rules[py_function_p] = _py_function
primitives.vjp_rules[python_block_p] = _python_block
linearize_rules[python_block_p] = _linearize_python_block
