"""`StatementTransformer`: a NodeTransformer that walks statements only.

Statement converters (`if`, loops, jumps, writes) never look inside
expressions, so skipping them makes each pass several times faster than
`gast.NodeTransformer`. `visit_<Type>(node)` returns a node, a list of nodes
(spliced into the block) or None (removed); `generic_visit` visits the
blocks of a compound statement (`body`, `orelse`, `finalbody`, handlers).

`ExpressionVisitor` and `ExpressionTransformer` walk whole trees, leaner than
gast's; `walk` and `children` are `gast.walk` and `gast.iter_child_nodes`
without generators made per node.
"""
from __future__ import annotations

import gast
from gast import AST, Constant, Name


class StatementTransformer:
    def visit(self, node):
        method = getattr(self, f"visit_{type(node).__name__}", None)
        if method is not None:
            return method(node)
        return self.generic_visit(node)

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                setattr(node, field, self.visit_block(block))
        for handler in getattr(node, "handlers", ()):
            handler.body = self.visit_block(handler.body)
        return node

    def visit_block(self, statements: list) -> list:
        out = []
        for statement in statements:
            result = self.visit(statement)
            if isinstance(result, list):
                out.extend(result)
            elif result is not None:
                out.append(result)
        return out


def walk(node):
    """Every node in `node`'s tree, in `ast.walk`'s order (breadth first), lazily: the
    same as `gast.walk`, without two generators made per node."""
    todo = [node]
    for node in todo:   # grows as it goes
        _add_children(node, todo)
        yield node


def children(node) -> list:
    """The nodes directly inside `node`, in `gast.iter_child_nodes`'s order."""
    found = []
    _add_children(node, found)
    return found


def _add_children(node, out: list) -> None:
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, AST):
                    out.append(item)
        elif isinstance(value, AST):
            out.append(value)


def statements(node):
    """Every statement inside `node` (a statement or a list of them), in source order."""
    stack = list(reversed(node)) if isinstance(node, list) else [node]
    while stack:
        statement = stack.pop()
        yield statement
        if getattr(statement, "body", None) is None:
            continue   # a simple statement (every compound one has a body)
        blocks = [getattr(statement, f, None) for f in ("body", "orelse", "finalbody")]
        blocks += [handler.body for handler in getattr(statement, "handlers", ())]
        for block in reversed([b for b in blocks if isinstance(b, list)]):
            stack.extend(reversed(block))


_CHILDLESS = frozenset(name for name, kind in vars(gast).items()
                       if isinstance(kind, type) and issubclass(kind, AST) and not kind._fields)


def _inside(node) -> bool:
    """Whether `node` may hold other nodes (a `Constant`, a context or an operator never
    does; nor does a `Name` but a parameter's with an annotation)."""
    kind = type(node)
    return kind is not Constant and bool(kind._fields) and (
        kind is not Name or node.annotation is not None)


class ExpressionVisitor:
    """A lean `gast.NodeVisitor`: `visit_<Type>` methods looked up once per type.

    A node with nothing inside it (a context such as `Load`, an operator such as
    `Add`, a `Constant`, a `Name` without an annotation) is not visited unless
    the class has a `visit_<Type>` for it: more than half of a tree's nodes are such.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._methods = {}
        visited = {name[len("visit_"):] for name in dir(cls) if name.startswith("visit_")}
        if visited & _CHILDLESS:
            visited.add("Name")   # a Name holds its context (`Load`)
        cls._visited = frozenset(visited)

    def visit(self, node):
        kind = type(node)
        method = self._methods.get(kind, False)
        if method is False:
            method = self._methods[kind] = getattr(type(self), f"visit_{kind.__name__}", None)
        if method is not None:
            return method(self, node)
        return self.generic_visit(node)

    def generic_visit(self, node):
        visited = self._visited
        for field in node._fields:
            value = getattr(node, field)
            if type(value) is list:
                for item in value:
                    if isinstance(item, AST) and (type(item).__name__ in visited or _inside(item)):
                        self.visit(item)
            elif isinstance(value, AST) and (type(value).__name__ in visited or _inside(value)):
                self.visit(value)


class ExpressionTransformer(ExpressionVisitor):
    """A lean `gast.NodeTransformer`: the same `visit_<Type>` protocol, less overhead.

    Visitor methods are looked up once per node type, and children are read
    from `_fields` directly, which makes a full walk about twice as fast.
    """

    def generic_visit(self, node):
        visited = self._visited
        for field in node._fields:
            value = getattr(node, field)
            if type(value) is list:
                new = []
                for item in value:
                    if isinstance(item, AST) and (type(item).__name__ in visited or _inside(item)):
                        item = self.visit(item)
                        if item is None:
                            continue
                        if type(item) is list:
                            new.extend(item)
                            continue
                    new.append(item)
                value[:] = new
            elif isinstance(value, AST) and (type(value).__name__ in visited or _inside(value)):
                replacement = self.visit(value)
                if replacement is not value:
                    setattr(node, field, replacement)
        return node
