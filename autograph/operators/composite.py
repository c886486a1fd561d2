"""Dicts, lists and plain objects written inside staged blocks, written back in place.

    d = {"n": 0}                 # also lst[i] = v, obj.attr = v, d["a"]["b"] = v
    e = d
    if x > 0:                    # x traced: both branches are traced once
        d["n"] = x               # converted: d = ag__.setitem(d, 'n', x, 'd')
    e["n"]                       # the graph's value of d["n"]: e sees the write

A staged `if` or loop traces its branches or body once, so a write to the
user's own container there would happen once, whichever way the graph goes.
So the containers in a staged block's state (dicts, lists, and objects of
plain user classes, nested ones too) are *threaded*: `Block` packs them into
trees whose leaves the staged primitive carries (an object becomes an
`ObjectState` of its attributes), each trace of a branch or body gets FRESH
copies to write (`setitem`/`setattr_` refuse writes to anything else inside a
staged block), and after the block the results are written back into the
ORIGINAL containers, so aliases and the caller see the change as in Python.

What Python would leave and a graph cannot follow is a `TracingError`: a key,
attribute or list length present after one branch and not the other (or
changed by a staged loop), and a container changed in place on one path and
replaced by a new one on another. A name bound to a new container on every
path gets a fresh container, as `d = {...}` would. Objects of classes that are
not plain (`__slots__`, a custom `__setattr__`/`__getattr__`, library or
builtin classes) are carried as they are; writing their attributes inside a
staged block is refused.
"""
from __future__ import annotations

import functools
import sys
import threading

import numpy as np

from runtime import Tracer, TracingError, current_builder
from runtime.errors import AutographError
from runtime.source import is_library_file, is_user_file, location_note, user_source

from ..pyct.errors import ConversionError
from .lists import TracedList


class ObjectState:
    """A plain object packed for a staged block: its class and its attributes.

    >>> from runtime.tree import flatten
    >>> class Point: pass
    >>> packed = ObjectState(Point, {"x": 1.0, "y": 2.0})
    >>> leaves, tree = flatten(packed)
    >>> leaves
    [1.0, 2.0]
    >>> tree.unflatten([3.0, 4.0])
    ObjectState(Point, {'x': 3.0, 'y': 4.0})
    """

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


class _Frames(threading.local):
    def __init__(self):
        self.stack = []   # one {id(copy): _Copy} per staged body being traced


_frames = _Frames()


class _Copy:
    """A fresh container handed to a trace, standing for `origin` (or None)."""

    __slots__ = ("value", "origin", "snapshot")

    def __init__(self, value, origin):
        self.value, self.origin, self.snapshot = value, origin, _contents(value)

    def changed(self) -> bool:
        return _contents(self.value) != self.snapshot


def _contents(container):
    """What identifies a container's contents: its keys (or length) and its items' ids."""
    items = container if type(container) is dict else \
        dict(enumerate(container)) if type(container) is list else vars(container)
    return [(k, id(v)) for k, v in items.items()]


def _origin_or_self(frame, container):
    copy = frame.get(id(container))
    return copy.origin if copy is not None and copy.origin is not None else container


def is_threaded(target) -> bool:
    """True outside staged blocks, and for the fresh containers the innermost staged
    block being traced threads (which it may write)."""
    return not _frames.stack or id(target) in _frames.stack[-1]


class Block:
    """The composite state of one staged `if` or loop.

    `Block(state, names)` packs `state`; `branch(fn)` (an `if`'s branches, which
    take the state spread) and `step(fn)` (a loop's test and body, which take
    the state tuple) wrap the functions the staged primitive traces;
    `restore(result)` writes the primitive's results back.
    """

    def __init__(self, state: tuple, names: tuple, loop: bool = False):
        self.names, self.loop = names, loop
        self.origins: dict = {}          # path -> the user's container there
        self.packed = pack(tuple(state), self.origins.__setitem__)
        self.seen: dict = {}             # path -> [(origin or None, changed)] per trace
        self.trees: list = []            # the structure of each trace's output state
        carried = {id(c) for c in self.origins.values()}
        self.watched = {name: (v, _contents(v)) for name, v in _user_locals().items()
                        if id(v) not in carried and (type(v) in (dict, list) or
                                                     is_plain_object(v))}

    def branch(self, fn):
        return lambda *state: self._run(fn, state, spread=True)

    def step(self, fn, result_is_state=True):
        def run(state):
            return self._run(fn, state, spread=False, result_is_state=result_is_state)
        return run

    def _run(self, fn, state, spread, result_is_state=True):
        frame: dict = {}
        memo: dict = {}
        fresh = tuple(self._unpack(v, (i,), frame, memo) for i, v in enumerate(state))
        _frames.stack.append(frame)
        try:
            out = fn(*fresh) if spread else fn(fresh)
        finally:
            _frames.stack.pop()
        if not result_is_state or not isinstance(out, tuple):
            return out
        packed = pack(out, lambda path, c: self._record(path, frame.get(id(c)), c),
                      cycle_leaf=lambda c: _origin_or_self(frame, c))
        self._check_structure(packed)
        return packed

    def _unpack(self, value, path, frame, memo):
        kind = type(value)
        if kind is tuple or (isinstance(value, tuple) and hasattr(kind, "_fields")):
            items = [self._unpack(v, path + (i,), frame, memo) for i, v in enumerate(value)]
            return kind(*items) if kind is not tuple else tuple(items)
        if kind not in (dict, list, ObjectState):
            return memo.get(id(value), value)  # a cycle's leaf: the copy of its container
        origin = self.origins.get(path)
        if origin is not None and id(origin) in memo:  # one container at two paths
            return memo[id(origin)]
        copy = value.cls.__new__(value.cls) if kind is ObjectState else kind()
        if origin is not None:
            memo[id(origin)] = copy
        items = dict(enumerate(value)) if kind is list else \
            value if kind is dict else value.fields
        parts = {k: self._unpack(v, path + (k,), frame, memo) for k, v in items.items()}
        if kind is list:
            copy.extend(parts.values())
        else:
            (copy if kind is dict else vars(copy)).update(parts)
        frame[id(copy)] = _Copy(copy, origin)
        return copy

    def _record(self, path, copy, container):
        if copy is None:
            self.seen.setdefault(path, []).append((None, False))
        else:
            self.seen.setdefault(path, []).append((copy.origin, copy.changed()))

    def _check_structure(self, packed):
        """Keys, attributes and list lengths must agree between branches (and, in a loop,
        with the state before it): `TracingError` naming the first that does not."""
        reference = self.packed if self.loop else (self.trees[0] if self.trees else None)
        self.trees.append(packed)
        if reference is None:
            return
        for i, (a, b) in enumerate(zip(reference, packed)):
            problem = _difference(a, b, self._label((i,)))
            if problem:
                where = ("a loop on a traced value changes it" if self.loop else
                         "it differs between the branches of an `if` on a traced value")
                raise TracingError(
                    f"{problem}: {where}{location_note(user_source())}, which a graph "
                    f"cannot follow; give the container the same keys, attributes and "
                    f"length on every path (set them before the block)")

    def restore(self, result: tuple) -> tuple:
        """The staged block's results, with the user's containers updated in place."""
        for name, (container, contents) in self.watched.items():
            if _contents(container) != contents:
                raise TracingError(
                    f"{name!r} is changed inside an `if` or loop on a traced value"
                    f"{location_note(user_source())} by a call (such as `{name}.update(...)`, "
                    f"`.pop(...)`, `.sort()`, or a method setting an attribute), but is not "
                    f"the block's state: the block is traced once, so the change would "
                    f"happen once; write its items or attributes in the block "
                    f"(`{name}[k] = v`, `{name}.a = v`) so that it is carried")
        return tuple(self._restore(v, (i,)) for i, v in enumerate(result))

    def _restore(self, value, path):
        kind = type(value)
        if kind is tuple or (isinstance(value, tuple) and hasattr(kind, "_fields")):
            items = [self._restore(v, path + (i,)) for i, v in enumerate(value)]
            return kind(*items) if kind is not tuple else tuple(items)
        if kind not in (dict, list, ObjectState):
            return value
        items = dict(enumerate(value)) if kind is list else \
            value if kind is dict else value.fields
        parts = {k: self._restore(v, path + (k,)) for k, v in items.items()}
        target = self._target(path)
        if target is None:
            if kind is ObjectState:
                target = value.cls.__new__(value.cls)
                vars(target).update(parts)
                return target
            return list(parts.values()) if kind is list else parts
        _write_back(target, parts)
        return target

    def _target(self, path):
        """The user's container the result at `path` is written into, or None (a new one)."""
        seen = self.seen.get(path, [])
        origins = {id(o): o for o, _ in seen}
        if self.loop:  # a loop may run zero times: the container before it counts too
            start = self.origins.get(path)
            origins[id(start)] = start
        if len(origins) == 1:
            return next(iter(origins.values()))
        changed = [o for o, c in seen if c and o is not None]
        if changed:
            kind = {dict: "dict", list: "list"}.get(type(changed[0]), "object")
            where = "the body of a loop" if self.loop else "one branch of an `if`"
            raise TracingError(
                f"{self._label(path)!r} is changed in place in {where} on a traced value"
                f"{location_note(user_source())} and is a new {kind} on another path: "
                f"Python would leave the old {kind} changed on one path only, which a "
                f"graph cannot follow; copy it first (`{self._label(path)} = "
                f"{_copy_hint(changed[0], self._label(path))}`)")
        return None

    def _label(self, path) -> str:
        i = path[0]
        label = self.names[i] if i < len(self.names) and self.names[i] else f"state {i}"
        container = self.origins.get(path[:1])
        for depth, key in enumerate(path[1:], start=1):
            label += f".{key}" if container is not None and is_plain_object(container) \
                else f"[{key!r}]"
            container = self.origins.get(path[:depth + 1])
        return label


def _user_locals() -> dict:
    """The local variables (not a closure's) of the converted code running the staged block."""
    frame = sys._getframe(1)
    while frame is not None and is_library_file(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return {}
    own = set(frame.f_code.co_varnames) | set(frame.f_code.co_cellvars)
    return {name: v for name, v in frame.f_locals.items() if name in own}


def _copy_hint(container, label):
    return f"copy.copy({label})" if is_plain_object(container) else f"{label}.copy()"


def _difference(a, b, label):
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
        problem = _difference(items_a[k], items_b[k], sub)
        if problem:
            return problem
    return ""


def _write_back(target, parts: dict):
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


class _ListItemWritten(AutographError):
    """A list a staged loop carries as a stack (`TracedList`) had an item written."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def staged_loop(state: tuple, names: tuple, stage, stack_lists):
    """`stage(block, packed)` for a staged loop, `packed` with its lists stacked by
    `stack_lists` (lists appended in the loop); a list whose item the body writes
    is traced again as a list of fixed length."""
    builder = current_builder()
    mark = len(builder.eqns)
    written: set = set()
    while True:
        block = Block(state, names, loop=True)
        stacked = stack_lists(block.packed)
        packed = tuple(v if i < len(names) and names[i] in written else stacked[i]
                       for i, v in enumerate(block.packed))
        try:
            return block.restore(stage(block, packed))
        except _ListItemWritten as error:
            if error.name in written or error.name not in names:
                raise TracingError(f"item assignment `{error.name}[...] = ...` to a list "
                                   f"a staged loop appends to is not supported") from None
            written.add(error.name)
            del builder.eqns[mark:]


def set_item(target, index, value, label: str):
    """`target[index] = value` on a dict, list or other non-array; returns `target`."""
    if isinstance(target, TracedList):
        if _frames.stack:
            raise _ListItemWritten(label)
        raise TracingError(f"item assignment `{label}[...] = ...` to a list filled in a "
                           f"staged loop{location_note(user_source())} is not supported; "
                           f"write an item of an array made with np.stack({label}) instead")
    if not is_threaded(target):
        _refuse(f"item assignment `{label}[...] = ...`", target)
    if type(target) is list and isinstance(index, Tracer):
        raise TracingError(
            f"`{label}[i] = ...` with a traced index i writes a Python list"
            f"{location_note(user_source())}, whose items a graph cannot pick by a value it "
            f"computes; make {label!r} an array (`{label} = np.zeros(n)`) instead")
    target[index] = value
    return target


def set_attribute(target, name: str, value, label: str):
    """`target.name = value`; returns `target`."""
    if not is_threaded(target):
        _refuse(f"attribute assignment `{label}.{name} = ...`", target)
    setattr(target, name, value)
    return target


def _refuse(what: str, target):
    if type(target) in (dict, list) or is_plain_object(target):
        why = ("the block does not carry it as state (it is a global, a closure's, or "
               "passed to a function that writes it: there, return it and assign the "
               "result in the block, `d = f(d)`)")
    elif isinstance(target, (np.ndarray, Tracer)):
        why = "arrays are written by the array update"
    else:
        why = (f"a {type(target).__name__} is not a plain object (its class uses __slots__, "
               f"its own __setattr__/__getattr__, or is not defined in your code), so its "
               f"attributes cannot be carried through the block")
    raise ConversionError(
        f"{what} inside an `if` or loop on a traced value is not supported"
        f"{location_note(user_source())}: {why}; the block is traced once but runs at every "
        f"step, so the write would happen once. Compute a new value and assign it to a "
        f"local variable instead")
