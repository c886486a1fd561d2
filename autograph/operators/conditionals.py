"""`if` statements and conditional expressions."""
from __future__ import annotations

import runtime
from runtime import Tracer, TracingError
from runtime.source import location_note, user_source
from runtime.tracer import read_if_variable

from .composite import staged_block
from .in_place import staged_writing
from .staging import staging
from .undefined import is_undefined


def if_stmt(test, body, orelse, state: tuple, names: tuple):
    """`state = body(*state) if test else orelse(*state)`, staged if `test` is traced.

    A variable bound in only one branch of a staged `if` and used after it
    raises `TracingError` naming it.
    """
    test = read_if_variable(test)
    if not isinstance(test, Tracer):
        return body(*state) if test else orelse(*state)
    results: dict = {}
    location = location_note(user_source())

    def recorded(branch, key):
        def run(*args):
            with staging():
                out = branch(*args)
            results[key] = out
            if len(results) == 2:
                _check_both_define(results, names, location)
            return out
        return run
    return staged_block(state, names, lambda block, packed: staged_writing(  # dicts, lists..
        lambda s: runtime.cond(test, recorded(block.branch(body), True),
                               recorded(block.branch(orelse), False), *s, names=block.names),
        packed, block.names))


def _check_both_define(results, names, location):
    for name, a, b in zip(names, results[True], results[False]):
        if is_undefined(a) != is_undefined(b):
            where = "if" if is_undefined(b) else "else"
            raise TracingError(
                f"{name!r} is bound only in the {where} branch of an `if` on a traced "
                f"value{location}, and is used after it; bind it in both branches (or "
                f"before the if)")


def if_exp(test, true_fn, false_fn):
    """`true_fn() if test else false_fn()`, staged if `test` is traced."""
    test = read_if_variable(test)
    if not isinstance(test, Tracer):
        return true_fn() if test else false_fn()
    with staging():
        return runtime.cond(test, true_fn, false_fn)
