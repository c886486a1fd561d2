"""Writes that a staged block cannot repeat: items, attributes, globals.

    x[i] = v     ->  ag__.setitem(x, i, v, 'x')          (x[i] += v: x[i] = x[i] + v)
    obj.a = v    ->  ag__.setattr_(obj, 'a', v, 'obj')
    g = v        ->  ag__.check_global_write('g'); g = v     (g declared global/nonlocal)

At run time these write as Python does, and raise `ConversionError` inside an
`if` or loop on a traced value (traced once, such a write would happen once).
"""
from __future__ import annotations

import ast

import gast

from ..pyct import templates
from ..pyct.transformer import StatementTransformer
from ._state import declared_outer


def _label(node) -> gast.Constant:
    return gast.Constant(value=ast.unparse(gast.gast_to_ast(node)), kind=None)


class _Writes(StatementTransformer):
    def __init__(self, outer):
        self.outer = outer

    def visit_Assign(self, node):
        if len(node.targets) != 1:
            return node
        target = node.targets[0]
        if isinstance(target, gast.Subscript):
            return templates.replace("ag__.setitem(obj, index, value, label)", obj=target.value,
                                     index=target.slice, value=node.value,
                                     label=_label(target.value))
        if isinstance(target, gast.Attribute):
            return templates.replace("ag__.setattr_(obj, name, value, label)", obj=target.value,
                                     name=gast.Constant(value=target.attr, kind=None),
                                     value=node.value, label=_label(target.value))
        return self._check_outer(node, [target])

    def visit_AugAssign(self, node):
        target = node.target
        if isinstance(target, (gast.Subscript, gast.Attribute)):  # x[i] += v: x[i] = x[i] + v
            load = templates.replace_as_expression("target", target=target)
            value = gast.BinOp(left=load, op=node.op, right=node.value)
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
    return _Writes(declared_outer(node)).visit(node)
