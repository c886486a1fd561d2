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
copies to write, and after the block the results are written back into the
ORIGINAL containers, so aliases and the caller see the change as in Python.

A local container the block does not have as state but that a trace changes
(a called function writes it, `d.update(...)`, `self.step()`) is found by the
write (`setitem`/`setattr_`) or by comparing the locals' containers after the
trace: the block is traced again carrying it too (`staged_block`), its
values installed in the user's container while tracing and put back after.
A list a staged loop stacks (it appends to it) whose item the body writes is
traced again as a list of fixed length. The concrete NumPy arrays inside the
block's containers are read-only while it traces; one written in place
(`d["w"] += 1`, `obj.W.fill(v)`) has the block traced again with them traced
(an array another local name shares memory with: `TracingError` naming it).

A list of an `if`'s state that the branches leave with different lengths (or
that one fills in a staged loop) has the `if` traced again with it stacked: a
`TracedList` (`lists.stage_list`), unless another name holds the same list.
What Python would leave and a graph cannot follow is a `TracingError`: a key,
attribute or list length present after one branch and not the other (or
changed by a staged loop), and a container changed in place on one path and
replaced by a new one on another. A name bound to a new container on every
path gets a fresh container, as `d = {...}` would. Writes inside a staged
block to a global's or a closure's container, and to attributes of objects
whose class is not plain (`__slots__`, its own `__setattr__`/`__getattr__`, a
library or builtin class), are refused (`ConversionError`).
"""
from __future__ import annotations

import sys
import threading

import numpy as np

from autograph_runtime import Tracer, TracingError, current_builder, views
from autograph_runtime.errors import AutographError, ContainerStagingError
from autograph_runtime.source import is_library_file, location_note, user_source
from autograph_runtime.tree import flatten

from ..pyct.errors import ConversionError
from .containers import (
    ObjectState,
    contents,
    containers_in,
    difference,
    is_plain_object,
    items_of,
    pack,
    same_items,
    set_contents,
    write_back,
)
from . import carries, opaque_containers, staging
from .in_place import carried, carrying, read_only
from .lists import TracedList, fits, shape_text, stage_list
from .reachable import reachable
from .undefined import Undefined


class _Frames(threading.local):
    def __init__(self):
        self.stack = []   # (block, {id(container): _Copy}) per staged body being traced


_frames = _Frames()


class _Copy:
    """A container a trace may write, standing for `origin` (or None): a fresh copy,
    or the user's container itself where the block carries it by installing values."""

    __slots__ = ("value", "origin", "snapshot")

    def __init__(self, value, origin):
        self.value, self.origin, self.snapshot = value, origin, contents(value)

    def changed(self) -> bool:
        return contents(self.value) != self.snapshot


def _origin_or_self(frame, container):
    copy = frame.get(id(container))
    return copy.origin if copy is not None and copy.origin is not None else container


def is_threaded(target) -> bool:
    """True outside staged blocks, and for the containers the innermost staged block
    being traced carries (which it may write)."""
    return not _frames.stack or id(target) in _frames.stack[-1][1]


class _Retry(AutographError):
    """`block` must be traced again, carrying `containers` too (or keeping `list_name`
    a list, or stacking the list at state index `stack`, which is refused with
    `refusal` where it cannot be): raised where a trace writes a container the block
    does not carry yet, or an `if`'s branches leave a list with different lengths."""

    def __init__(self, block, containers=(), list_name=None, lift=False, stack=None,
                 refusal="", cast=None):
        super().__init__("retrace")
        self.block, self.containers, self.list_name = block, list(containers), list_name
        self.lift, self.stack, self.refusal, self.cast = lift, stack, refusal, cast


class Block:
    """The composite state of one staged `if` or loop.

    `Block(state, names, extra=[(label, container)])` packs `state` and the
    containers it carries besides (see `staged_block`); `branch(fn)` (an `if`'s
    branches, which take the state spread) and `step(fn)` (a loop's test and
    body, which take the state tuple) wrap the functions the primitive traces;
    `restore(result)` writes the primitive's results back.
    """

    def __init__(self, state: tuple, names: tuple, loop: bool = False, extra=(),
                 lift: bool = False, stacked=frozenset(), casts=None):
        self.n, self.loop = len(state), loop
        self.stacked = stacked           # state paths of the lists an `if` stacks
        self.casts = casts or {}         # path -> (dtype, dtypes) of lists it promotes
        self.names = tuple(names) + tuple(label for label, _ in extra)
        self.extra = [c for _, c in extra]
        self.origins: dict = {}          # path -> the user's container there
        self.packed = pack(tuple(state) + tuple(self.extra), self.origins.__setitem__)
        self.arrays = _nested_arrays(self.packed)  # concrete arrays inside its containers
        if lift:
            self.packed = _lifted(self.packed, {id(a) for a in self.arrays})
            self.arrays = []
        self.seen: dict = {}             # path -> [(origin or None, changed)] per trace
        self.trees: list = []            # the structure of each trace's output state
        self.saved = {id(c): (c, dict(items_of(c))) for path, c in self.origins.items()
                      if path[0] >= self.n}
        carried = {id(c) for c in self.origins.values()}
        self.watched: dict = {}          # id -> (container, its items, label) of other locals
        local = _user_locals()
        for name, value in local.items():
            for c, label in containers_in(value, name):
                if id(c) not in carried:
                    self.watched.setdefault(id(c), (c, dict(items_of(c)), label))
        self.watched_arrays = [(label, c, a) for c, _, label in self.watched.values()
                               for a in items_of(c).values() if _writeable(a)]
        # other objects that existed before the block (writing them in a trace is refused)
        self.known = {id(v) for v in [*flatten(self.packed)[0], *local.values()]
                      if not isinstance(v, (Tracer, np.ndarray, np.generic, int, float,
                                            complex, str, bytes, type(None)))}

    def branch(self, fn):
        return lambda *state: self._run(fn, state, spread=True)

    def step(self, fn, result_is_state=True):
        def run(state):
            return self._run(fn, state, spread=False, result_is_state=result_is_state)
        return run

    def _run(self, fn, state, spread, result_is_state=True):
        frame: dict = {}
        memo: dict = {}
        fresh = tuple(self._unpack(v, (i,), frame, memo) for i, v in enumerate(state[:self.n]))
        _frames.stack.append((self, frame))
        frozen = self.arrays + [a for _, _, a in self.watched_arrays]
        try:
            for i in range(self.n, len(state)):
                self._install(state[i], (i,), frame, memo)
            with read_only(frozen):
                try:
                    out = fn(*fresh) if spread else fn(fresh)
                except ValueError as error:
                    if not frozen or "read-only" not in str(error):
                        raise
                    raise _Retry(self, [(label, c) for label, c, _ in self.watched_arrays],
                                 lift=True) from error
            if not result_is_state or not isinstance(out, tuple):
                return out
            out = _stack_lists(out, self.stacked, self._label)  # a branch's new list too
            out = _cast_lists(out, self.casts)
            packed = pack(tuple(out) + tuple(map(carried, self.extra)),
                          lambda path, c: self._record(path, frame.get(id(c))),
                          cycle_leaf=lambda c: _origin_or_self(frame, c))
        finally:
            _frames.stack.pop()
            self.put_back()
        self._check_structure(packed)
        return packed

    def put_back(self):
        """The carried containers as they were before the block (a trace wrote them)."""
        for container, items in self.saved.values():
            if not same_items(items_of(container), items):
                set_contents(container, items)

    def _unpack(self, value, path, frame, memo):
        """A fresh copy of the packed `value` for a trace to write."""
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
        parts = {k: self._unpack(v, path + (k,), frame, memo) for k, v in items_of(value).items()}
        set_contents(copy, parts)
        frame[id(copy)] = _Copy(copy, origin)
        return copy

    def _install(self, value, path, frame, memo):
        """The user's container at `path` holding the packed `value` (the trace's
        inputs), for code that reads it other than through the block's state."""
        origin = self.origins.get(path)
        if type(origin) is not (value.cls if type(value) is ObjectState else type(value)):
            return self._unpack(value, path, frame, memo)
        if id(origin) in memo:
            return memo[id(origin)]
        memo[id(origin)] = origin
        parts = {k: self._install(v, path + (k,), frame, memo)
                 for k, v in items_of(value).items()}
        set_contents(origin, parts)
        frame[id(origin)] = _Copy(origin, origin)
        return origin

    def _record(self, path, copy):
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
            problem = difference(a, b, self._label((i,)))
            if not self.loop and i < self.n:
                problem = self._check_list((i,), a, b) or problem
            if problem:
                raise ContainerStagingError(self._refusal(problem))

    def _refusal(self, problem: str) -> str:
        where = ("a loop on a traced value changes it" if self.loop else
                 "it differs between the branches of an `if` on a traced value")
        return (f"{problem}: {where}{location_note(user_source())}, which a graph "
                f"cannot follow; give the container the same keys, attributes and "
                f"length on every path (set them before the block)")

    def _check_list(self, path, a, b) -> str:
        """A list of the state (or in a tuple of it, as a `return`'s value) that two
        branches leave with different lengths (or one filled in a staged loop, the
        other not) has the `if` traced again with it stacked (`_Retry(stack=path)`);
        two stacks must hold elements of one shape."""
        if type(a) is tuple and type(b) is tuple and len(a) == len(b):
            return next(filter(None, (self._check_list(path + (k,), x, y)
                                      for k, (x, y) in enumerate(zip(a, b)))), "")
        label = self._label(path)
        kinds = {type(a), type(b)}
        if kinds == {list} and len(a) != len(b):
            problem = f"list {label!r} has length {len(a)} on one path and {len(b)} on another"
        elif kinds == {list, TracedList}:
            problem = f"list {label!r} is filled in a staged loop on one path and not on another"
        elif kinds == {TracedList}:
            shapes = [v.stack.shape[1:] for v in (a, b) if isinstance(v.stack, Tracer)]
            dtypes = a.possible_dtypes() | b.possible_dtypes()
            if len(shapes) == 2 and fits(*shapes) and len(dtypes) > 1 \
                    and a.stack.dtype != b.stack.dtype and path not in self.casts:
                raise _Retry(self, cast=(path, np.result_type(*dtypes), dtypes))
            if len(shapes) == 2 and not fits(*shapes):
                raise ContainerStagingError(
                    f"list {label!r} holds elements of shape {shape_text(shapes[0])} on one "
                    f"path of an `if` on a traced value and {shape_text(shapes[1])} on "
                    f"another{location_note(user_source())}: a list whose length depends "
                    f"on the path is one stacked array, which cannot hold both; append "
                    f"arrays of one shape")
            return ""
        else:
            return ""
        if path in self.stacked:
            return problem
        raise _Retry(self, stack=path, refusal=self._refusal(problem))

    def changed_outside(self) -> list:
        """The local containers the block does not carry that its traces changed."""
        return [(label, c) for c, items, label in self.watched.values()
                if not same_items(items_of(c), items)]

    def restore(self, result: tuple) -> tuple:
        """The staged block's results, with the user's containers updated in place."""
        changed = self.changed_outside()
        if changed:
            raise _Retry(self, changed)
        result = tuple(self._list_facts(i, v) for i, v in enumerate(result))
        restored = tuple(self._restore(v, (i,)) for i, v in enumerate(result))
        return restored[:self.n]

    def _list_facts(self, i, value):
        """A `TracedList` of the result, knowing what every trace learnt of it (whether a
        path leaves it empty, or appends elements of another dtype: a loop's result has
        the structure its state had before the loop)."""
        if not isinstance(value, TracedList):
            return value
        facts = value.facts
        for tree in self.trees:
            if i < len(tree) and isinstance(tree[i], TracedList):
                facts = facts.joined(tree[i].facts) if self.loop else \
                    TracedList(value.stack, facts).joined(tree[i])
        return TracedList(value.stack, facts)

    def undo_outside(self):
        """Puts back the local containers a trace changed without the block carrying them."""
        for container, items, _ in self.watched.values():
            if not same_items(items_of(container), items):
                set_contents(container, items)

    def _restore(self, value, path):
        kind = type(value)
        if kind is tuple or (isinstance(value, tuple) and hasattr(kind, "_fields")):
            items = [self._restore(v, path + (i,)) for i, v in enumerate(value)]
            return kind(*items) if kind is not tuple else tuple(items)
        if kind not in (dict, list, ObjectState):
            return value
        parts = {k: self._restore(v, path + (k,)) for k, v in items_of(value).items()}
        target = self._target(path)
        if target is None:
            target = value.cls.__new__(value.cls) if kind is ObjectState else kind()
            set_contents(target, parts)
            return target
        write_back(target, parts)
        return target

    def _target(self, path):
        """The user's container the result at `path` is written into, or None (a new one)."""
        seen = self.seen.get(path, [])
        if not self.loop and len(seen) < len(self.trees):
            return None  # another branch holds no container there (a return's placeholder)
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
            raise ContainerStagingError(
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
    """The local variables (not a closure's) of the converted code running the staged
    block and of the converted code it runs in (a loop's body function, the function
    itself, a converted function calling it), innermost first: values of this trace."""
    return reachable()[0]


def _copy_hint(container, label):
    return f"copy.copy({label})" if is_plain_object(container) else f"{label}.copy()"


_MAX_RETRACES = 16


def staged_block(state: tuple, names: tuple, stage, loop: bool = False, stack_lists=None):
    """`stage(block, packed)`: a staged `if` (`loop=False`) or loop, its composite state
    threaded by a `Block`, the result written back.

    A trace that writes a container the block does not carry (one a called
    function writes, a global, a closure's, or one changed by a method call) has
    the block traced again carrying it too: installed as the trace's values in the
    user's container while tracing, put back after, written back after the block.
    In a loop, `stack_lists` stacks the lists of its state (the lists it appends
    to); one whose item the body writes is traced again as a list of fixed length.
    """
    builder = current_builder()
    mark = len(builder.eqns)
    site = carries.call_site()
    extra: dict = {}      # id -> (label, container) carried besides the state
    extra.update((id(value), (label, value))   # arrays it learnt it must carry before
                 for label, value in carries.remembered(site, builder, state))
    own, outliving = reachable()
    watched = opaque_containers.watch(own) + opaque_containers.watch(outliving, every=True)
    tracing = carries.being_traced()
    tracing.append((site, builder))
    try:
        result = _traced_block(state, names, stage, loop, stack_lists, builder, mark, extra)
    finally:
        tracing.pop()
    opaque_containers.refuse_changed(watched, loop)
    return result


def _traced_block(state, names, stage, loop, stack_lists, builder, mark, extra):
    lists: set = set()    # names of lists whose items a loop writes
    stacked: set = set()  # state paths of lists an `if` stacks (their length depends on the path)
    casts: dict = {}      # state path -> (dtype, dtypes) of lists an `if` leaves with two dtypes
    lift = False          # the concrete arrays inside its containers are traced
    for _ in range(_MAX_RETRACES):
        block = Block(state, names, loop, list(extra.values()), lift, frozenset(stacked),
                      dict(casts))
        packed = block.packed
        if stack_lists is not None:
            staged = stack_lists(packed[:len(state)], names)
            packed = tuple(v if i >= len(state) or names[i] in lists else staged[i]
                           for i, v in enumerate(packed))
        packed = _stack_lists(packed, stacked, block._label)
        try:
            result = block.restore(stage(block, packed))
            for i, value in enumerate(result):  # a loop's appends, not seen by an alias
                if loop and type(state[i]) is list and isinstance(value, TracedList) \
                        and value.facts.grown:
                    _check_unshared(state[i], names[i], (
                        f"list {names[i]!r} grows in a loop on a traced value"
                        f"{location_note(user_source())}, so the graph holds it as one "
                        f"stacked array"))
            return result
        except views.CarryNeeded as error:  # a view of a traced array it does not carry
            carry = carrying(error, builder, packed)
            if carry is None:
                raise
            block.undo_outside()
            carries.learn(error, carry[0])
            if error.staged_from is not builder:   # a block further out carries it first
                raise
            extra.setdefault(id(carry[1]), carry)
            del builder.eqns[mark:]
        except _Retry as retry:
            block.undo_outside()
            if retry.block is not block:
                raise
            if retry.cast is not None:
                path, dtype, dtypes = retry.cast
                casts[path] = (dtype, dtypes)
            if retry.stack is not None:
                _check_unshared(_at(state, retry.stack), block._label(retry.stack),
                                retry.refusal)
                stacked.add(retry.stack)
            if retry.list_name is not None:
                if retry.list_name in lists or retry.list_name not in names:
                    raise ContainerStagingError(
                        f"item assignment `{retry.list_name}[...] = ...` to a list a "
                        f"staged loop appends to{location_note(user_source())} is not "
                        f"supported; write an item of an array instead") from None
                lists.add(retry.list_name)
            if retry.lift:
                _check_no_alias(block)
                lift = True
            for label, container in retry.containers:
                extra.setdefault(id(container), (label, container))
            del builder.eqns[mark:]
    raise ContainerStagingError(f"a staged block kept finding containers to carry"
                       f"{location_note(user_source())}")


def _at(state: tuple, path: tuple):
    """The value at `path` in `state`; None where the path goes through something that is
    not a tuple or list there (a `Placeholder` a branch's tuple stands for)."""
    for key in path:
        if type(state) not in (tuple, list):
            return None
        state = state[key]
    return state


def _stack_lists(state: tuple, paths, label) -> tuple:
    """`state` with the Python lists at `paths` (through tuples) as `TracedList`s."""
    def at(value, path, rest):
        if not rest:
            return stage_list(value, label(path)) if type(value) is list else value
        if type(value) is not tuple or rest[0] >= len(value):
            return value
        return tuple(at(v, path + (k,), rest[1:]) if k == rest[0] else v
                     for k, v in enumerate(value))
    for path in paths:
        state = at(state, (), path)
    return state


def _cast_lists(state: tuple, casts: dict) -> tuple:
    """`state` with the `TracedList`s at the paths of `casts` holding their elements'
    promotion (`np.result_type` of the dtypes the branches give them, as a loop's
    list does), knowing the dtypes `np.array` of the eager list has on each path."""
    def at(value, rest, dtype, dtypes):
        if rest:
            if type(value) is not tuple or rest[0] >= len(value):
                return value
            return tuple(at(v, rest[1:], dtype, dtypes) if k == rest[0] else v
                         for k, v in enumerate(value))
        if not isinstance(value, TracedList):
            return value
        stack = value.stack
        if isinstance(stack, Tracer) and stack.dtype != dtype:
            stack = stack.astype(dtype)
        return TracedList(stack, value.facts.but(dtypes=dtypes, mixed=True))
    for path, (dtype, dtypes) in casts.items():
        state = at(state, path, dtype, dtypes)
    return state


def _check_unshared(value, name, refusal):
    """`TracingError` (`refusal`) where another local name or container holds the list
    `value` that an `if` stacks: NumPy's appends would show through it, the stack not."""
    if type(value) is not list:
        return
    if staging.is_argument(value):
        raise TracingError(f"{refusal}; it is an argument of the graph function, which the "
                           f"caller's list would show eagerly: return the list instead")
    for local, v in _user_locals().items():
        for container, label in containers_in(v, local):
            if container is value and label != name:
                raise TracingError(f"{refusal}; {label!r} is the same list, so it cannot be "
                                   f"held as a stacked array either")


def _writeable(value) -> bool:
    return type(value) is np.ndarray and value.flags.writeable and value.dtype != object


def _nested_arrays(packed: tuple) -> list:
    """The writeable NumPy arrays inside the containers of a packed state (a
    top-level array is `in_place.staged_writing`'s)."""
    found = {}
    for entry in packed:
        if type(entry) in (dict, list, ObjectState, tuple):
            for leaf in flatten(entry)[0]:
                if _writeable(leaf):
                    found[id(leaf)] = leaf
    return list(found.values())


def _lifted(packed: tuple, ids: set) -> tuple:
    """`packed` with the arrays `ids` as traced constants (a staged body writes them)."""
    builder = current_builder()
    leaves, tree = flatten(packed)
    return tree.unflatten([Tracer(builder, builder.const(x)) if id(x) in ids else x
                           for x in leaves])




def _check_no_alias(block):
    """`TracingError` where a local name shares memory with an array about to be traced."""
    for name, value in _user_locals().items():
        if not isinstance(value, np.ndarray):
            continue
        for array in block.arrays + [a for _, _, a in block.watched_arrays]:
            if value is array or _shares(value, array):
                raise TracingError(
                    f"an array inside a container is written in place inside an `if` or "
                    f"loop on a traced value{location_note(user_source())}, and {name!r} "
                    f"shares its memory: NumPy would change both, which a graph cannot "
                    f"follow; copy one of them (`{name} = {name}.copy()`), or assign a new "
                    f"array to the item instead")


def _shares(a, b) -> bool:
    try:
        return np.shares_memory(a, b, max_work=10_000)
    except np.exceptions.TooHardError:
        return True


def in_staged_block() -> bool:
    """True while a staged `if`'s branch or a staged loop's body is being traced."""
    return bool(_frames.stack)


def _innermost():
    return _frames.stack[-1][0] if _frames.stack else None


def _carry_or_refuse(what: str, target, label: str):
    """Inside a staged block, a write to a container it does not carry yet: a local
    container of the converted code (or one an outer block carries) has the block
    traced again carrying it; a global's or a closure's is refused, as is an object
    that cannot be carried; one made while tracing the body is written as it is."""
    block = _innermost()
    if block is None:
        return
    local = any(id(target) in frame or id(target) in b.watched or id(target) in b.saved
                for b, frame in _frames.stack)
    if local and (type(target) in (dict, list) or is_plain_object(target)):
        raise _Retry(block, [(label, target)])
    if local or any(id(target) in b.known for b, _ in _frames.stack) \
            or _reached_from_outside(label):
        _refuse(what, target)


def _reached_from_outside(label: str) -> bool:
    """True where `label`'s root names a global or a closure's variable of the code
    writing (its container existed before the trace)."""
    frame = sys._getframe(1)
    while frame is not None and is_library_file(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return True
    root = label.split(".")[0].split("[")[0].strip()
    return root not in frame.f_code.co_varnames or root in frame.f_code.co_freevars


def set_item(target, index, value, label: str):
    """`target[index] = value` on a dict, list or other non-array; returns `target`."""
    if isinstance(target, Undefined):   # unbound, or a list only a loop run as Python has
        raise target.error()
    if isinstance(target, TracedList):
        if _frames.stack:
            raise _Retry(_frames.stack[-1][0], list_name=label)
        raise ContainerStagingError(f"item assignment `{label}[...] = ...` to a list filled in a "
                           f"staged loop{location_note(user_source())} is not supported; "
                           f"write an item of an array made with np.stack({label}) instead")
    if not is_threaded(target):
        _carry_or_refuse(f"item assignment `{label}[...] = ...`", target, label)
    if type(target) is list and isinstance(index, Tracer):
        raise ContainerStagingError(
            f"`{label}[i] = ...` with a traced index i writes a Python list"
            f"{location_note(user_source())}, whose items a graph cannot pick by a value it "
            f"computes; make {label!r} an array (`{label} = np.zeros(n)`) instead")
    target[index] = value
    return target


def set_attribute(target, name: str, value, label: str):
    """`target.name = value`; returns `target`."""
    if not is_threaded(target):
        _carry_or_refuse(f"attribute assignment `{label}.{name} = ...`", target, label)
    setattr(target, name, value)
    return target


def _refuse(what: str, target):
    if type(target) in (dict, list) or is_plain_object(target):
        why = ("the block cannot carry it as state (it is reached through a global or a "
               "closure's variable); make it a local variable of the function, or pass "
               "it in as an argument")
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
