"""Nested structures: tuples, lists, dicts and namedtuples of leaves.

`flatten` returns the leaves in order and a hashable `TreeDef` that rebuilds
the structure, so nested arguments key caches and nested results come back in
the shape the user's function returned. A class may join in by defining
`__tree_flatten__(self) -> (children, aux)` and classmethod
`__tree_unflatten__(aux, children)`.

>>> leaves, tree = flatten({"a": (1, 2), "b": [3]})
>>> leaves
[1, 2, 3]
>>> tree.unflatten([10, 20, 30])
{'a': (10, 20), 'b': [30]}
"""
from __future__ import annotations


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


class TreeDef:
    """The structure of a nested value. Hashable and comparable."""

    __slots__ = ("kind", "meta", "children", "num_leaves", "_hash")

    def __init__(self, kind, meta, children):
        self.kind = kind          # "leaf", "tuple", "list", "dict", "namedtuple", "custom"
        self.meta = meta          # dict keys, namedtuple class, or (class, aux)
        self.children = children
        self.num_leaves = 1 if kind == "leaf" else sum(c.num_leaves for c in children)
        self._hash = hash((kind, meta, children))

    def __eq__(self, other):
        return (isinstance(other, TreeDef) and self._hash == other._hash
                and self.kind == other.kind and self.meta == other.meta
                and self.children == other.children)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        if self.kind == "leaf":
            return "*"
        inner = ", ".join(map(repr, self.children))
        if self.kind == "dict":
            inner = ", ".join(f"{k!r}: {c!r}" for k, c in zip(self.meta, self.children))
            return "{" + inner + "}"
        if self.kind == "namedtuple":
            return f"{self.meta.__name__}({inner})"
        if self.kind == "custom":
            return f"{self.meta[0].__name__}({inner})"
        return f"[{inner}]" if self.kind == "list" else f"({inner})"

    def unflatten(self, leaves):
        it = iter(leaves)
        return self._build(it)

    def _build(self, it):
        if self.kind == "leaf":
            return next(it)
        items = [c._build(it) for c in self.children]
        if self.kind == "tuple":
            return tuple(items)
        if self.kind == "list":
            return items
        if self.kind == "dict":
            return dict(zip(self.meta, items))
        if self.kind == "custom":
            cls, aux = self.meta
            return cls.__tree_unflatten__(aux, items)
        return self.meta(*items)

    def to_source(self, leaf_exprs, global_name) -> str:
        """A Python expression building this structure from leaf expressions."""
        return self._source(iter(leaf_exprs), global_name)

    def _source(self, it, global_name):
        if self.kind == "leaf":
            return next(it)
        items = [c._source(it, global_name) for c in self.children]
        if self.kind == "tuple":
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
        if self.kind == "list":
            return f"[{', '.join(items)}]"
        if self.kind == "dict":
            keys = [global_name(k, "key") for k in self.meta]
            return "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, items)) + "}"
        if self.kind == "custom":
            cls, aux = self.meta
            rebuild = global_name(cls.__tree_unflatten__, "unflatten")
            return f"{rebuild}({global_name(aux, 'aux')}, [{', '.join(items)}])"
        return f"{global_name(self.meta, 'nt')}({', '.join(items)})"


LEAF = TreeDef("leaf", None, ())


def flatten(x, is_leaf=None):
    """(leaves, treedef) of a nested value; `is_leaf(x)` may stop the walk early."""
    leaves: list = []
    return leaves, _flatten(x, leaves, is_leaf)


def _flatten(x, leaves, is_leaf):
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return LEAF
    kind = type(x)
    if kind is tuple or kind is list:
        children = tuple(_flatten(c, leaves, is_leaf) for c in x)
        return TreeDef("tuple" if kind is tuple else "list", None, children)
    if kind is dict:
        keys = tuple(x)  # insertion order, which the function may observe
        children = tuple(_flatten(x[k], leaves, is_leaf) for k in keys)
        return TreeDef("dict", keys, children)
    if _is_namedtuple(x):
        children = tuple(_flatten(c, leaves, is_leaf) for c in x)
        return TreeDef("namedtuple", type(x), children)
    custom = getattr(kind, "__tree_flatten__", None)
    if custom is not None:
        parts, aux = custom(x)
        children = tuple(_flatten(c, leaves, is_leaf) for c in parts)
        return TreeDef("custom", (kind, aux), children)
    leaves.append(x)
    return LEAF


def leaf_paths(treedef: TreeDef, prefix: str = "") -> list[str]:
    """A readable path per leaf, like `x[0]['a']`, for error messages."""
    if treedef.kind == "leaf":
        return [prefix]
    keys = treedef.meta if treedef.kind == "dict" else range(len(treedef.children))
    if treedef.kind == "namedtuple":
        keys = [f".{f}" for f in treedef.meta._fields]
        return [p for k, c in zip(keys, treedef.children) for p in leaf_paths(c, prefix + k)]
    return [p for k, c in zip(keys, treedef.children) for p in leaf_paths(c, f"{prefix}[{k!r}]")]
