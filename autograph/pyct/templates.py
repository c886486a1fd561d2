"""Code built from source templates: write Python with placeholders, get gast nodes.

>>> import gast
>>> stmts = replace("target = ag__.not_(value)", target="done", value=gast.parse("x > 1").body[0].value)
>>> from autograph.pyct.loader import to_source
>>> print(to_source(gast.Module(body=stmts, type_ignores=[])))
done = ag__.not_(x > 1)

A placeholder is an identifier of the template. Its replacement may be a
name (str), an expression node, a list of names (becomes a tuple, or the
parameters of a `def`), or a list of statements (where the placeholder stands
alone as a statement, or is the body of a block).
"""
from __future__ import annotations

import ast
import copy
import functools
import textwrap

import gast

from .to_gast import to_gast
from .transformer import ExpressionTransformer


def _name(identifier: str, ctx):
    return gast.Name(id=identifier, ctx=ctx, annotation=None, type_comment=None)


def _with_ctx(node, ctx):
    """`node` (changed in place) used with `ctx` (Load, Store, ...)."""
    if isinstance(node, (gast.Name, gast.Attribute, gast.Subscript, gast.Starred)):
        node.ctx = ctx
    elif isinstance(node, (gast.Tuple, gast.List)):
        node.ctx = ctx
        node.elts = [_with_ctx(e, ctx) for e in node.elts]
    return node


def _as_expr(value, ctx, fresh):
    if isinstance(value, str):
        return _name(value, ctx)
    if isinstance(value, (list, tuple)):
        return gast.Tuple(elts=[_as_expr(v, ctx, True) for v in value], ctx=ctx)
    if not fresh:
        value = copy.deepcopy(value)
    return _with_ctx(value, ctx)


class _Replacer(ExpressionTransformer):
    """Replaces placeholders; a node replacement is moved in once, copied after that."""

    def __init__(self, replacements):
        self.replacements = replacements
        self.used: set[str] = set()

    def _first_use(self, key) -> bool:
        first = key not in self.used
        self.used.add(key)
        return first

    def visit_Name(self, node):
        if node.id in self.replacements:
            return _as_expr(self.replacements[node.id], node.ctx, self._first_use(node.id))
        return node

    def visit_Expr(self, node):
        value = node.value
        if isinstance(value, gast.Name) and value.id in self.replacements:
            replacement = self.replacements[value.id]
            if isinstance(replacement, list) and (not replacement or isinstance(replacement[0], gast.stmt)):
                if self._first_use(value.id):
                    return list(replacement)
                return [copy.deepcopy(s) for s in replacement]
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        replacement = self.replacements.get(node.name)
        if isinstance(replacement, str):
            node.name = replacement
        args = []
        for arg in node.args.args:
            value = self.replacements.get(arg.id)
            names = [value] if isinstance(value, str) else value if value is not None else [arg.id]
            args.extend(_name(n, gast.Param()) for n in names)
        node.args.args = []  # the parameters are final: a user's name may equal a placeholder
        self.generic_visit(node)
        node.args.args = args
        return node


def _clone(node):
    """A fresh copy of a template tree, without locations (faster than `copy.deepcopy`: no
    memo needed; and than calling each node's class, whose `__init__` is Python code)."""
    kind = type(node)
    new = kind.__new__(kind)
    fields = new.__dict__
    for field in kind._fields:
        value = getattr(node, field)
        if type(value) is list:
            value = [_clone(item) if isinstance(item, gast.AST) else item for item in value]
        elif isinstance(value, gast.AST):
            value = _clone(value)
        fields[field] = value
    return new


@functools.lru_cache(maxsize=256)
def _parsed(template: str):
    return to_gast(ast.parse(_dedent(template)))   # gast.parse's tree, sooner


def replace(template: str, **replacements) -> list:
    """The statements of `template` with its placeholders replaced."""
    module = _clone(_parsed(template))  # parsed once per template, copied per use
    module = _Replacer(replacements).visit(module)
    return module.body


def replace_as_expression(template: str, **replacements):
    """The single expression of `template` with its placeholders replaced."""
    (statement,) = replace(template, **replacements)
    return statement.value


def _dedent(text: str) -> str:
    return textwrap.dedent(text).strip("\n")
