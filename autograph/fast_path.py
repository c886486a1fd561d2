"""The short call path: a key of the raw call, and the callable a hit runs.

A graph function's full call path binds the call to the parameters, applies
defaults, flattens it and builds a `CacheKey` (about 15-30 µs). The short path
keys the call by its raw `args` and `kwargs` instead (`call_key`: a flat tuple,
two items per leaf; a lone NumPy scalar is keyed by its type alone, the one key
that is not a tuple), and maps that key to a prepared `FastEntry` that passes
the array leaves to the compiled graph in the full path's order. A call in a
device block is keyed `(device, call_key)`.

The raw key must select the same graph as the full key, so it takes only
leaves whose full key it determines: exact `np.ndarray`s (dtype, shape),
NumPy scalars (type, or dtype where the type does not fix it), and Python `int`, `bool`, `str`, `bytes`, `None` and
`float` values (type and value; a float by its repr where equality would hide
a difference: `0.0`/`-0.0`, `nan`), in tuples and lists of them, positional
or keyword. Any other leaf (a CuPy array, a traced value, an object keyed by
identity, a dict) gives `None`, and the call takes the full path. Entries are
filled by the full path (`prepare`), only where every array leaf of the
flattened call is the very object the raw call passed (not a default, not a
value an `input_signature` converted).

>>> call_key((np.ones(3, np.float32), 2.0), {"mode": "add"})
(dtype('float32'), (3,), <class 'float'>, 2.0, 'mode', <keyword>, <class 'str'>, 'add')
>>> call_key((np.int64(27),), {})
<class 'numpy.int64'>
"""
from __future__ import annotations

import functools
import inspect
from typing import NamedTuple

import numpy as np

from autograph_runtime.tree import flatten

from .cache_keys import ArrayKey, PyKey


class _Marker:
    """A key item that equals only itself."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<{self.name}>"


NUMPY_SCALAR = _Marker("numpy scalar")   # the second item of a NumPy scalar's pair
KEYWORD = _Marker("keyword")             # (name, KEYWORD) opens a keyword argument's items

_ndarray, _generic, _float = np.ndarray, np.generic, float
VALUE_TYPES = frozenset({int, bool, str, bytes, type(None)})   # keyed by type and value
# NumPy scalar types whose type alone fixes the dtype (not `str_`, `void`, `datetime64`, ...):
# keyed by the type, which costs less than reading and hashing the dtype
NUMERIC_SCALARS = frozenset(np.dtype(c).type for c in "?bhilqBHILQefdgFDG")


def scalar_item(x, t):
    """A NumPy scalar's first key item: its type where that fixes its dtype, else its dtype."""
    return t if t in NUMERIC_SCALARS else x.dtype

# Why the pairs never collide: the second item of a pair is a shape (a tuple),
# NUMPY_SCALAR, KEYWORD, a sequence's length after `tuple`/`list`, or a
# Python value that is never a tuple; two pairs of different kinds differ there.


def call_key(args: tuple, kwargs: dict):
    """The short path's key of a call, or None where a leaf is of a kind it does not take."""
    if len(args) == 1 and not kwargs:
        t = type(args[0])
        if t in NUMERIC_SCALARS:   # `f(np.int64(27))`: one dict lookup by the type, no tuple
            return t
    key = ()
    for x in args:
        t = type(x)
        if t is _ndarray:
            key += (x.dtype, x.shape)
        elif t in VALUE_TYPES:
            key += (t, x)
        elif t is _float:
            key += (_float, x if x == x and x != 0.0 else repr(x))
        elif isinstance(x, _generic):
            key += (scalar_item(x, t), NUMPY_SCALAR)
        else:
            key = _add_sequence(x, t, key)
            if key is None:
                return None
    if kwargs:
        for name, x in kwargs.items():
            t = type(x)
            if t is _ndarray:
                key += (name, KEYWORD, x.dtype, x.shape)
            elif t in VALUE_TYPES:
                key += (name, KEYWORD, t, x)
            elif t is _float:
                key += (name, KEYWORD, _float, x if x == x and x != 0.0 else repr(x))
            elif isinstance(x, _generic):
                key += (name, KEYWORD, scalar_item(x, t), NUMPY_SCALAR)
            else:
                key = _add_sequence(x, t, key + (name, KEYWORD))
                if key is None:
                    return None
    return key


def _add_leaf(x, key: tuple):
    t = type(x)
    if t is _ndarray:
        return key + (x.dtype, x.shape)
    if t in VALUE_TYPES:
        return key + (t, x)
    if t is _float:
        return key + (_float, x if x == x and x != 0.0 else repr(x))
    if isinstance(x, _generic):
        return key + (scalar_item(x, t), NUMPY_SCALAR)
    return _add_sequence(x, t, key)


def _add_sequence(x, t, key: tuple):
    if t is not tuple and t is not list:
        return None
    key += (t, len(x))
    for item in x:
        key = _add_leaf(item, key)
        if key is None:
            return None
    return key


class FastEntry(NamedTuple):
    """What a hit runs: `run(*args)` where `call` is None (the arguments are the graph's
    inputs, in order), else `call(args, kwargs)`, which passes `run` the array leaves."""

    run: object
    call: object


def prepare(signature: inspect.Signature, apply_defaults: bool, args, kwargs, sig,
            run) -> FastEntry | None:
    """The entry for a call that the full path flattened into `sig`; None if it cannot have one.

    The call is bound again with a marker in place of each raw leaf, so the
    markers come out of the flattened binding in the order the full path's
    leaves do (parameter order, defaults included). A default that is not an
    array (a number, `None`, a sentinel object like `np._NoValue`) is the same
    object on every call, so its key is the same too.
    """
    paths = []
    marked_args = tuple(_marked(x, ("args", i), paths) for i, x in enumerate(args))
    marked_kwargs = {name: _marked(x, ("kwargs", name), paths) for name, x in kwargs.items()}
    bound = signature.bind(*marked_args, **marked_kwargs)
    if apply_defaults:
        bound.apply_defaults()
    leaves = [leaf for value in bound.arguments.values() for leaf in flatten(value)[0]]
    if len(leaves) != len(sig.leaves):
        return None
    picked = []
    for leaf, key, value in zip(leaves, sig.keys, sig.leaves):
        marker = leaf if type(leaf) is _PathMarker else None
        if type(key) is ArrayKey:
            if marker is None or marker.value is not value:
                return None     # a default array, or a value an input_signature converted
            picked.append(marker.path)
        elif marker is None:
            if leaf is not value:
                return None     # not the signature's default (what else could it be?)
        elif type(key) is not PyKey:
            return None         # an object passed, keyed by identity (call_key takes none)
    if not kwargs and picked == [("args", i) for i in range(len(args))]:
        return FastEntry(run, None)
    return FastEntry(run, _caller(tuple(picked))(run))


class _PathMarker:
    __slots__ = ("path", "value")

    def __init__(self, path, value):
        self.path, self.value = path, value


def _marked(x, path, paths):
    t = type(x)
    if t is tuple or t is list:
        return t(_marked(item, path + (i,), paths) for i, item in enumerate(x))
    paths.append(path)
    return _PathMarker(path, x)


@functools.lru_cache(maxsize=512)
def _caller(paths: tuple):
    """`make(run)` -> `call(args, kwargs)`, which calls `run` with the leaves at `paths`
    (`args[0]`, `kwargs['w'][1]`); compiled once per `paths`."""
    def expr(path):
        root, name, *rest = path
        return f"{root}[{name!r}]" + "".join(f"[{i}]" for i in rest)
    source = (f"def make(run):\n"
              f"    def call(args, kwargs):\n"
              f"        return run({', '.join(map(expr, paths))})\n"
              f"    return call\n")
    scope: dict = {}
    exec(compile(source, "<fast call path>", "exec"), scope)  # noqa: S102  (indices only)
    return scope["make"]
