"""gast trees as Python `ast` trees, for printing, in one breadth-first pass.

`gast.gast_to_ast` does the same through a generic `NodeTransformer`; this one
looks each node type's fields up once and builds the tree level by level, so it
also gives the new nodes in `ast.walk`'s order (the loader pairs them with the
nodes of the printed source parsed again). Each node keeps its gast node's
location where it has one (`ast.unparse` reads the line of a `def`, an
assignment, a `for` or a `with`: 1 where none was given), and the user's origin
of its gast node as `_ag_origin`. Contexts and operators (`Load`, `Add`) are one
shared node per kind, as `ast.parse` makes them.

>>> import gast
>>> tree, nodes = to_ast(gast.parse("def f(x, *a):\\n    return x"))
>>> print(ast.unparse(tree))
def f(x, *a):
    return x
>>> [type(n).__name__ for n in nodes][:4]
['Module', 'FunctionDef', 'arguments', 'Return']
"""
from __future__ import annotations

import ast
import functools

import gast

from .anno import Static, getanno

_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")
_fields: dict = {}   # gast type -> (ast node maker, the fields both have, its location attributes)
_shared: set = set()  # gast types of contexts and operators: one ast node stands for them all


def _layout(kind):
    layout = _fields.get(kind)
    if layout is None:
        target = getattr(ast, kind.__name__)
        skip = {"type_comment"} if kind is gast.Assign else set()   # as gast_to_ast drops it
        make = target
        if not target._fields and not target._attributes:   # `Load`, `Add`: nothing to fill,
            make = functools.partial(_same, target())       # one node, as `ast.parse` gives
            _shared.add(kind)
        layout = _fields[kind] = (make, tuple(f for f in target._fields if f not in skip),
                                  tuple(a for a in _LOCATION if a in target._attributes))
    return layout


def _same(node):
    return node


def to_ast(node) -> tuple[ast.AST, list]:
    """(the `ast` tree of gast `node`, its nodes in `ast.walk`'s order)."""
    root = _layout(type(node))[0]()
    queue = [(node, root)]
    for source, target in queue:   # the queue grows as nodes are filled: breadth first
        if type(source) not in _shared:
            _fill(source, target, queue)
    return root, [target for _, target in queue]


def _child(value, queue, as_arg=False):
    if not isinstance(value, gast.AST):
        return value
    new = ast.arg() if as_arg else _layout(type(value))[0]()
    queue.append((value, new))
    return new


def _fill(source, target, queue):
    kind = type(source)
    if target.__class__ is ast.arg:   # gast writes a parameter as a Name
        target.arg = source.id
        target.annotation = _child(source.annotation, queue)
        target.type_comment = source.type_comment
        _locate(source, target, _LOCATION)
        return   # it maps no line (nor does `gast_to_ast`'s)
    _, fields, locations = _layout(kind)
    if kind is gast.arguments or kind is gast.ExceptHandler:
        _fill_parameters(source, target, fields, queue)
    else:
        for field in fields:
            value = getattr(source, field, None)
            if type(value) is list:
                value = [_child(v, queue) for v in value]
            elif isinstance(value, gast.AST):
                new = _layout(type(value))[0]()
                queue.append((value, new))
                value = new
            setattr(target, field, value)
    if locations:
        _locate(source, target, locations)
    origin = getanno(source, Static.ORIGIN)
    if origin is not None:
        target._ag_origin = origin


def _fill_parameters(source, target, fields, queue):
    """The fields of an `arguments` (its parameters become `ast.arg`s) or an
    `ExceptHandler` (its name a string)."""
    kind = type(source)
    for field in fields:
        value = getattr(source, field, None)
        if kind is gast.arguments and field in ("posonlyargs", "args", "kwonlyargs"):
            value = [_child(v, queue, as_arg=True) for v in value]
        elif kind is gast.arguments and field in ("vararg", "kwarg"):
            value = _child(value, queue, as_arg=True)
        elif kind is gast.ExceptHandler and field == "name":
            value = value.id if value is not None else None
        elif type(value) is list:
            value = [_child(v, queue) for v in value]
        else:
            value = _child(value, queue)
        setattr(target, field, value)


def _locate(source, target, attributes):
    for attribute in attributes:
        value = getattr(source, attribute, None)
        if value is not None:
            setattr(target, attribute, value)
        elif attribute == "lineno":
            target.lineno = 1
