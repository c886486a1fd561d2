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


class _Filler:
    """Copies a template tree with its placeholders replaced, in one pass (the cached tree
    is never changed); a node replacement is moved in once, copied after that."""

    def __init__(self, replacements):
        self.replacements = replacements
        self.used: set[str] = set()

    def _first_use(self, key) -> bool:
        first = key not in self.used
        self.used.add(key)
        return first

    def fill(self, node):
        """The copy of `node`: a node, or a list of statements for a placeholder statement."""
        kind = type(node)
        if kind is gast.Name and node.id in self.replacements:
            return _as_expr(self.replacements[node.id], self.fill(node.ctx),
                            self._first_use(node.id))
        if kind is gast.Expr and type(node.value) is gast.Name \
                and node.value.id in self.replacements:
            replacement = self.replacements[node.value.id]
            if isinstance(replacement, list) and (not replacement or isinstance(replacement[0], gast.stmt)):
                if self._first_use(node.value.id):
                    return list(replacement)
                return [copy.deepcopy(s) for s in replacement]
        if kind is gast.FunctionDef:
            return self._function(node)
        return self._copy(node, kind._fields)

    def _copy(self, node, fields, **given):
        """A node like `node`: the `given` fields as they are, the other `fields` filled."""
        kind = type(node)
        new = kind.__new__(kind)
        values = new.__dict__
        for field in fields:
            values[field] = given[field] if field in given else self._value(getattr(node, field))
        return new

    def _value(self, value):
        if type(value) is list:
            items = []
            for item in value:
                if isinstance(item, gast.AST):
                    item = self.fill(item)
                    if type(item) is list:
                        items.extend(item)
                        continue
                items.append(item)
            return items
        return self.fill(value) if isinstance(value, gast.AST) else value

    def _function(self, node):
        """A `def`: its name and parameters replaced (the parameters are final: a user's
        name may equal a placeholder), the rest filled."""
        name = self.replacements.get(node.name)
        parameters = []
        for arg in node.args.args:
            value = self.replacements.get(arg.id)
            names = [value] if isinstance(value, str) else value if value is not None else [arg.id]
            parameters.extend(_name(n, gast.Param()) for n in names)
        arguments = self._copy(node.args, gast.arguments._fields, args=parameters)
        return self._copy(node, gast.FunctionDef._fields, args=arguments,
                          name=name if isinstance(name, str) else node.name)


@functools.lru_cache(maxsize=256)
def _parsed(template: str):
    return to_gast(ast.parse(_dedent(template)))   # gast.parse's tree, sooner


def replace(template: str, **replacements) -> list:
    """The statements of `template` with its placeholders replaced."""
    return _Filler(replacements).fill(_parsed(template)).body   # parsed once per template


def replace_as_expression(template: str, **replacements):
    """The single expression of `template` with its placeholders replaced."""
    (statement,) = replace(template, **replacements)
    return statement.value


def _dedent(text: str) -> str:
    return textwrap.dedent(text).strip("\n")
