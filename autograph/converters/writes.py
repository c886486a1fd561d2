"""Item, attribute and global writes: each rebinds the local name it writes through.

    x[i] = v      ->  x = ag__.setitem(x, i, v, 'x')          (x[i] += v: x[i] = x[i] + v)
    obj.a = v     ->  obj = ag__.setattr_(obj, 'a', v, 'obj')
    a.b[i] = v    ->  a = ag__.setattr_(a, 'b', ag__.setitem(a.b, i, v, 'a.b'), 'a')
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
from ..pyct.transformer import StatementTransformer
from ._state import declared_outer


def _label(node) -> gast.Constant:
    return gast.Constant(value=ast.unparse(gast.gast_to_ast(node)), kind=None)


def _index(node):
    """A subscript's index as an expression: `1:, ::2` becomes `(ag__.slice_(1, None, None), ...)`."""
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
    params = {n.id for n in gast.walk(function.args) if isinstance(n, gast.Name)}
    return (params | scope.modified) - scope.declared_nonlocal


class _Writes(StatementTransformer):
    def __init__(self, outer, local):
        self.outer = outer
        self.local = local

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
        if len(node.targets) != 1:
            return node
        target = node.targets[0]
        if isinstance(target, (gast.Subscript, gast.Attribute)):
            call, root = _write(target, node.value)
            if isinstance(root, gast.Name) and root.id in self.local:
                return templates.replace("root = call", root=root.id, call=call)
            return gast.Expr(value=call)
        return self._check_outer(node, [target])

    def visit_AugAssign(self, node):
        target = node.target
        if isinstance(target, (gast.Subscript, gast.Attribute)):  # x[i] += v: x[i] = x[i] + v
            value = gast.BinOp(left=_load(target), op=node.op, right=node.value)
            return self.visit_Assign(gast.Assign(targets=[target], value=value,
                                                 type_comment=None))
        return self._check_outer(node, [target])

    def _check_outer(self, node, targets):
        names = [n.id for t in targets for n in gast.walk(t)
                 if isinstance(n, gast.Name) and n.id in self.outer]
        checks = [s for name in names for s in templates.replace(
            "ag__.check_global_write(name)", name=gast.Constant(value=name, kind=None))]
        return checks + [node] if checks else node


def transform(node, ctx):
    return _Writes(declared_outer(node), set()).visit(node)
