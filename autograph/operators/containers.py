"""Dicts, lists and plain objects as trees: what a staged block carries of them.

`pack` rebuilds a value with its containers as trees the runtime flattens
(`runtime.tree`): dicts and lists as themselves, an object of a plain user
class as an `ObjectState` of its attributes. The helpers here read, compare
and set a container's items, whatever its kind (`autograph.operators.composite`
threads them through staged blocks).

>>> from autograph_runtime.tree import flatten
>>> class Point: pass
>>> packed = ObjectState(Point, {"x": 1.0, "y": [2.0]})
>>> leaves, tree = flatten(packed)
>>> leaves
[1.0, 2.0]
>>> tree.unflatten([3.0, 4.0])
ObjectState(Point, {'x': 3.0, 'y': [4.0]})
"""
from __future__ import annotations

import functools
import sys

from autograph_runtime.source import is_user_file


class ObjectState:
    """A plain object packed for a staged block: its class and its attributes."""

    __slots__ = ("cls", "fields")

    def __init__(self, cls, fields: dict):
        self.cls, self.fields = cls, fields

    def __tree_flatten__(self):
        return list(self.fields.values()), (self.cls, tuple(self.fields))

    @classmethod
    def __tree_unflatten__(cls, aux, children):
        return cls(aux[0], dict(zip(aux[1], children)))

    def __repr__(self):
        return f"ObjectState({self.cls.__name__}, {self.fields!r})"


def is_plain_object(value) -> bool:
    """An instance of a user class whose attributes live in its `__dict__` and are set
    as Python sets them (no `__slots__`, no `__setattr__`/`__getattr__` of its own)."""
    return hasattr(value, "__dict__") and not isinstance(value, type) \
        and _plain_class(type(value))


@functools.lru_cache(maxsize=1024)
def _plain_class(cls) -> bool:
    if hasattr(cls, "__tree_flatten__"):
        return False
    for k in cls.__mro__[:-1]:
        own = vars(k)
        if "__slots__" in own or any(m in own for m in _CUSTOM_ACCESS):
            return False
        if k.__module__ == "builtins":   # functions, modules, ...: Python's, not a user's
            return False
        module = sys.modules.get(k.__module__)
        if not is_user_file(getattr(module, "__file__", None) or "<unknown>"):
            return False
    return True


_CUSTOM_ACCESS = ("__setattr__", "__getattr__", "__getattribute__", "__delattr__")


def pack(value, on_container=None, path=(), active=None, cycle_leaf=None):
    """`value` with its dicts, lists and plain objects rebuilt as trees of their parts.

    `on_container(path, container)` is told of each container met. A container
    met again on the way down (a cycle, as `node.parent.child`) is a leaf,
    `cycle_leaf(container)` where given.
    """
    active = set() if active is None else active

    def part(v, key):
        return pack(v, on_container, path + (key,), active, cycle_leaf)
    kind = type(value)
    if kind is tuple or (isinstance(value, tuple) and hasattr(kind, "_fields")):
        items = [part(v, i) for i, v in enumerate(value)]
        return kind(*items) if kind is not tuple else tuple(items)
    if not (kind in (dict, list) or is_plain_object(value)):
        return value
    if id(value) in active:
        return cycle_leaf(value) if cycle_leaf is not None else value
    if on_container is not None:
        on_container(path, value)
    active.add(id(value))
    try:
        if kind is list:
            return [part(v, i) for i, v in enumerate(value)]
        fields = {k: part(v, k) for k, v in (value if kind is dict else vars(value)).items()}
        return fields if kind is dict else ObjectState(kind, fields)
    finally:
        active.discard(id(value))


def items_of(container) -> dict:
    """A container's items by key: a dict's, a list's by index, an object's attributes."""
    kind = type(container)
    return container if kind is dict else dict(enumerate(container)) if kind is list \
        else container.fields if kind is ObjectState else vars(container)


def contents(container):
    """What identifies a container's contents: its keys (or length) and its items' ids."""
    return [(k, id(v)) for k, v in items_of(container).items()]


def same_items(a: dict, b: dict) -> bool:
    """The same keys in the same order, bound to the same objects."""
    return len(a) == len(b) and all(k in b and b[k] is v for k, v in a.items()) \
        and list(a) == list(b)


def set_contents(container, items: dict):
    """Makes `container` hold exactly `items` (in place)."""
    if type(container) is list:
        container[:] = list(items.values())
    else:
        target = container if type(container) is dict else vars(container)
        target.clear()
        target.update(items)


def containers_in(value, name: str) -> list:
    """The containers in `value` (itself included), each with its label (`d['a']`, `obj.xs`)."""
    found: dict = {}

    def met(path, container):
        if not path:
            found[path] = (container, name)
            return
        if path[:-1] not in found:  # inside a tuple, which is not a container
            found[path] = (container, name + "".join(f"[{k!r}]" for k in path))
            return
        parent, label = found[path[:-1]]
        key = path[-1]
        found[path] = (container, f"{label}.{key}" if is_plain_object(parent)
                       else f"{label}[{key!r}]")
    pack(value, met)
    return list(found.values())


def difference(a, b, label):
    """A line saying how the containers of `a` and `b` differ in shape, or ''."""
    if type(a) is not type(b) or type(a) not in (dict, list, ObjectState, tuple):
        return ""
    if type(a) is list and len(a) != len(b):
        return f"list {label!r} has length {len(a)} on one path and {len(b)} on another"
    if type(a) is ObjectState and a.cls is not b.cls:
        return ""
    items_a = dict(enumerate(a)) if type(a) in (list, tuple) else \
        a if type(a) is dict else a.fields
    items_b = dict(enumerate(b)) if type(b) in (list, tuple) else \
        b if type(b) is dict else b.fields
    if list(items_a) != list(items_b):
        only = [k for k in items_a if k not in items_b] + [k for k in items_b if k not in items_a]
        what = "attribute" if type(a) is ObjectState else "key"
        if only:
            return f"{what} {only[0]!r} of {label!r} is set on one path and not on another"
        return f"the keys of {label!r} are in a different order on two paths"
    for k in items_a:
        sub = f"{label}.{k}" if type(a) is ObjectState else f"{label}[{k!r}]"
        problem = difference(items_a[k], items_b[k], sub)
        if problem:
            return problem
    return ""


def write_back(target, parts: dict):
    """Makes the user's container `target` hold `parts`, in place."""
    if type(target) is list:
        if len(target) != len(parts) or any(a is not b for a, b in zip(target, parts.values())):
            target[:] = list(parts.values())
        return
    if type(target) is dict:
        if list(target) != list(parts):
            target.clear()
        target.update({k: v for k, v in parts.items() if k not in target or target[k] is not v})
        return
    current = vars(target)
    for key in [k for k in current if k not in parts]:
        delattr(target, key)
    for key, value in parts.items():
        if key not in current or current[key] is not value:
            setattr(target, key, value)
