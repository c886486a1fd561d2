"""Which variables a converted block threads as state, and how they start."""
from __future__ import annotations

import gast

from ..pyct import anno, templates
from ..pyct.activity import activity
from ..pyct.dataflow import live_in, redefine_block
from ..pyct.transformer import statements


def declared_outer(function) -> dict:
    """Names the function declares `global` or `nonlocal` (never threaded as state)."""
    return {name: type(node) for node in statements(function)
            if isinstance(node, (gast.Global, gast.Nonlocal)) for name in node.names}


def _in_order(names: set, nodes) -> list:
    """`names` in the order the statements first assign them (the rest sorted)."""
    order = []
    for statement in statements(list(nodes)):
        for name in sorted(activity(statement).modified & names):
            if name not in order:
                order.append(name)
    return order + sorted(names - set(order))


def block_state(node, blocks: list, extra_live=(), outer=frozenset(), then=()) -> list:
    """Names modified in `blocks` that are read after `node` or inside the blocks first.

    `extra_live` adds names read again before the blocks run (a loop's head);
    `then` holds statements that run after the blocks, before what follows
    `node` (a loop's `else`), so the names they read are live too.
    """
    statements = [s for block in blocks for s in block]
    modified = activity(statements).modified - set(outer)
    live_out = anno.getanno(node, anno.Static.LIVE_OUT, frozenset())
    live = set(live_out) | set(extra_live) | live_in(list(then), live_out)
    # After a loop's body comes its head again: what is live there is live after the body
    # (a name an inner loop changes and the next trip of this one reads).
    body_out = live_out | anno.getanno(node, anno.Static.LIVE_IN, frozenset()) \
        if isinstance(node, (gast.While, gast.For)) else live_out
    for block in blocks:
        live |= live_in(block, body_out)
    return _in_order(modified & live, statements)


def initializers(node, state: list) -> list:
    """Statements binding each possibly-unbound state variable to `Undefined`."""
    defined = anno.getanno(node, anno.Static.DEFINED_IN, frozenset())
    maybe = anno.getanno(node, anno.Static.MAYBE_DEFINED_IN, frozenset())
    out = []
    for name in state:
        label = gast.Constant(value=name, kind=None)
        if name not in maybe:
            out += templates.replace("name = ag__.Undefined(label)", name=name, label=label)
        elif name not in defined:
            out += templates.replace("name = ag__.bound_or_undefined(lambda: name, label)",
                                     name=name, label=label)
    return out


def names_tuple(state: list):
    return gast.Tuple(elts=[gast.Constant(value=n, kind=None) for n in state], ctx=gast.Load())


def outer_declarations(function_outer: dict, statements: list) -> list:
    """`global`/`nonlocal` lines a generated function needs to assign what the block did."""
    assigned = activity(statements).modified & set(function_outer)
    kinds = {function_outer[name] for name in assigned}
    return [kind(names=sorted(n for n in assigned if function_outer[n] is kind))
            for kind in (gast.Global, gast.Nonlocal) if kind in kinds]


def enter_as_function(node, blocks: list, state: list) -> None:
    """Re-annotates `blocks` for their life as generated functions taking `state`.

    Names a block assigns that are not state are locals of its function: unbound
    when it starts, whatever was bound before `node`.
    """
    defined = anno.getanno(node, anno.Static.DEFINED_IN, frozenset())
    maybe = anno.getanno(node, anno.Static.MAYBE_DEFINED_IN, frozenset())
    for block in blocks:
        local = activity(block).modified - set(state) if block else set()
        redefine_block(block, (defined - local) | set(state), (maybe - local) | set(state))
