"""Functions made inside a loop or an `if` that read a variable assigned again later: refused.

Python's closures read a variable when they are called ("late binding"): each
`lambda v: v + k` made in `for k in range(3)` (or `[lambda v: v + k for k in ...]`)
sees the last `k` once the loop is over. A converted loop's body is a function of
its own, run once per trip, so a closure made there would keep its own trip's `k`:
a different answer. Such a closure that outlives its trip (stored, appended,
returned, the element of a comprehension) is a `ConversionError` naming it, so a
call runs eagerly (`autograph.eager_fallback`); one called where it is made
(`f(lambda r: r * k)`, a `key=`, `(lambda: k)()`) sees the same `k` either way and
is converted. The branches of an `if` are functions of their own too: a closure
made in one that reads a name the function binds again after it is refused alike.
"""
from __future__ import annotations

import gast

from .pyct.errors import ConversionError

_LOOPS = (gast.For, gast.While, gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_FUNCTIONS = (gast.Lambda, gast.FunctionDef)
_STORING_METHODS = {"append", "extend", "insert", "add", "setdefault", "update", "put"}


def refuse_late_binding(function_node, nodes: list, filename: str) -> None:
    """Raises `ConversionError` at the first closure made in a loop of `function_node` (whose
    nodes, itself first, are `nodes`) that reads a variable the loop assigns and outlives
    the trip that made it."""
    if not any(isinstance(n, _FUNCTIONS) for n in nodes[1:]) or \
            not any(isinstance(n, _LOOPS + (gast.If,)) for n in nodes):
        return
    parents = {id(child): node for node in nodes for child in gast.iter_child_nodes(node)}
    stores = [(n.lineno, n.id) for n in _walk_outside_functions(function_node.body)
              if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)]
    for block in nodes:
        if isinstance(block, _LOOPS):
            closures, assigned = _closures_in(block), _assigned_in(block)
        elif isinstance(block, gast.If):   # its branches are functions too: a name the
            closures = [n for part in block.body + block.orelse   # function binds again
                        for n in gast.walk(part) if isinstance(n, _FUNCTIONS)]  # later
            assigned = None
        else:
            continue
        for closure in closures:
            if assigned is not None:
                read = _free_names(closure) & assigned
                kept = _outlives_trip(closure, parents, function_node)
            else:   # an `if`: used after a name it reads is bound again
                rebound = {name: line for line, name in sorted(stores, reverse=True)
                           if line > closure.lineno}   # each name's first line after it
                read = _free_names(closure) & set(rebound)
                kept = _used_after(closure, min((rebound[n] for n in read), default=0),
                                   parents, function_node)
            if read and kept:
                name = sorted(read)[0]
                raise ConversionError(
                    f"a function made inside a loop or an `if` reads {name!r}, which is "
                    f"assigned again after it (at {filename}:{closure.lineno}): Python reads "
                    f"it when the function is called (its last value), converted code when "
                    f"the function is made; bind it as a default (`lambda v, {name}={name}: "
                    f"...`) to keep the value it has there")


def _assigned_in(loop) -> set:
    """The names a loop (or a comprehension's targets) binds, outside functions in it."""
    targets = [g.target for g in loop.generators] if hasattr(loop, "generators") else \
        [loop.target] if isinstance(loop, gast.For) else []
    names = {n.id for t in targets for n in gast.walk(t) if isinstance(n, gast.Name)}
    body = loop.body if isinstance(loop, (gast.For, gast.While)) else []
    for node in _walk_outside_functions(body):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
            names.add(node.id)
    return names


def _walk_outside_functions(nodes):
    stack = list(nodes)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _FUNCTIONS):
            stack.extend(gast.iter_child_nodes(node))


def _closures_in(loop) -> list:
    parts = loop.body if isinstance(loop, (gast.For, gast.While)) else \
        [getattr(loop, name) for name in ("elt", "key", "value") if hasattr(loop, name)] + \
        [cond for g in loop.generators for cond in g.ifs]
    return [node for part in parts for node in gast.walk(part) if isinstance(node, _FUNCTIONS)]


def _free_names(closure) -> set:
    """Names the closure's body reads that it does not bind itself."""
    args = closure.args
    bound = {a.id for a in args.args + args.posonlyargs + args.kwonlyargs
             + [a for a in (args.vararg, args.kwarg) if a is not None]}
    body = [closure.body] if isinstance(closure, gast.Lambda) else closure.body
    loads, stores = set(), set(bound)
    for node in (n for part in body for n in gast.walk(part)):
        if isinstance(node, gast.Name):
            (loads if isinstance(node.ctx, gast.Load) else stores).add(node.id)
    return loads - stores


def _outlives_trip(closure, parents: dict, function_node) -> bool:
    """Whether the closure may be called after the trip that made it: not a function
    called at once, or passed to a call that does not store it (a `def`, or a lambda
    bound to a name, by every use of the name)."""
    name = _bound_name(closure, parents)
    if name is None:
        return not _called_or_passed(closure, parents)
    uses = [n for n in gast.walk(function_node)
            if isinstance(n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Load)]
    return any(not _called_or_passed(use, parents) for use in uses)


def _used_after(closure, line: int, parents: dict, function_node) -> bool:
    """Whether the closure is used after `line` (the uses of its name, where it is bound
    to one; a call on `line` itself reads before the line binds), or may be, stored."""
    name = _bound_name(closure, parents)
    if name is None:
        return not _called_or_passed(closure, parents)
    return any(n.lineno > line or not _called_or_passed(n, parents)
               for n in gast.walk(function_node)
               if isinstance(n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Load))


def _bound_name(closure, parents: dict):
    """The name a `def`, or a lambda assigned to a single name, binds; else None."""
    if isinstance(closure, gast.FunctionDef):
        return closure.name
    parent = parents.get(id(closure))
    if isinstance(parent, gast.Assign) and len(parent.targets) == 1 \
            and isinstance(parent.targets[0], gast.Name):
        return parent.targets[0].id
    return None


def _called_or_passed(node, parents: dict) -> bool:
    parent = parents.get(id(node))
    if isinstance(parent, gast.keyword):
        parent = parents.get(id(parent))
    if not isinstance(parent, gast.Call):
        return False
    if parent.func is node:
        return True
    method = parent.func.attr if isinstance(parent.func, gast.Attribute) else None
    return method not in _STORING_METHODS
