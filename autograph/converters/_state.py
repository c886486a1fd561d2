"""Which variables a converted block threads as state, and how they start.

A variable that the user's closures read (`Closures`) stays the function's
own inside the generated functions: they declare it `nonlocal` and take it as a
parameter of another name (`parameters`), so a closure called in the block or
after it sees the current value, in Python as when staged.
"""
from __future__ import annotations

import gast

from ..pyct import anno, templates
from ..pyct.activity import activity
from ..pyct.dataflow import live_in, redefine_block
from ..pyct.transformer import children, statements, walk


def declared_globals(outer: dict) -> dict:
    """The `global` ones of `declared_outer`: never threaded as state (a traced value must
    not outlive its trace in a module's variable)."""
    return {name: kind for name, kind in outer.items() if kind is gast.Global}


def declared_outer(function) -> dict:
    """Names the function declares `global` or `nonlocal` (never threaded as state).

    Only the user's declarations: the `nonlocal` lines of generated functions
    (`parameters`) have no `Static.ORIGIN`.
    """
    return {name: type(node) for node in statements(function)
            if isinstance(node, (gast.Global, gast.Nonlocal))
            and anno.getanno(node, anno.Static.ORIGIN) for name in node.names}


def outer_state(node, outer: dict, closures: "Closures"):
    """`(globals, cells, rebound, nonlocals)` for a block `node` of a function that
    declares `outer` (`declared_outer`): the `global` names (never state), the names
    a generated function keeps in the function's own cell (read by closures, and the
    function's `nonlocal` ones), the names closures rebind (`Closures.rebound_outside`),
    and the function's `nonlocal` names (live after any block: its caller reads them)."""
    globals_ = declared_globals(outer)
    nonlocals = frozenset(outer) - frozenset(globals_)
    cells = (closures.outside(node) | nonlocals) - frozenset(globals_)
    return globals_, cells, closures.rebound_outside(node), nonlocals


def _in_order(names: set, nodes) -> list:
    """`names` in the order the statements first assign them (the rest sorted)."""
    order = []
    for statement in statements(list(nodes)):
        for name in sorted(activity(statement).modified & names):
            if name not in order:
                order.append(name)
    return order + sorted(names - set(order))


def block_state(node, blocks: list, extra_live=(), outer=frozenset(), then=(),
                captured=frozenset(), rebound=frozenset()) -> list:
    """Names modified in `blocks` that are read after `node` or inside the blocks first.

    `extra_live` adds names read again before the blocks run (a loop's head);
    `then` holds statements that run after the blocks, before what follows
    `node` (a loop's `else`), so the names they read are live too. Names in
    `captured` (read by closures, `Closures.outside`) are state wherever the
    blocks change them; names in `rebound` (that closures defined outside
    `node` assign, `nonlocal`: `Closures.rebound_outside`) are changed by any
    block that calls a function.
    """
    statements = [s for block in blocks for s in block]
    modified = modified_in(node, statements, outer, rebound)
    live_out = anno.getanno(node, anno.Static.LIVE_OUT, frozenset())
    live = set(live_out) | set(extra_live) | live_in(list(then), live_out)
    # After a loop's body comes its head again: what is live there is live after the body
    # (a name an inner loop changes and the next trip of this one reads).
    body_out = live_out | anno.getanno(node, anno.Static.LIVE_IN, frozenset()) \
        if isinstance(node, (gast.While, gast.For)) else live_out
    for block in blocks:
        live |= live_in(block, body_out)
    # A name only closures read is state where it is bound before `node` or by every
    # block (else a staged `if` would refuse a name one branch binds, used or not).
    bound = set(anno.getanno(node, anno.Static.DEFINED_IN, frozenset()))
    bound |= set.intersection(*(set(activity(block).modified) for block in blocks))
    return _in_order(modified & (live | (set(captured) & bound)), statements)


def modified_in(node, statements, outer=frozenset(), rebound=frozenset()) -> set:
    """The names `statements` (the blocks of `node`) change: those they assign, less the
    `outer` ones and names only written in place that are no locals (`np` of
    `np.sort(x)`), and the names closures rebind (`rebound`) where a function is called."""
    found = activity(statements)
    modified = found.modified - set(outer) - _not_local(node, found.in_place, statements)
    if rebound and any(isinstance(n, gast.Call) for s in statements for n in walk(s)):
        modified |= set(rebound) - set(outer)
    return modified


def _not_local(node, in_place: set, statements) -> set:
    """Of the names an in-place call modifies (`t.sort()`), those that are no local of
    the function: bound neither before `node` nor in it (`np` of `np.sort(x)`)."""
    if not in_place:
        return set()
    maybe = anno.getanno(node, anno.Static.MAYBE_DEFINED_IN, frozenset())
    stored = {n.id for s in statements for n in walk(s)
              if isinstance(n, gast.Name) and not isinstance(n.ctx, gast.Load)}
    return {name for name in in_place if name not in maybe and name not in stored}


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


_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda)


class Closures:
    """The user's nested functions and lambdas in `function`, and the names each reads
    from it (its free variables).

    A closure reads the function's variable itself, so where a block that becomes
    a generated function rebinds one, the generated function rebinds the
    function's variable (`nonlocal`, `entry`) for the closure to see the current
    value, in Python as when staged. Lambdas that converters generated (they have
    no `Static.ORIGIN`) are not closures of the user's.
    """

    @classmethod
    def of(cls, function) -> "Closures":
        """The function's closures, found once per conversion: the block converters that
        ask later see the same nested functions (they convert their bodies in place)."""
        closures = anno.getanno(function, anno.Static.CLOSURES)
        if closures is None:
            closures = cls(function)
            anno.setanno(function, anno.Static.CLOSURES, closures)
        return closures

    def __init__(self, function):
        self.scopes = []   # (closure, names it reads, names it rebinds: `nonlocal`)
        stack = list(children(function))
        while stack:
            child = stack.pop()
            if isinstance(child, _SCOPES) and anno.getanno(child, anno.Static.ORIGIN):
                found = activity(child)
                own = {child.name} if isinstance(child, gast.FunctionDef) else set()
                self.scopes.append((child, frozenset(found.read),
                                    frozenset(found.modified - own)))
                continue
            stack.extend(children(child))

    def outside(self, node) -> frozenset:
        """The names read by closures defined outside `node` (who may call them inside)."""
        return self._outside(node, 1)

    def rebound_outside(self, node) -> frozenset:
        """The names closures defined outside `node` assign (`nonlocal`)."""
        return self._outside(node, 2)

    def _outside(self, node, field: int) -> frozenset:
        if not self.scopes:
            return frozenset()
        inside = {id(n) for n in walk(node) if isinstance(n, _SCOPES)}
        return frozenset().union(*(entry[field] for entry in self.scopes
                                   if id(entry[0]) not in inside))


def parameters(state: list, captured, namer) -> tuple[list, callable]:
    """The parameters of a generated function taking `state`, and a maker of the
    statements it starts with.

    A state name that closures read is taken as a parameter of another name and
    assigned to the function's own variable on entry; the parameter is then deleted,
    so that no other local name is bound to the array (a write to `i` is not a write
    to an alias):

        def loop_body(itr, i_1, s):
            nonlocal i
            i = i_1
            del i_1
    """
    cells = [name for name in state if name in captured]
    if not cells:
        return state, list
    renamed = {name: namer.new(name) for name in cells}

    def entry() -> list:
        out = [gast.Nonlocal(names=list(cells))]
        for name in cells:
            out += templates.replace("name = parameter", name=name, parameter=renamed[name])
        out.append(gast.Delete(targets=[gast.Name(id=renamed[name], ctx=gast.Del(),
                                                  annotation=None, type_comment=None)
                                        for name in cells]))
        return out
    return [renamed.get(name, name) for name in state], entry
