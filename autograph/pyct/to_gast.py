"""Python `ast` trees as gast trees, in one pass (`gast.ast_to_gast`'s result, faster).

`gast.ast_to_gast` goes through a generic `NodeTransformer`; this one looks each
node type's fields up once and fills each new node's attributes at once, without
its class's `__init__` (Python code in gast). As gast does, a parameter (`ast.arg`) becomes a
`Name` in the `Param` context, an `except ... as e` name a `Name` in the
`Store` context, and a field the Python version lacks (`type_params` before
3.12) is empty.

>>> import ast
>>> node = to_gast(ast.parse("def f(x):\\n    return x").body[0])
>>> type(node.args.args[0]).__name__, type(node.args.args[0].ctx).__name__
('Name', 'Param')
"""
from __future__ import annotations

import ast

import gast

_layouts: dict = {}   # ast type -> (gast type, its fields)


def _layout(kind):
    layout = _layouts.get(kind)
    if layout is None:
        target = getattr(gast, kind.__name__)
        layout = _layouts[kind] = (target, target._fields)
    return layout


def to_gast(node):
    """The gast tree of `node` (a Python `ast` node)."""
    if isinstance(node, ast.AST):
        return _convert(node)
    if isinstance(node, list):
        return [to_gast(n) for n in node]
    return node


def _convert(node):
    kind = type(node)
    if kind is ast.Name:
        new = gast.Name.__new__(gast.Name)
        fields = {"id": node.id, "ctx": _convert(node.ctx), "annotation": None,
                  "type_comment": None}
    elif kind is ast.arg:
        new = gast.Name.__new__(gast.Name)
        fields = {"id": node.arg, "ctx": gast.Param(), "annotation": to_gast(node.annotation),
                  "type_comment": node.type_comment}
    elif kind is ast.ExceptHandler and node.name:
        new = gast.ExceptHandler.__new__(gast.ExceptHandler)
        fields = {"type": to_gast(node.type), "name": gast.Name(node.name, gast.Store(), None, None),
                  "body": to_gast(node.body)}
    else:
        target, names = _layout(kind)
        new = target.__new__(target)
        values = node.__dict__   # where the parser put the fields (read before `getattr`)
        fields = {}
        for field in names:
            value = values.get(field, _MISSING)
            if value is _MISSING:
                value = getattr(node, field, _MISSING)
                if value is _MISSING:
                    value = [] if field == "type_params" else None
            if type(value) is list:
                value = [_convert(v) if isinstance(v, ast.AST) else v for v in value]
            elif isinstance(value, ast.AST):
                value = _convert(value)
            fields[field] = value
    for attribute in kind._attributes:
        value = getattr(node, attribute, _MISSING)
        if value is not _MISSING:
            fields[attribute] = value
    new.__dict__.update(fields)   # what the gast class's `__init__` (Python code) would set
    return new


_MISSING = object()
