"""Lists, dicts and objects a graph function's trace changes in its arguments, and objects
its result holds traced values in: refused.

A graph function's arguments are its inputs: a list or dict of arrays is
flattened into them and built again for the trace, so an append or a key set
while tracing changes that copy and never happens when the graph runs, where
eagerly every call changes the caller's container. An object is passed as it
is: an attribute the trace sets to a traced value would hold it after the call
(Python values and `Variable`s set while tracing stay, as a model builds its
variables on its first call). Rather than answer differently, the trace is
refused, naming the argument, and what the trace changed is put back:

    @ag.convert
    def f(x, log):
        log.append(x.sum())   # TracingError: f changes its argument 'log' ...
        return x
"""
from __future__ import annotations

import inspect

from autograph_runtime import Tracer, TracingError
from autograph_runtime.variables import Variable
from autograph_runtime.source import location_note
from autograph_runtime.texts import FormattedText
from autograph_runtime.tree import flatten

from .operators.containers import (
    containers_in,
    is_plain_object,
    items_of,
    same_items,
    set_contents,
)


def watch(signature: inspect.Signature, args: tuple, kwargs: dict) -> list:
    """[(container, its items, label)] of the lists, dicts and plain objects in the
    arguments a trace is about to see."""
    try:
        named = signature.bind_partial(*args, **kwargs).arguments
    except TypeError:   # the call itself is wrong: the trace says so
        return []
    return watch_named(named)


def watch_named(named: dict) -> list:
    """`watch`'s entries for the lists, dicts and plain objects in `named`'s values (and
    in their containers), each labelled by its path from its name."""
    found: dict = {}
    for name, value in named.items():
        for container, label in containers_in(value, name):
            found.setdefault(id(container), (container, dict(items_of(container)), label))
    return list(found.values())


def watch_instance(function) -> list:
    """`watch`'s entries for the object a bound method `function` runs on (`self`), where
    it is one: an attribute its trace sets to a traced value, or a list or dict of it
    the trace changes, is refused as an argument's is."""
    ref = getattr(function, "_ag_self_ref", None)   # a method converted per instance
    instance = ref() if ref is not None else getattr(function, "__self__", None)
    if instance is None or not is_object(instance):
        return []
    return [(container, dict(items_of(container)), label)
            for container, label in containers_in(instance, "self")]


def holds_tracers(now: dict, before: dict) -> bool:
    """Whether an attribute the trace set holds a traced value (which it leaks)."""
    return any(isinstance(leaf, Tracer) for k, v in now.items()
               if k not in before or before[k] is not v for leaf in flatten(v)[0])


def put_back(watched: list) -> None:
    """Puts back what a trace that failed changed in `watched` (`watch`'s entries), Python
    values in objects' attributes too: the call runs again eagerly, or raises, and the
    failed trace must leave nothing behind (`box.calls += 1` would count twice)."""
    for container, items, _ in watched:
        if not same_items(items_of(container), items):
            set_contents(container, items)


class ObjectStateChanged(TracingError):
    """A trace for a call that may run eagerly set an attribute of an object argument or
    of `self` to a Python value: eagerly every call sets it."""


def refuse_changed(watched: list, function: str, where, every_change: bool = False) -> None:
    """`TracingError` (after putting every changed container back) where the trace changed
    one of `watched`: a list or dict, or an object's attribute set to a traced value; with
    `every_change` (a call that may run eagerly instead), to any other value but a
    `Variable` too (`ObjectStateChanged`)."""
    changed = [(c, items, label) for c, items, label in watched
               if not same_items(items_of(c), items) and (
                   not is_plain_object(c) or holds_tracers(items_of(c), items) or
                   every_change and sets_values(items_of(c), items))]
    if not changed:
        return
    container, items, label = changed[0]
    traced = True
    if is_plain_object(container):   # the attribute a traced value went into
        now = items_of(container)
        keys = [k for k, v in now.items() if k not in items or items[k] is not v]
        key = next((k for k in keys if holds_tracers({k: now[k]}, {})), None)
        traced = key is not None
        if not traced:
            key = next((k for k in keys if not _is_variable(now[k])),
                       next((k for k in items if k not in now), "?"))   # (or deleted)
        label += "." + key
    put_back(watched)   # all of it, Python values in objects too: the trace is refused
    if not traced:
        raise ObjectStateChanged(
            f"{function} sets {label} while tracing{location_note(where)}: the object would "
            f"change once, while tracing, and never when the graph runs, where eagerly every "
            f"call changes it; return the new value, or keep it in an ag.Variable")
    kind = type(changed[0][0]).__name__
    if label.startswith("self."):
        raise TracingError(
            f"{function} sets {label} to a traced value or changes a container of it"
            f"{location_note(where)}: the object would hold the trace's value after the "
            f"call, never the graph's; keep such state in an ag.Variable (`{label} = "
            f"ag.Variable(...)` once, then `{label}.assign(...)`), or return the new value")
    raise TracingError(
        f"{function} changes its argument {label!r} (a {kind}){location_note(where)}: a graph "
        f"function's arguments are its inputs, so the change would happen once, while "
        f"tracing, and never reach the caller's {kind} when the graph runs; return the new "
        f"value instead (`return result, {label.split('.')[0].split('[')[0]}`), or change it "
        f"outside the function")


def sets_values(now: dict, before: dict) -> bool:
    """Whether an object's attributes changed other than by a new `Variable` (which a
    first call may create)."""
    return any(not _is_variable(v) for k, v in now.items() if k not in before or
               before[k] is not v) or any(k not in now for k in before)


def _is_variable(value) -> bool:
    return isinstance(value, Variable)


def is_object(value) -> bool:
    try:
        return is_plain_object(value)
    except Exception:  # noqa: BLE001 - a stand-in (an unbound name's) says so when read
        return False


def refuse_traced_in_objects(result, function: str, where) -> None:
    """`TracingError` where the function's result holds an object (not a list, tuple or
    dict, which a graph returns as such) whose attributes hold traced values: returned
    as it is, the object would hold them after the call, never the graph's values."""
    for leaf in flatten(result)[0]:
        if isinstance(leaf, (Tracer, FormattedText)) or not is_object(leaf):
            continue   # (an f-string's text is refused as a result by the trace itself)
        for container, label in containers_in(leaf, "result"):
            for key, value in items_of(container).items():
                if any(isinstance(v, Tracer) for v in flatten(value)[0]):
                    name = f"{label}.{key}" if is_plain_object(container) else f"{label}[{key!r}]"
                    raise TracingError(
                        f"{function} returns a {type(leaf).__name__} object whose {name!r} "
                        f"holds a traced value{location_note(where)}: a graph function "
                        f"returns arrays, numbers and lists, tuples and dicts of them; an "
                        f"object would hold the trace's value after the call, not the "
                        f"graph's: return the values (`return c.count`), or a dict")
