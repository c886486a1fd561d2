"""Which exceptions a primitive's kernel may raise when the graph runs.

`primitives.kernel_errors[p]` is a tuple of exception types, or a function of
the equation giving one. Every kernel may raise `FloatingPointError` where
NumPy's errors raise: inside a traced `np.errstate(...="raise")` block, or
where the `try` is traced under such an errstate (`np.geterr()` then: a graph
traced under the default errstate and run under a raising one keeps its `try`
traced, and a `FloatingPointError` passes its handler), and every kernel may
raise `ValueError`/`IndexError` where
a shape is known only when the graph runs (broadcasting, a reshape); the table
adds what each kernel raises beyond that (`LinAlgError` of `np.linalg`,
`IndexError` of a traced index, Python's `ZeroDivisionError`, a staged `raise`).
`caught_errors(eqns, caught)` are the exceptions the kernels of the equations,
subgraphs included, may raise that handlers of the types `caught` catch:

>>> import numpy as np
>>> from autograph_runtime import AbstractValue, GraphBuilder
>>> with GraphBuilder("f") as b:
...     m = b.new_input(AbstractValue((3, 3), np.float64), "m")
...     inv = np.linalg.inv(m) + 1.0
>>> graph = b.build([inv])
>>> caught_errors(graph.eqns, (ValueError,))
[<class 'numpy.linalg.LinAlgError'>]
>>> caught_errors(graph.eqns, (KeyError,))
[]
"""
from __future__ import annotations

import numpy as np

from .. import primitives
from . import np_linalg as la
from .counting import bincount_p, histogram_p, searchsorted_p
from .differences import interp_p, require_length_p
from .effects import assert_p
from .errstate import errstate_p
from .index_accumulate import index_accumulate_p
from .indexing import getitem_p
from .joining import concatenate_p, split_p, stack_p
from .numpy_calls import numpy_call_p
from .py_function import py_function_p
from .python_block import python_block_p
from .python_calls import python_call_p
from .python_numbers import from_python_p, python_op_p
from .random import random_draw_p
from .rearranging import repeat_p
from .shape_ops import broadcast_to_p, reshape_p
from .sizes import arange_p, eye_p, full_p, linspace_p
from .updates import index_update_p

_ALWAYS = (FloatingPointError,)
_UNKNOWN_SHAPES = (ValueError, IndexError)
_ANYTHING = (Exception,)

primitives.kernel_errors.update({
    **{p: (np.linalg.LinAlgError,) for p in (
        la.inv_p, la.det_p, la.slogdet_p, la.cholesky_p, la.solve_p, la.eigh_p,
        la.eigvalsh_p, la.eig_p, la.eigvals_p, la.svd_p, la.svdvals_p, la.qr_p, la.lstsq_p,
        la.pinv_p)},
    getitem_p: lambda eqn: (IndexError,) if len(eqn.inputs) > 1 else (),
    index_update_p: lambda eqn: (IndexError,) if len(eqn.inputs) > 2 else (),
    index_accumulate_p: (IndexError,),   # an index out of bounds
    python_op_p: (ZeroDivisionError, OverflowError, ValueError),
    from_python_p: (OverflowError, TypeError),
    python_call_p: (ValueError, OverflowError, ZeroDivisionError, TypeError),
    assert_p: lambda eqn: (eqn.params.get("error", AssertionError),),
    numpy_call_p: (ValueError, IndexError, np.linalg.LinAlgError, ZeroDivisionError,
                   OverflowError, TypeError),   # any function of NumPy's
    py_function_p: _ANYTHING,
    python_block_p: _ANYTHING,
    **{p: (ValueError,) for p in (
        reshape_p, broadcast_to_p, require_length_p, interp_p, full_p, arange_p, linspace_p,
        eye_p, searchsorted_p, bincount_p, histogram_p, repeat_p, split_p, concatenate_p,
        stack_p, random_draw_p)},
})


def errors_of(eqn, errors_raise: bool = True) -> tuple:
    """The exception types `eqn`'s own kernel may raise (not those of its subgraphs),
    `FloatingPointError` among them where NumPy's floating-point errors raise."""
    rule = primitives.kernel_errors.get(eqn.primitive, ())
    own = rule(eqn) if callable(rule) else rule
    shapes = [a.aval.shape for a in [*eqn.inputs, *eqn.outputs] if hasattr(a, "aval")]
    unknown = _UNKNOWN_SHAPES if any(None in s for s in shapes) else ()
    return (_ALWAYS if errors_raise else ()) + unknown + tuple(own)


def _errors_in(eqns, errors_raise):
    """The types each of `eqns`' kernels, and their subgraphs', may raise, in order."""
    for eqn in eqns:
        yield errors_of(eqn, errors_raise)
        inner = errors_raise or eqn.primitive is errstate_p and "raise" in dict(
            eqn.params["modes"]).values()
        for graph in eqn.subgraphs():
            yield from _errors_in(graph.eqns, inner)


def caught_errors(eqns, caught: tuple, errors_raise=None) -> list:
    """The exception types that kernels of `eqns` (or of their subgraphs) may raise and
    handlers of the types `caught` catch, each once: a kernel's own type, or, for a kernel
    that may raise anything (a Python function's: `Exception`), each type of `caught` it
    covers. `errors_raise`: whether NumPy's floating-point errors raise (by default, as
    `np.geterr()` says now: the errstate the `try` is traced in)."""
    if errors_raise is None:
        errors_raise = "raise" in np.geterr().values()
    found = {}
    for errors in _errors_in(eqns, errors_raise):
        for error in errors:
            if issubclass(error, caught):
                found[error] = None
            elif error in _ANYTHING:
                found.update(dict.fromkeys(c for c in caught if issubclass(c, error)))
    return list(found)


def may_catch_kernel_errors(caught: tuple) -> bool:
    """Whether handlers of types `caught` catch anything some kernel may raise."""
    kinds = _ALWAYS + _UNKNOWN_SHAPES + (np.linalg.LinAlgError, ZeroDivisionError,
                                         OverflowError)
    return any(issubclass(kind, caught) for kind in kinds)
