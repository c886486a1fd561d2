"""Liveness and definite assignment over structured code, as annotations.

`analyze(function_node)` annotates every statement with
`Static.LIVE_OUT` (names read later before being rebound) and
`Static.DEFINED_IN` (names certainly bound when the statement starts) and
`Static.MAYBE_DEFINED_IN` (names bound on some path to it). The
code is structured (`if`, `while`, `for`, `with`, `try`; `break`, `continue`
and `return` are lowered to flags by earlier converters), so both are computed
by walking statement lists, with a fixed point for loops. A `with` body is an
ordinary block, but it may stop at any statement (its manager may suppress
an exception), as a `try` body may for its handlers: what is read after such
a body is live throughout it.
"""
from __future__ import annotations

import gast

from .activity import activity, binds, reads
from .anno import Static, getanno, setanno
from .transformer import statements

_BLOCKS = (gast.If, gast.While, gast.For)


def _header_reads(node) -> set:
    if isinstance(node, (gast.If, gast.While)):
        return reads(node.test)
    extra = getanno(node, Static.EXTRA_LOOP_TEST)  # `not break_`, read before each step
    return reads(node.iter) | (reads(extra) if extra is not None else set())


def _live_in_block(body, live_out: frozenset) -> frozenset:
    live = live_out
    for statement in reversed(body):
        setanno(statement, Static.LIVE_OUT, live)
        live = _live_in(statement, live)
        setanno(statement, Static.LIVE_IN, live)
    return live


def _live_in(node, live_out: frozenset) -> frozenset:
    if isinstance(node, gast.If):
        return frozenset(_header_reads(node)) | _live_in_block(node.body, live_out) \
            | _live_in_block(node.orelse, live_out)
    if isinstance(node, (gast.While, gast.For)):
        targets = activity(node.target).modified if isinstance(node, gast.For) else set()
        after = _live_in_block(node.orelse, live_out) | live_out
        head = after | _header_reads(node)
        while True:
            body_in = _live_in_block(node.body, head)
            new_head = after | frozenset(_header_reads(node)) | (body_in - targets)
            if new_head == head:
                return head
            head = new_head
    if isinstance(node, gast.Return):
        return frozenset(reads(node.value) if node.value is not None else ())
    if isinstance(node, gast.With):
        items = _with_items(node)
        body_in = _live_in_block(node.body, live_out) | _live_throughout(node.body, live_out)
        return frozenset(items.read) | (body_in - items.modified)
    if isinstance(node, gast.Try):
        return _try_live_in(node, live_out)
    scope = activity(node)
    return frozenset(scope.read) | (live_out - _rebound(node, scope))


def _with_items(node):
    """The names a `with` header reads (its managers) and binds (its `as` targets)."""
    return activity(list(node.items))


def _handler_name(handler) -> set:
    return {handler.name.id} if isinstance(handler.name, gast.Name) else set()


def _try_live_in(node, live_out: frozenset) -> frozenset:
    final = _live_in_block(node.finalbody, live_out)
    handlers = frozenset(final)  # an exception may leave the body at any statement
    for handler in node.handlers:
        caught = _live_in_block(handler.body, final) - _handler_name(handler)
        handlers |= caught | (reads(handler.type) if handler.type is not None else set())
    body_in = _live_in_block(node.body, _live_in_block(node.orelse, final) | handlers)
    return body_in | _live_throughout(node.body, handlers)


def _live_throughout(body, names: frozenset) -> frozenset:
    """Marks `names` live at every statement of a body that may stop at any of them."""
    for statement in statements(body):
        for key in (Static.LIVE_OUT, Static.LIVE_IN):
            setanno(statement, key, getanno(statement, key, frozenset()) | names)
    return names


def _rebound(node, scope) -> set:
    """Names a simple statement certainly rebinds (so they are dead before it)."""
    if isinstance(node, gast.AugAssign):
        return set()
    return scope.modified


def _define_block(body, defined: frozenset, key=Static.DEFINED_IN, merge=frozenset.__and__):
    for statement in body:
        setanno(statement, key, defined)
        defined = _define(statement, defined, key, merge)
    return defined


def _header_binds(node) -> set:
    """Names a block's header binds with `:=` (its test or iterable runs at least once)."""
    return activity(node.iter if isinstance(node, gast.For) else node.test).modified


def _define(node, defined: frozenset, key, merge) -> frozenset:
    """Names bound after `node`: on every path (`merge` is &) or on some path (|)."""
    if isinstance(node, _BLOCKS):
        defined = defined | _header_binds(node)
    if isinstance(node, gast.If):
        return merge(_define_block(node.body, defined, key, merge),
                     _define_block(node.orelse, defined, key, merge))
    if isinstance(node, _BLOCKS):  # a loop may run zero times, or many
        targets = activity(node.target).modified if isinstance(node, gast.For) else set()
        body = _define_block(node.body, defined | targets, key, merge)
        carried = body & getanno(node, Static.LIVE_OUT, frozenset())
        if merge is frozenset.__or__ and carried - defined:
            # a later trip starts with what an earlier one bound: for the names read after
            # the loop, which it carries anyway (not for those only the body reads, which
            # each trip's analysis still takes as unbound at its start)
            body = _define_block(node.body, defined | targets | carried, key, merge)
        orelse = _define_block(node.orelse, defined, key, merge)
        return merge(defined, body | orelse)
    if isinstance(node, gast.Delete):
        return defined - activity(node).modified
    if isinstance(node, gast.With):
        return _define_block(node.body, defined | _with_items(node).modified, key, merge)
    if isinstance(node, gast.Try):
        return _define_try(node, defined, key, merge)
    return defined | binds(node)


def _define_try(node, defined: frozenset, key, merge) -> frozenset:
    """Names bound after a `try`: its body may stop at any statement for a handler."""
    interrupted = merge(defined, defined | binds(node.body))
    ends = [_define_block(node.orelse, _define_block(node.body, defined, key, merge), key, merge)]
    for handler in node.handlers:
        ends.append(_define_block(handler.body, interrupted | _handler_name(handler), key, merge))
    normal = ends[0]
    for end in ends[1:]:
        normal = merge(normal, end)
    after = _define_block(node.finalbody, normal, key, merge)
    _define_block(node.finalbody, merge(normal, interrupted), key, merge)  # also on raising
    return after


def _functions_holding(function_node, kinds) -> list:
    """The functions (this one and nested ones) with a statement of `kinds` of their own."""
    found, stack = [], [(function_node, None)]
    while stack:
        statement, owner = stack.pop()
        if isinstance(statement, gast.FunctionDef):
            owner = statement
        elif isinstance(statement, kinds) and owner not in found:
            found.append(owner)
        if getattr(statement, "body", None) is None:
            continue   # a simple statement (every compound one has a body)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(statement, field, None)
            if isinstance(block, list):
                stack.extend((child, owner) for child in block)
        for handler in getattr(statement, "handlers", ()):
            stack.extend((child, owner) for child in handler.body)
    return found


def analyze(function_node, kinds=(gast.stmt,), liveness: bool = True) -> None:
    """Annotates the statements of a `FunctionDef` and of the functions nested in it.

    Only functions holding a statement of one of `kinds` (outside their own
    nested functions) are analysed: a converter of `while` loops asks for
    `gast.While`. Without `liveness`, only definite assignment is computed.
    """
    for node in _functions_holding(function_node, kinds):
        params = frozenset(activity(node.args).modified)
        if liveness:
            _live_in_block(node.body, frozenset())
        _define_block(node.body, params)
        _define_block(node.body, params, Static.MAYBE_DEFINED_IN, frozenset.__or__)


def live_in(body: list, live_out) -> frozenset:
    """The names `body` reads before rebinding them, given what is live after it.

    A block the analysis has seen (a branch or loop body) has it as an annotation.
    """
    known = getanno(body[0], Static.LIVE_IN) if body else None
    if known is not None:
        return known
    return _live_in_block(body, frozenset(live_out))


def redefine_block(body, defined, maybe) -> None:
    """Re-annotates definite assignment in `body`, entered with `defined` and `maybe` bound.

    A block that becomes a function of its own (a branch, a loop body) starts with
    only its parameters and the names it reads from outside bound.
    """
    _define_block(body, frozenset(defined))
    _define_block(body, frozenset(maybe), Static.MAYBE_DEFINED_IN, frozenset.__or__)
