"""A call's short-path key, computed by code made for the layout of the calls seen last.

`fast_path.call_key` walks any call: each leaf's type tested against every kind
it may be, the key grown a pair at a time (about 0.6 µs for three arguments and
a keyword). Calls of one graph function mostly repeat one layout: the same
number of arguments, the same keywords in the same order, each of the same
kind. `keyer_for(args, kwargs)` compiles, once per layout, a function that
checks that layout in one test and builds the same key in one tuple, and
falls back to `call_key` for any other call:

    def key(args, kwargs):
        if len(args) == 3 and len(kwargs) == 1:
            a0, a1, a2 = args
            (n0, k0), = kwargs.items()
            if type(a0) is ndarray and type(a1) is float32 and type(a2) is int \\
                    and n0 == 'mode' and type(k0) is str:
                return (a0.dtype, a0.shape, float32, NUMPY_SCALAR, int, a2,
                        'mode', KEYWORD, str, k0)
        return call_key(args, kwargs)

Its key equals `call_key`'s for every call (tests/test_call_layouts.py), so the
short path's table is the same. Only flat layouts are compiled (arrays, NumPy
scalars whose type fixes their dtype, Python ints, bools, strings, bytes,
`None` and floats): a call with a tuple, a list or anything else is keyed by
`call_key` itself.
"""
from __future__ import annotations

import functools

import numpy as np

from .fast_path import KEYWORD, NUMERIC_SCALARS, NUMPY_SCALAR, VALUE_TYPES, call_key

_KINDS = VALUE_TYPES | {float}   # the leaves `call_key` keys by value


def keyer_for(args: tuple, kwargs: dict):
    """The key function for calls laid out as this one (`call_key` where it is not flat)."""
    if len(args) == 1 and not kwargs:   # (keyed inline, or by its type alone: call_key)
        return call_key
    kinds = tuple(_kind(x) for x in args)
    keywords = tuple((name, _kind(x)) for name, x in kwargs.items())
    if None in kinds or any(kind is None for _, kind in keywords):
        return call_key
    return _compiled(kinds, keywords)


def _kind(x):
    t = type(x)
    if t is np.ndarray or t in NUMERIC_SCALARS or t in _KINDS:
        return t
    return None


@functools.lru_cache(maxsize=256)
def _compiled(kinds: tuple, keywords: tuple):
    scope = {"call_key": call_key, "ndarray": np.ndarray, "NUMPY_SCALAR": NUMPY_SCALAR,
             "KEYWORD": KEYWORD}
    types = {}

    def type_name(t):
        return types.setdefault(t, f"T{len(types)}")

    tests, items = [], []
    for k, kind in enumerate(kinds):
        test, key = _leaf(f"a{k}", kind, type_name)
        tests.append(test)
        items += key
    for k, (name, kind) in enumerate(keywords):
        test, key = _leaf(f"k{k}", kind, type_name)
        tests += [f"n{k} == {name!r}", test]
        items += [repr(name), "KEYWORD", *key]
    scope.update({alias: t for t, alias in types.items()})
    lines = ["def key(args, kwargs):",
             f"    if len(args) == {len(kinds)} and len(kwargs) == {len(keywords)}:"]
    if kinds:
        lines.append(f"        {''.join(f'a{k}, ' for k in range(len(kinds)))}= args")
    if keywords:
        pairs = "".join(f"(n{k}, k{k}), " for k in range(len(keywords)))
        lines.append(f"        {pairs}= kwargs.items()")
    lines += [f"        if {' and '.join(tests) or 'True'}:",
              f"            return ({''.join(item + ', ' for item in items)})",
              "    return call_key(args, kwargs)"]
    exec(compile("\n".join(lines) + "\n", "<call layout key>", "exec"), scope)  # noqa: S102
    return scope["key"]


def _leaf(name: str, kind, type_name) -> tuple[str, list]:
    """(the test that `name` is of `kind`, its key items), as `call_key` makes them."""
    if kind is np.ndarray:
        return f"type({name}) is ndarray", [f"{name}.dtype", f"{name}.shape"]
    alias = type_name(kind)
    if kind in NUMERIC_SCALARS:
        return f"type({name}) is {alias}", [alias, "NUMPY_SCALAR"]
    if kind is float:   # `call_key` keys 0.0, -0.0 and nan by their repr: those take it
        return f"type({name}) is float and {name} == {name} and {name} != 0.0", \
            ["float", name]
    return f"type({name}) is {alias}", [alias, name]
