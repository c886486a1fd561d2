"""Helpers shared by the converters that lower jumps (`break`, `continue`, `return`)."""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.transformer import children

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


def contains(nodes, kinds, into_loops: bool) -> bool:
    """True where a node of `kinds` occurs in `nodes` (not in nested functions).

    Statements are only ever inside statements: where `nodes` and `kinds` are
    statements, only the blocks of compound statements are searched, not expressions.
    """
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    blocks_only = all(issubclass(k, gast.stmt) for k in kinds) and \
        all(isinstance(n, gast.stmt) for n in nodes)
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, _SCOPES):
            continue
        if not into_loops and isinstance(node, (gast.While, gast.For)):
            stack.extend(node.orelse)  # an inner loop's `else` jumps for the outer loop
            continue
        stack.extend(_blocks_of(node) if blocks_only else children(node))
    return False


def _blocks_of(statement) -> list:
    """The statements directly inside a compound statement (its handlers' and cases' too)."""
    inner = []
    for field in ("body", "orelse", "finalbody"):
        block = getattr(statement, field, None)
        if type(block) is list:
            inner.extend(block)
    for field in ("handlers", "cases"):
        for part in getattr(statement, field, ()):
            inner.extend(part.body)
    return inner


def not_flag(flag: str):
    return templates.replace_as_expression("not flag", flag=flag)


def guarded(statements: list, flag: str) -> list:
    """`if not flag: statements`, or nothing when there are no statements."""
    if not statements:
        return []
    return templates.replace("if not flag:\n    body", flag=flag, body=statements)


def lower_block(body: list, jump_kinds, replace_jump, flag: str, into_loops: bool,
                on_loop=None) -> list:
    """Replaces jumps in `body` and guards what follows each of them with `flag`.

    `replace_jump(node)` gives the statements standing for one jump; with
    `into_loops`, loops that contain a jump are lowered too and `on_loop(loop)`
    makes them stop when `flag` is set.
    """
    out = []
    for i, statement in enumerate(body):
        if isinstance(statement, jump_kinds):
            return out + replace_jump(statement)
        jumps = contains([statement], jump_kinds, into_loops)
        if jumps:
            _lower_children(statement, jump_kinds, replace_jump, flag, into_loops, on_loop)
        out.append(statement)
        if jumps:
            rest = lower_block(body[i + 1:], jump_kinds, replace_jump, flag, into_loops, on_loop)
            return out + guarded(rest, flag)
    return out


def _lower_children(node, jump_kinds, replace_jump, flag, into_loops, on_loop):
    if isinstance(node, (gast.While, gast.For)):
        if not into_loops:  # only its `else` holds jumps of the loop being lowered
            node.orelse = lower_block(node.orelse, jump_kinds, replace_jump, flag, into_loops,
                                      on_loop)
            return
        on_loop(node)
    if isinstance(node, gast.Try) and contains(node.body, jump_kinds, into_loops):
        node.orelse = guarded(node.orelse, flag)  # `else` runs only when the body did not jump
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if block:
            setattr(node, field, lower_block(block, jump_kinds, replace_jump, flag,
                                             into_loops, on_loop))
    for handler in getattr(node, "handlers", ()):
        handler.body = lower_block(handler.body, jump_kinds, replace_jump, flag, into_loops,
                                   on_loop)
