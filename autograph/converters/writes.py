"""Item, attribute and global writes: each rebinds the local name it writes through.

    x[i] = v      ->  x = ag__.setitem(x, i, v, 'x')
    x[i] += v     ->  x = ag__.setitem(x, i, ag__.augmented(x[i], '+', v), 'x')
    obj.a = v     ->  obj = ag__.setattr_(obj, 'a', v, 'obj')
    a.b[i] = v    ->  a = ag__.setattr_(a, 'b', ag__.setitem(a.b, i, v, 'a.b'), 'a')
    x[i], x[j] = x[j], x[i]   ->  item, item_1 = x[j], x[i]
                                  x = ag__.setitem(x, i, item, 'x'); x = ...(x, j, item_1, 'x')
    g = v         ->  ag__.check_global_write('g'); g = v     (g declared global/nonlocal)

The root of the target (`x`, `obj`, `a`) is rebound when it is a local name of
the function (a parameter or a name it assigns), so activity analysis sees it
modified and a staged block carries it as state. On plain values the operators
write in place as Python does and return the same object; on a traced array
`setitem` returns the functionally updated array. A root that is not a local
name (global, free, an expression such as `f()`) is written through, not rebound.
A slice in the index becomes `ag__.slice_(a, b, c)`, so any subscript gives valid code.
"""
from __future__ import annotations

import ast
import copy

import gast

from ..pyct import templates
from ..pyct.activity import activity
from ..pyct.transformer import StatementTransformer, walk
from ._state import declared_outer


_SYMBOLS = {gast.Add: "+", gast.Sub: "-", gast.Mult: "*", gast.MatMult: "@", gast.Div: "/",
            gast.FloorDiv: "//", gast.Mod: "%", gast.Pow: "**", gast.LShift: "<<",
            gast.RShift: ">>", gast.BitOr: "|", gast.BitXor: "^", gast.BitAnd: "&"}


def _label(node) -> gast.Constant:
    return gast.Constant(value=ast.unparse(gast.gast_to_ast(node)), kind=None)


def _index(node):
    """A subscript's index as an expression: `1:, ::2` -> `(ag__.slice_(1, None, None), ...)`."""
    if isinstance(node, gast.Slice):
        bounds = [b if b is not None else gast.Constant(value=None, kind=None)
                  for b in (node.lower, node.upper, node.step)]
        return templates.replace_as_expression("ag__.slice_(a, b, c)", a=bounds[0], b=bounds[1],
                                               c=bounds[2])
    if isinstance(node, gast.Tuple):
        return gast.Tuple(elts=[_index(e) for e in node.elts], ctx=gast.Load())
    return node


def _load(node):
    return templates.replace_as_expression("target", target=copy.deepcopy(node))


def _write(target, value):
    """The expression writing `value` into `target`, and the root it writes through."""
    inner = target.value
    if isinstance(target, gast.Subscript):
        call = templates.replace_as_expression(
            "ag__.setitem(obj, index, value, label)", obj=_load(inner),
            index=_index(copy.deepcopy(target.slice)), value=value, label=_label(inner))
    else:
        call = templates.replace_as_expression(
            "ag__.setattr_(obj, name, value, label)", obj=_load(inner),
            name=gast.Constant(value=target.attr, kind=None), value=value, label=_label(inner))
    if isinstance(inner, (gast.Subscript, gast.Attribute)):  # a.b[i] = v: a.b = (a.b)[i <- v]
        return _write(inner, call)
    return call, inner


def local_names(function) -> set:
    """The parameters of `function` and the names it assigns, less global/nonlocal ones."""
    if not isinstance(function, (gast.FunctionDef, gast.AsyncFunctionDef)):
        return set()
    scope = activity(function.body)
    params = {n.id for n in walk(function.args) if isinstance(n, gast.Name)}
    return (params | scope.modified) - scope.declared_nonlocal


def _writes_in(target) -> bool:
    """True where `target` (a tuple of them, say) writes an item or an attribute."""
    return any(isinstance(n, (gast.Subscript, gast.Attribute)) and isinstance(n.ctx, gast.Store)
               for n in walk(target))


class _Writes(StatementTransformer):
    def __init__(self, outer, local, namer):
        self.outer = outer
        self.local = local
        self.namer = namer

    def visit_FunctionDef(self, node):
        outer_local, self.local = self.local, local_names(node)
        try:
            return self.generic_visit(node)
        finally:
            self.local = outer_local

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        outer_local, self.local = self.local, set()
        try:
            return self.generic_visit(node)
        finally:
            self.local = outer_local

    def visit_Assign(self, node):
        if not any(map(_writes_in, node.targets)):
            return self._check_outer(node, node.targets)
        if len(node.targets) == 1:
            return self._assign(node.targets[0], node.value)
        value = self.namer.new("value")  # a[0] = b[0] = v: v once, then each target in order
        out = templates.replace("value = expression", value=value, expression=node.value)
        for target in node.targets:
            out += self._assign(target, gast.Name(id=value, ctx=gast.Load(), annotation=None,
                                                  type_comment=None))
        return out

    def _assign(self, target, value) -> list:
        """Statements assigning `value` to `target`, its writes through the operators."""
        if isinstance(target, (gast.Subscript, gast.Attribute)):
            call, root = _write(target, value)
            if isinstance(root, gast.Name) and root.id in self.local:
                return templates.replace("root = call", root=root.id, call=call)
            return [gast.Expr(value=call)]
        if not isinstance(target, (gast.Tuple, gast.List)) or not _writes_in(target):
            return self._check_outer_list(gast.Assign(targets=[target], value=value,
                                                      type_comment=None), [target])
        # x[i], x[j] = v: unpacked into fresh names (as Python unpacks), then written in order
        items = [self.namer.new("item") for _ in target.elts]
        unpacked = [gast.Starred(value=gast.Name(id=n, ctx=gast.Store(), annotation=None,
                                                 type_comment=None), ctx=gast.Store())
                    if isinstance(e, gast.Starred) else n for e, n in zip(target.elts, items)]
        out = templates.replace("items = value", items=gast.Tuple(elts=[
            u if not isinstance(u, str) else gast.Name(id=u, ctx=gast.Store(), annotation=None,
                                                       type_comment=None) for u in unpacked],
            ctx=gast.Store()), value=value)
        for element, name in zip(target.elts, items):
            element = element.value if isinstance(element, gast.Starred) else element
            out += self._assign(element, gast.Name(id=name, ctx=gast.Load(), annotation=None,
                                                   type_comment=None))
        return out

    def _check_outer_list(self, node, targets) -> list:
        checked = self._check_outer(node, targets)
        return checked if isinstance(checked, list) else [checked]

    def visit_AugAssign(self, node):
        target = node.target
        if isinstance(target, (gast.Subscript, gast.Attribute)):  # x[i] = x[i] += v
            value = templates.replace_as_expression(
                "ag__.augmented(target, op, value)", target=_load(target), value=node.value,
                op=gast.Constant(value=_SYMBOLS[type(node.op)], kind=None))
            return self.visit_Assign(gast.Assign(targets=[target], value=value,
                                                 type_comment=None))
        return self._check_outer(node, [target])

    def _check_outer(self, node, targets):
        names = [n.id for t in targets for n in walk(t)
                 if isinstance(n, gast.Name) and n.id in self.outer]
        checks = [s for name in names for s in templates.replace(
            "ag__.check_global_write(name)", name=gast.Constant(value=name, kind=None))]
        return checks + [node] if checks else node


def transform(node, ctx):
    return _Writes(declared_outer(node), set(), ctx.namer).visit(node)
