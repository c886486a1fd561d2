"""Which exceptions a primitive's kernel may raise when the graph runs.

`primitives.kernel_errors[p]` is a tuple of exception types, or a function of
the equation giving one. Every kernel may raise `FloatingPointError` (under
the caller's `np.errstate(all="raise")`), and `ValueError`/`IndexError` where
a shape is known only when the graph runs (broadcasting, a reshape); the table
adds what each kernel raises beyond that (`LinAlgError` of `np.linalg`,
`IndexError` of a traced index, Python's `ZeroDivisionError`, a staged `raise`).
`raising(eqns, caught)` is the first equation, subgraphs included, whose
kernel may raise an exception the handler types `caught` catch:

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as b:
...     m = b.new_input(AbstractValue((3, 3), np.float64), "m")
...     inv = np.linalg.inv(m) + 1.0
>>> graph = b.build([inv])
>>> raising(graph.eqns, (np.linalg.LinAlgError,)).primitive
inv
>>> raising(graph.eqns, (KeyError,)) is None
True
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from . import (
    counting,
    differences,
    effects,
    indexing,
    joining,
    np_linalg,
    py_function,
    python_block,
    python_calls,
    python_numbers,
    random,
    rearranging,
    shape_ops,
    sizes,
    updates,
)

_ALWAYS = (FloatingPointError,)
_UNKNOWN_SHAPES = (ValueError, IndexError)
_ANYTHING = (Exception,)

primitives.kernel_errors.update({
    **{p: (np.linalg.LinAlgError,) for p in (
        np_linalg.inv_p, np_linalg.det_p, np_linalg.slogdet_p, np_linalg.cholesky_p,
        np_linalg.solve_p, np_linalg.eigh_p, np_linalg.eigvalsh_p, np_linalg.eig_p,
        np_linalg.eigvals_p, np_linalg.svd_p, np_linalg.svdvals_p, np_linalg.qr_p,
        np_linalg.lstsq_p, np_linalg.pinv_p)},
    indexing.getitem_p: lambda eqn: (IndexError,) if len(eqn.inputs) > 1 else (),
    updates.index_update_p: lambda eqn: (IndexError,) if len(eqn.inputs) > 2 else (),
    python_numbers.python_op_p: (ZeroDivisionError, OverflowError, ValueError),
    python_numbers.from_python_p: (OverflowError, TypeError),
    python_calls.python_call_p: (ValueError, OverflowError, ZeroDivisionError, TypeError),
    effects.assert_p: lambda eqn: (eqn.params.get("error", AssertionError),),
    py_function.py_function_p: _ANYTHING,
    python_block.python_block_p: _ANYTHING,
    **{p: (ValueError,) for p in (
        shape_ops.reshape_p, shape_ops.broadcast_to_p, differences.require_length_p,
        differences.interp_p, sizes.full_p, sizes.arange_p, sizes.linspace_p, sizes.eye_p,
        counting.searchsorted_p, counting.bincount_p, counting.histogram_p,
        rearranging.repeat_p, joining.split_p, joining.concatenate_p, joining.stack_p,
        random.random_draw_p)},
})


def errors_of(eqn) -> tuple:
    """The exception types `eqn`'s own kernel may raise (not those of its subgraphs)."""
    rule = primitives.kernel_errors.get(eqn.primitive, ())
    own = rule(eqn) if callable(rule) else rule
    shapes = [a.aval.shape for a in [*eqn.inputs, *eqn.outputs] if hasattr(a, "aval")]
    unknown = _UNKNOWN_SHAPES if any(None in s for s in shapes) else ()
    return _ALWAYS + unknown + tuple(own)


def raising(eqns, caught: tuple):
    """The first of `eqns` (or of their subgraphs) whose kernel may raise what `caught`
    catches; None where none may."""
    for eqn in eqns:
        if any(issubclass(error, caught) for error in errors_of(eqn)):
            return eqn
        for graph in eqn.subgraphs():
            found = raising(graph.eqns, caught)
            if found is not None:
                return found
    return None


def may_catch_kernel_errors(caught: tuple) -> bool:
    """Whether handlers of types `caught` catch anything some kernel may raise."""
    kinds = _ALWAYS + _UNKNOWN_SHAPES + (np.linalg.LinAlgError, ZeroDivisionError,
                                         OverflowError)
    return any(issubclass(kind, caught) for kind in kinds)
