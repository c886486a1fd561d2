"""Activity analysis: which names a piece of code reads and which it modifies.

Nested functions, lambdas and comprehensions are their own scopes: the names
they read from outside count as reads; their own locals do not count.

>>> import gast
>>> scope = activity(gast.parse("y = x + 1\\nz += y").body)
>>> sorted(scope.read), sorted(scope.modified)
(['x', 'y', 'z'], ['y', 'z'])

Writing a local array in place modifies it too: `t.fill(v)`, `t.sort()` and
`np.add(a, b, out=t)` (as `t += 1` does), so a staged block carries `t`
(`in_place` says which names only such a call modified: `np.sort(x)` names the
module `np`, which is no local array).

>>> sorted(activity(gast.parse("t.fill(0); np.add(t, 1, out=u)").body).modified)
['t', 'u']
"""
from __future__ import annotations

import contextlib
import dataclasses

import gast

from .transformer import ExpressionVisitor, walk


IN_PLACE_METHODS = frozenset({"fill", "sort", "partition", "put"})  # `t.fill(v)`: writes t


@dataclasses.dataclass
class Scope:
    """Names read and names modified (assigned, deleted, imported, defined)."""

    read: set = dataclasses.field(default_factory=set)
    modified: set = dataclasses.field(default_factory=set)
    declared_nonlocal: set = dataclasses.field(default_factory=set)
    in_place: set = dataclasses.field(default_factory=set)   # modified by `t.sort()`, `out=t`


class _Activity(ExpressionVisitor):
    def __init__(self):
        self.scope = Scope()
        self.walrus = set()  # names bound by `:=`: a comprehension's binds them outside it

    def visit_Name(self, node):
        if isinstance(node.ctx, gast.Load):
            self.scope.read.add(node.id)
        else:
            self.scope.modified.add(node.id)

    def visit_NamedExpr(self, node):
        self.walrus.add(node.target.id)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if isinstance(node.target, gast.Name):
            self.scope.read.add(node.target.id)
        self.generic_visit(node)

    def visit_Call(self, node):
        func = node.func
        if (isinstance(func, gast.Attribute) and func.attr in IN_PLACE_METHODS
                and isinstance(func.value, gast.Name)):
            self.scope.modified.add(func.value.id)
            self.scope.in_place.add(func.value.id)
        for keyword in node.keywords:
            if keyword.arg == "out":
                targets = keyword.value.elts if isinstance(
                    keyword.value, gast.Tuple) else [keyword.value]
                names = {t.id for t in targets if isinstance(t, gast.Name)}
                self.scope.modified.update(names)
                self.scope.in_place.update(names)
        self.generic_visit(node)

    def visit_Global(self, node):
        self.scope.declared_nonlocal.update(node.names)

    visit_Nonlocal = visit_Global

    def visit_Import(self, node):
        for alias in node.names:
            self.scope.modified.add((alias.asname or alias.name).split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_FunctionDef(self, node):
        self.scope.modified.add(node.name)
        for expr in node.decorator_list + node.args.defaults + [
                d for d in node.args.kw_defaults if d is not None]:
            self.visit(expr)
        self._nested(node.args, node.body)

    def visit_Lambda(self, node):
        for expr in node.args.defaults:
            self.visit(expr)
        self._nested(node.args, [node.body])

    def visit_ClassDef(self, node):
        self.scope.modified.add(node.name)
        for expr in node.bases + node.decorator_list:
            self.visit(expr)

    def _comprehension(self, node, elements):
        inner = _Activity()
        for generator in node.generators:
            inner.visit(generator)
        for element in elements:
            inner.visit(element)
        self.scope.read |= inner.scope.read - inner.scope.modified
        self.scope.modified |= inner.walrus
        self.walrus |= inner.walrus
        # The first iterable is evaluated in the enclosing scope.
        self.visit(node.generators[0].iter)

    def visit_ListComp(self, node):
        self._comprehension(node, [node.elt])

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node):
        self._comprehension(node, [node.key, node.value])

    def _nested(self, args, body):
        inner = _Activity()
        inner.visit(args)
        for statement in body:
            inner.visit(statement)
        local = inner.scope.modified - inner.scope.declared_nonlocal
        self.scope.read |= inner.scope.read - local
        self.scope.modified |= inner.scope.modified & inner.scope.declared_nonlocal


_memo: dict | None = None


@contextlib.contextmanager
def memoized():
    """Within the block, each node's scope is computed once (the tree must not change
    under a node whose scope was asked for)."""
    global _memo
    outer, _memo = _memo, {}
    try:
        yield
    finally:
        _memo = outer


def _scope_of(node) -> Scope:
    if _memo is not None:
        hit = _memo.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
    visitor = _Activity()
    visitor.visit(node)
    if _memo is not None:
        _memo[id(node)] = (node, visitor.scope)  # holding node keeps its id unique
    return visitor.scope


def activity(nodes) -> Scope:
    """The `Scope` of a node or a list of nodes."""
    nodes = nodes if isinstance(nodes, list) else [nodes]
    if len(nodes) == 1:
        return _scope_of(nodes[0])
    scope = Scope()
    for node in nodes:
        part = _scope_of(node)
        scope.read |= part.read
        scope.modified |= part.modified
        scope.declared_nonlocal |= part.declared_nonlocal
        scope.in_place |= part.in_place
    return scope


def reads(node) -> set:
    return activity(node).read


def modified(nodes) -> set:
    return activity(nodes).modified


def binds(nodes) -> set:
    """The names the code binds: `modified`, less those only written in place
    (`x = np.sort(x)` binds `x`, not `np`; `t.sort()` binds nothing)."""
    scope = activity(nodes)
    if not scope.in_place:
        return scope.modified
    nodes = nodes if isinstance(nodes, list) else [nodes]
    stored = {n.id for node in nodes for n in walk(node)
              if isinstance(n, gast.Name) and not isinstance(n.ctx, gast.Load)}
    return scope.modified - (scope.in_place - stored)
