"""`SharedTraces`: the graphs of one Python function, shared by every graph function of it.

`ag.convert(f)(x)` or `ag.grad(f)(x)` written in a loop makes a new graph
function each time round. Each finds here, keyed by the function object `f`
and the options (`autograph`, `reduce_retracing`, the input signature), the
conversion of `f` and the graphs the others traced, by `CacheKey`: the loop
behaves as if `f` had been converted once, before it. (As for one graph
function, what `f` reads of its globals and closure while it is traced is
baked into its graphs; a shared graph whose trace read a binding that holds
another value now is not taken, `frozen_bindings.py`.)

A graph function behaves as if it were the only one: where it would trace, it
takes the shared graph instead, and counts it as its trace (`trace_count`, the
trace log and `RetracingWarning` say what they said before); only the time
is saved (conversion, tracing, compiling). One whose `autograph` setting or
`__code__` is changed afterwards leaves the others and converts anew.

Not shared: callables that are not plain Python functions (a partial, an
object, a ufunc, a method bound per instance), graphs whose key names an
object by identity (a model passed as an argument), and a function whose
traces create `ag.Variable`s (each graph function makes its own, as before).
A new function object is a new function, even with the same code and
closure cells (whose contents may have changed): a `lambda` or nested `def`
re-created each time round a loop traces each time, and after
`RECREATED_WARNING_AFTER` of them `recreated` tells the caller to warn.

The registry keeps a `SharedTraces` while a graph function uses it, and the
`RECENT` ones made or found last besides, so a wrapper re-created each time
round a loop finds the graphs the previous one (now dead) left.

>>> import numpy as np
>>> import autograph as ag
>>> def double(x):
...     return x * 2
>>> graphs = {id(ag.convert(double).get_concrete_function(np.ones(2))) for _ in range(3)}
>>> len(graphs)
1
"""
from __future__ import annotations

import collections
import threading
import types
import weakref

from .ahead import ConvertedAhead
from .trace_cache import TraceCache

RECENT = 16   # shared traces kept with no graph function using them
RECREATED_WARNING_AFTER = 5   # new function objects of one code object before a warning


class SharedTraces:
    """The conversion of one function and the graphs its graph functions traced."""

    __slots__ = ("conversion", "graphs", "created_variables", "__weakref__")

    def __init__(self, fn, autograph: bool):
        self.conversion = ConvertedAhead(fn, autograph)
        self.graphs = TraceCache()        # CacheKey -> ConcreteFunction, bounded
        self.created_variables = False    # a trace made ag.Variables: no graph is shared


_live: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_functions_of_code: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # see `recreated`
_recent: collections.OrderedDict = collections.OrderedDict()
_registry_lock = threading.Lock()


def share_key(fn, options: tuple):
    """The registry key of `fn` with `options`, or None where its graphs are not shared."""
    if type(fn) is not types.FunctionType or getattr(fn, "_ag_method", False):
        return None
    key = (fn, options)
    try:
        hash(key)
    except TypeError:   # an input signature of lists
        return None
    return key


def recreated(fn) -> bool:
    """True once per code object, when more than `RECREATED_WARNING_AFTER` function objects
    of it were converted one after the other with the same closure cells: a `lambda` or
    nested `def` re-created each time round a loop (each traces anew). Functions a
    factory makes (new cells each) do not count."""
    code = getattr(fn, "__code__", None)
    if type(fn) is not types.FunctionType or code is None or getattr(fn, "_ag_method", False):
        return False
    with _registry_lock:
        seen = _functions_of_code.get(code)     # [weak ref to the last function, run, warned]
        if seen is None:
            _functions_of_code[code] = [weakref.ref(fn), 1, False]
            return False
        last = seen[0]()
        if last is fn:
            return False
        seen[0] = weakref.ref(fn)
        same = (last is not None and last.__globals__ is fn.__globals__ and
                len(last.__closure__ or ()) == len(fn.__closure__ or ()) and
                all(a is b for a, b in zip(last.__closure__ or (), fn.__closure__ or ())))
        seen[1] = seen[1] + 1 if same else 1
        if seen[1] > RECREATED_WARNING_AFTER and not seen[2]:
            seen[2] = True
            return True
    return False


def shared_traces(key, make) -> SharedTraces:
    """The `SharedTraces` under `key` (made by `make()` where none can be shared)."""
    if key is None:
        return make()
    with _registry_lock:
        shared = _live.get(key)
        if shared is None or shared.created_variables:
            shared = make()
            _live[key] = shared
        _recent[key] = shared
        _recent.move_to_end(key)
        while len(_recent) > RECENT:
            _recent.popitem(last=False)
    return shared
