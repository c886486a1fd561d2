"""`GraphFunction` (what `ag.convert` returns): the call path of a graph function.

The function is converted when the graph function is made (`ahead.py`). A
call looks its signature up in the `TraceCache` (dtypes and shapes of array
arguments, values of Python arguments, structure, device); a miss traces the
converted function into a graph (`runtime.tracing.trace_to_graph`, under the
variable-creation policy of `variable_policy.py`) and compiles it into a
`ConcreteFunction`. A later call like one the full path served takes a
short path (`fast_path.py`): a key of the raw arguments, one dict lookup,
then the graph's compiled code (NumPy arrays and scalars, Python numbers,
strings, None, tuples and lists of them, keywords, defaults; any other
argument keeps the full path).
A graph is not run after a plain value its trace read by name (a global, a
closure cell, `self.NAME`) is rebound: the call traces again
(`frozen_bindings.py`; on the short path, `binding_guard.py`).
With `reduce_retracing`, a relaxed trace (unknown dims) that fails falls
back to the call's exact shapes. Every trace is recorded in the trace log
(`trace_log.py`); `RetracingWarning` comes once per argument that changed.
"""
from __future__ import annotations

import functools
import inspect
import threading
import types
import warnings
import weakref

import numpy as np

from autograph_runtime import AbstractValue, TracingError, config, current_builder
from autograph_runtime.backend import get_backend
from autograph_runtime.call_modes import modes as call_modes
from autograph_runtime.dask_arrays import is_dask_array
from autograph_runtime.errors import IslandTypeError, NoneOnThisPathError
from autograph_runtime.ops.random import warn_frozen_draws
from autograph_runtime.ops.effects import may_fail
from autograph_runtime.ops.subgraphs import defer, refusing_deferred
from autograph_runtime.ir import SourceInfo
from autograph_runtime.source import note_original_location, user_stacklevel
from autograph_runtime.tracer import _stack as _tracing   # its `builders`: read on every call
from autograph_runtime.tracing import is_array, trace_to_graph

from . import argument_containers, eager_fallback, trace_log
from .argument_writes import ArgumentsNotFollowed
from .binding_guard import BindingChanged, guard
from .ahead import ConvertedAhead
from .conversion import check_convertible
from .concrete import ConcreteFunction
from .device import current_device
from .error_hints import note_unknown_dimension
from .device import state as device_state
from .eager_mode import setting as eager_mode
from .frozen_bindings import snapshot
from .cache_keys import CacheKey, ObjectKey, describe_changes, is_array_key
from .operators.staging import holding_arguments
from .call_layouts import keyer_for
from .fast_path import call_key, prepare
from .module_state import ModuleStateChanged, ModuleWatch, refusing_every_change
from .operators.in_place import read_only
from .operators.outside_iterators import iterators_in, watching
from .outside_arrays import outside_arrays, refusal
from .signature import CallSignature, flatten_call, param_specs_of
from .specs import TensorSpec
from .shared_traces import (RECREATED_WARNING_AFTER, SharedTraces, recreated, share_key,
                            shared_traces)
from .tiers import check_tier
from .tracebacks import hide_internal_frames, raised_inside
from .traced_recursion import explained
from .tiers import settings as tier_settings
from .trace_cache import TraceCache
from .variable_policy import FirstTraceCreates

__all__ = ["ConcreteFunction", "GraphFunction", "RetracingWarning"]

RETRACE_WARNING_AFTER = 5
_ndarray = np.ndarray   # read on every call: one global, not `np` and its attribute


class RetracingWarning(UserWarning):
    """A graph function was traced more often than its arguments suggest it should be."""


class GraphFunction:
    """A Python function that runs as a graph: traced once per input signature."""

    def __init__(self, fn, *, input_signature=None, autograph=True, reduce_retracing=False,
                 tier=None, eager_fallback=None, _share_key=None, _eager=True):
        check_convertible(fn)
        self.tier = check_tier(tier)
        self.eager_fallback = eager_fallback   # None: `ag.set_eager_fallback`'s (eager_fallback.py)
        self._refused: dict = {}   # cache key -> the refusal of its trace: such calls run eagerly
        self._retried: set = set()   # keys refused once for module state (`_retries`)
        self._fallbacks_warned: set = set()   # signatures, or kinds of errors, warned of
        _take_names(self, fn)
        self.python_function = fn
        # what runs under ag.run_functions_eagerly(True): the unconverted function (None:
        # a gradient, which needs its graph)
        self._eager = (getattr(fn, "_ag_eager", fn) if _eager else None)
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self.autograph = autograph
        self.reduce_retracing = reduce_retracing
        self._signature = _signature_of(fn)
        self._apply_defaults = not isinstance(fn, (np.ufunc, types.BuiltinFunctionType))
        self._param_specs = param_specs_of(fn, self._signature, input_signature)
        if _share_key is None:
            _share_key = share_key(fn, (autograph, reduce_retracing, self.input_signature,
                                        tuple(self._param_specs.items()),
                                        self.tier or tier_settings.tier, config.optimize))
            if recreated(fn):
                warnings.warn(
                    f"ag.convert was applied to more than {RECREATED_WARNING_AFTER} new "
                    f"function objects of {self.__qualname__} (a lambda or nested def made "
                    f"anew, in a loop?); each is a new function and traces anew. Define it "
                    f"once, outside the loop, or pass what changes as an argument",
                    RetracingWarning, stacklevel=user_stacklevel())
        # the conversion, and graphs traced by other graph functions of `fn` (shared_traces.py)
        self._shared = shared_traces(_share_key, lambda: SharedTraces(fn, autograph))
        self._conversion = self._shared.conversion
        self._shared_as = (getattr(fn, "__code__", None), autograph)   # leaves if these change
        self._traces = TraceCache()
        self._fast = self._traces.fast       # the short path's table (TraceCache.fast)
        self._keyer = call_key               # its key of a call: call_layouts.keyer_for
        self._variable_policy = FirstTraceCreates(self.__qualname__)
        self._lock = threading.RLock()
        self._last_sig: tuple[CallSignature, str] | None = None   # and its device
        self._warned: set[str] = set()   # the arguments a RetracingWarning named
        self._bound_instances: dict = {}
        self.trace_count = 0

    # -- calls -------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        try:
            # The short path: a call whose raw key (`fast_path.call_key`: arrays' dtypes
            # and shapes, Python values, keywords) the full path has seen runs its graph
            # after one dict lookup, where no thread traces, runs eagerly or runs in a
            # device block (`call_modes`: else the call reads its own thread's state).
            if not call_modes.entered:
                if len(args) == 1 and not kwargs:   # the commonest calls, keyed inline
                    x = args[0]
                    t = type(x)
                    if t is _ndarray:
                        entry = self._fast.get((x.dtype, x.shape))
                    else:   # a lone NumPy scalar's key is its type
                        entry = self._fast.get(t) or self._fast.get(call_key(args, kwargs))
                else:   # keyed by code made for the layout of calls seen (call_layouts.py)
                    entry = self._fast.get(self._keyer(args, kwargs))
                if entry is not None:
                    run, call = entry
                    try:
                        return run(*args) if call is None else call(args, kwargs)
                    except BindingChanged:   # a global or attribute its trace read: traced anew
                        pass
                return self._call(args, kwargs)
            return self._call_in_mode(args, kwargs)
        except ArgumentsNotFollowed as error:   # found before the graph ran (argument_writes.py)
            if not _tracing.builders and self._falls_back(error):
                self._fall_back(error)
                return self._eager(*args, **kwargs)
            hide_internal_frames(error)
            raise
        except (NoneOnThisPathError, IslandTypeError) as error:   # eager code goes on there
            if not _tracing.builders and self._replays(args, kwargs, error):
                return self._eager(*args, **kwargs)
            hide_internal_frames(error)
            raise
        except Exception as error:
            if not _tracing.builders:   # raised to the user: without our own frames
                hide_internal_frames(error)
            raise

    def _call_in_mode(self, args, kwargs):
        """A call while some thread traces, runs eagerly or runs in a device block."""
        tracing = _tracing.builders
        if eager_mode.on and self._eager is not None and not tracing:
            return self._eager(*args, **kwargs)   # ag.run_functions_eagerly(True)
        key = call_key(args, kwargs)
        if device_state.device != "cpu" and key is not None:
            key = (device_state.device, key)
        entry = self._fast.get(key)
        if entry is not None and not tracing:
            run, call = entry
            try:
                return run(*args) if call is None else call(args, kwargs)
            except BindingChanged:
                pass
        return self._call(args, kwargs)

    def _call(self, args, kwargs):
        sig = flatten_call(self._signature, args, kwargs, self._param_specs,
                           self._apply_defaults, self.__qualname__)
        tracing = current_builder() is not None
        try:
            if not tracing and self._may_fall_back():
                # a call that may run eagerly refuses what its graph would get wrong: an
                # error of the tracer's own in code that may not run, a change of module state
                with refusing_deferred(raised_inside), refusing_every_change():
                    concrete, key = self._lookup(sig)
            else:
                concrete, key = self._lookup(sig)
        except Exception as error:
            if tracing or not self._falls_back(error):
                raise
            self._fall_back(error, sig.cache_key(self._device_for(sig)))
            return self._eager(*args, **kwargs)
        inputs = [x for x, k in zip(sig.leaves, sig.keys) if is_array_key(k)]
        if tracing:
            return concrete.call_in_trace(inputs)
        self._prepare_short_path(args, kwargs, sig, key, concrete)
        return concrete.call_flat(inputs)

    def _prepare_short_path(self, args, kwargs, sig: CallSignature, key: CacheKey, concrete):
        """Lets later calls like this one take the short path (where `fast_path` can key them)."""
        raw = call_key(args, kwargs)
        if raw is None:
            return
        if device_state.device != "cpu":
            raw = (device_state.device, raw)
        if raw in self._fast:
            return
        run = concrete.fast_call if concrete.backend.xp is np else _flat_caller(concrete)
        if concrete.bindings is not None:   # checks the globals and attributes it read
            run = guard(run, concrete.bindings, sum(map(is_array_key, sig.keys)))
        try:
            entry = prepare(self._signature, self._apply_defaults, args, kwargs, sig, run)
        except Exception:   # a call it cannot mirror keeps the full path, which served it
            return
        if entry is not None:
            with self._lock:
                self._traces.remember_call(key, concrete, raw, entry)
            if len(args) != 1 or kwargs:
                self._keyer = keyer_for(args, kwargs)

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The graph for one signature: arrays, `TensorSpec`s and Python values as in a call."""
        try:
            return self._concrete_for(flatten_call(self._signature, args, kwargs,
                                                   self._param_specs, self._apply_defaults,
                                                   self.__qualname__))
        except Exception as error:
            if not _tracing.builders:   # raised to the user: without our own frames
                hide_internal_frames(error)
            raise

    def _device_for(self, sig: CallSignature) -> str:
        device = current_device()
        if device == "cpu":
            for x in sig.leaves:
                if hasattr(x, "__cuda_array_interface__"):
                    return f"gpu:{x.device.id}"
                if is_dask_array(x):   # Dask arrays outside any device block: on Dask
                    return "dask"
        return device

    def _concrete_for(self, sig: CallSignature) -> ConcreteFunction:
        return self._lookup(sig)[0]

    def _lookup(self, sig: CallSignature) -> tuple[ConcreteFunction, CacheKey]:
        """The graph for `sig` (traced now on a miss), and its key."""
        key = sig.cache_key(self._device_for(sig))
        concrete, stale = self._cached(key)
        if concrete is None:
            with self._lock:
                concrete, again = self._cached(key)
                if concrete is None:
                    stale = stale or again
                    refused = self._refused.get(key)
                    if refused is not None:   # calls like this one run eagerly
                        raise refused
                    concrete = self._relaxed_match(key, sig, stale) or \
                        self._trace(sig, key.device, stale=stale)
                    if not concrete.closure:   # else it holds the caller's traced values
                        self._remember(key, concrete)
        return concrete, key

    def _cached(self, key: CacheKey):
        """(the graph cached under `key`, None), or (None, (binding, why)) where a binding
        its trace read holds another value now (`frozen_bindings.py`): it is forgotten,
        its short-path entries with it, and the call traces again."""
        concrete = self._traces.get(key)
        if concrete is None or concrete.bindings is None:
            return concrete, None
        stale = concrete.bindings.stale()
        if stale is None:
            return concrete, None
        with self._lock:
            if self._traces.entries.get(key) is concrete:
                self._traces.forget(key)
        return None, stale

    def _may_fall_back(self) -> bool:
        """Whether the eager fallback is on for this function, and may run it here."""
        enabled = self.eager_fallback
        if enabled is None:
            enabled = eager_fallback.settings.eager_fallback
        return enabled and self._eager is not None and current_device() == "cpu"

    def _falls_back(self, error: BaseException) -> bool:
        """Whether a call whose trace raised `error` runs the function eagerly instead."""
        return eager_fallback.is_refusal(error) and self._may_fall_back()

    def _replays(self, args, kwargs, error: BaseException) -> bool:
        """Whether a call whose graph raised `error`, where eager code would not fail, runs
        eagerly instead: the fallback is on and the graph had no effect but its results
        (`ConcreteFunction.replayable`), so running the function again is eager's run."""
        if not self._may_fall_back():
            return False
        sig = flatten_call(self._signature, args, kwargs, self._param_specs,
                           self._apply_defaults, self.__qualname__)
        concrete = self._traces.get(sig.cache_key("cpu"))
        if concrete is None or not concrete.replayable:
            return False
        self._fall_back(error)
        return True

    def _fall_back(self, error: BaseException, key: CacheKey | None = None) -> None:
        """A call runs eagerly (eager_fallback.py) for `error`: a refused trace's `key` is
        remembered, so later calls with it run eagerly without tracing again; the first
        call of each signature (each kind of error, for one found when the call ran) warns."""
        with self._lock:
            if key is not None and not self._retries(error, key):
                self._refused[key] = error.with_traceback(None)   # not the trace's frames
            seen = key if key is not None else type(error)
            if seen in self._fallbacks_warned:
                return
            self._fallbacks_warned.add(seen)
        warnings.warn(eager_fallback.warning_text(self.__qualname__, error),
                      eager_fallback.FallbackWarning, stacklevel=user_stacklevel())

    def _retries(self, error: BaseException, key: CacheKey) -> bool:
        """Whether the next call with `key` traces again: a first refusal for module state
        (a module-level cache its eager run fills may leave the next trace a graph)."""
        if not isinstance(error, (ModuleStateChanged, argument_containers.ObjectStateChanged)) \
                or key in self._retried:
            return False
        self._retried.add(key)
        return True

    def _remember(self, key: CacheKey, concrete):
        for evicted in self._traces.remember(key, concrete):
            trace_log.evicted(self.__qualname__, evicted.trees, evicted.leaves,
                              self._traces.max_entries)

    def _relaxed_match(self, key: CacheKey, sig: CallSignature, stale=None):
        """With `reduce_retracing`, a graph with unknown dims for shapes that vary.

        A relaxed trace that fails (Python code that needs a dimension, like
        `range(x.shape[0])`, meets `None`) is abandoned: the call, and later
        ones that fit the same relaxed key, trace their exact shapes, whose
        errors (if any) surface as they would without `reduce_retracing`.
        """
        if not self.reduce_retracing:
            return None
        relaxed = self._traces.relaxed_key(key)
        if relaxed is None:
            return None
        concrete, again = self._cached(relaxed)
        if concrete is None:
            try:
                concrete = self._trace(sig, key.device, relaxed.leaves, stale or again)
            except Exception as error:
                self._traces.abandon(relaxed)
                trace_log.relaxed_fallback(self.__qualname__, relaxed.trees, relaxed.leaves,
                                           error)
                return None
            self._remember(relaxed, concrete)
        return concrete

    # -- tracing -----------------------------------------------------------
    def _trace(self, sig: CallSignature, device: str, keys=None,
               stale: tuple[str, str] | None = None) -> ConcreteFunction:
        """Traces the function for `sig` (with `keys` in place of its keys where given);
        `stale`: (binding, why) where a binding its graph for them read changed.

        A graph another graph function of the same Python function traced for
        these keys is taken instead (unless a binding it read changed since), and
        counted as this function's trace.
        """
        keys = keys or sig.keys
        now = (getattr(self.python_function, "__code__", None), self.autograph)
        if now[0] is not self._shared_as[0] or now[1] != self._shared_as[1]:
            # its code or `autograph` was changed since: it shares nothing with the others
            self._shared = SharedTraces(self.python_function, self.autograph)
            self._conversion = self._shared.conversion
            self._shared_as = now
        shared, key = self._shared, CacheKey(device, sig.trees, keys)
        shareable = not shared.created_variables and not any(type(k) is ObjectKey for k in keys)
        concrete = shared.graphs.get(key) if shareable else None
        if concrete is not None and concrete.bindings is not None and \
                concrete.bindings.changed() is not None:   # traced with an older value
            shared.graphs.forget(key)
            concrete = None
        if concrete is not None:
            self._variable_policy.may_create = False   # as after a first trace creating none
        else:
            concrete = self._variable_policy.trace(
                lambda allowed: self._trace_once(sig, device, keys, allowed))
            if shareable and not shared.created_variables and not concrete.closure:
                shared.graphs.remember(key, concrete)
        self.trace_count += 1
        sig = sig.without_values()
        previous, self._last_sig = self._last_sig, (sig, device)
        if stale is not None:   # (the binding, why)
            changes, why = dict([stale]), stale[1]
        elif previous is None:
            changes, why = {}, "a new function"
        else:
            changes = describe_changes(previous[0], sig)
            why = ("; ".join(changes.values()) or
                   ("the device changed" if previous[1] != device else
                    "the same signature again: its graph was dropped from the cache"))
        if concrete.closure:   # not cached: it is traced at each call, not retraced
            why = "it reads traced values of the function calling it (traced at each call)"
        trace_log.traced(self.__qualname__, self.trace_count, sig.trees, keys, device, why)
        if not concrete.closure:
            self._warn_if_retracing(changes, why)
        return concrete

    def _trace_once(self, sig, device, keys, allow_variables: bool):
        """One trace: (the ConcreteFunction, whether it created variables)."""
        avals = [AbstractValue(k.shape, k.dtype) if is_array_key(k) else None for k in keys]
        names = [_identifier(label) for label in sig.labels]
        scopes = []

        def scope(builder, inputs):
            # a variable made on the first call may take its initial value from an argument
            arrays = [x for x, aval in zip(sig.leaves, avals) if aval is not None]
            known = {t.node.id: x for t, x in zip(inputs, arrays) if not isinstance(x, TensorSpec)}
            array_keys = [k for k in keys if is_array_key(k)]
            builder.maybe_arrays.difference_update(   # NumPy scalars, as their keys say
                t.node.id for t, k in zip(inputs, array_keys) if k.scalar)
            scopes.append(self._variable_policy.scope(builder, allow_variables, known))
            return scopes[-1]

        def call(*leaves):
            args, kwargs = sig.rebuild(leaves)
            containers = argument_containers.watch(self._signature, args, kwargs) + \
                argument_containers.watch_instance(self.python_function)
            module = ModuleWatch(self.python_function)
            outside = outside_arrays(module.named, containers + module.containers) \
                if module.every_change else {}   # (a graph asked for: tf.function's writes)
            try:
                with holding_arguments([c for c, _, _ in containers if type(c) is list]), \
                        read_only([array for array, _ in outside.values()], probe=False), \
                        watching(iterators_in(module.named.values())
                                 if module.every_change else frozenset()):
                    result = target(*args, **kwargs)
            except Exception as error:
                refused, deferred = refusal(error, outside, self.__qualname__), False
                try:   # an assert staged before may raise first when the graph runs, as eagerly
                    deferred = refused is None and may_fail(current_builder().eqns) and \
                        defer(error)
                finally:
                    if not deferred:
                        argument_containers.put_back(containers)
                        module.put_back()
                if deferred:
                    return None
                if refused is not None:
                    raise refused from error
                raise
            where = _definition(self.python_function)
            argument_containers.refuse_changed(containers, self.__qualname__, where,
                                               every_change=module.every_change)
            module.refuse_changed(self.__qualname__, where)
            argument_containers.refuse_traced_in_objects(result, self.__qualname__, where)
            return result

        try:
            target = self._conversion.target(self.autograph)
            with warn_frozen_draws(self.__name__):  # a draw made while tracing is frozen
                traced = trace_to_graph(call, tuple(sig.leaves), name=self.__name__,
                                        input_avals=avals, input_names=names, scope=scope,
                                        name_values=True, is_output=is_array,
                                        write_back=True, closure=True)
        except RecursionError as error:
            raise explained(error, self.__qualname__) from None
        except Exception as error:
            note_original_location(error)
            note_unknown_dimension(error, keys)
            raise
        builder = traced.builder
        if builder.read_unknown_dims and keys is not sig.keys:
            # `x.shape[0] == 1` is False for every size of a relaxed dimension
            raise TracingError(f"{self.__qualname__} reads a dimension that reduce_retracing "
                               f"made unknown (x.shape); it is traced with exact shapes")
        concrete = ConcreteFunction(self.__name__, traced.graph, sig.without_values(),
                                    traced.out_leaves, traced.out_tree, get_backend(device),
                                    [variable for variable, _ in builder.resources],
                                    reads_unknown_dims=builder.read_unknown_dims,
                                    writes_arguments=traced.written, tier=self.tier,
                                    closure=[outer for outer, _ in builder.closure])
        concrete.bindings = snapshot(self.python_function)   # the plain values it read
        if scopes[0].created:
            self._shared.created_variables = True   # graph functions of it make their own
        return concrete, bool(scopes[0].created)

    def _warn_if_retracing(self, changes: dict, why: str):
        """Warns after `RETRACE_WARNING_AFTER` traces, once per argument that changed.

        The text holds no count, so Python's warning filter shows it once per
        call site; the trace log counts every trace.
        """
        if self.trace_count <= RETRACE_WARNING_AFTER:
            return
        arguments = set(changes) or {why}
        if arguments <= self._warned:
            return
        self._warned |= arguments
        warnings.warn(
            f"{self.__qualname__} was traced more than {RETRACE_WARNING_AFTER} times; this "
            f"time because {why}. Tracing is slow: pass arrays rather than changing Python "
            f"values, give an input_signature with None dimensions, or use "
            f"reduce_retracing=True (the 'autograph' logger counts traces at INFO)",
            RetracingWarning, stacklevel=user_stacklevel())

    @property
    def variables(self) -> list:
        """The variables that the traced graphs use, each once, in the order first used."""
        found = {}
        for concrete in self._traces.values():
            for variable in concrete.variables:
                found.setdefault(id(variable), variable)
        return list(found.values())

    # -- methods -----------------------------------------------------------
    def __get__(self, instance, owner=None):
        """The graph function of this method for `instance`, with its own cache.

        It holds `instance` weakly, so converting a method keeps no object alive.
        """
        if instance is None:
            return self
        bound = self._bound_instances.get(id(instance))
        if bound is None or bound[0]() is not instance:
            ref = _weak_or_strong_ref(instance, self._bound_instances)
            method = GraphFunction(_weak_method(self.python_function, ref, self._conversion),
                                   input_signature=self.input_signature,
                                   autograph=self.autograph,
                                   reduce_retracing=self.reduce_retracing, tier=self.tier,
                                   eager_fallback=self.eager_fallback)
            bound = self._bound_instances[id(instance)] = (ref, method)
        return bound[1]

    def __repr__(self):
        return f"<GraphFunction {self.__qualname__} (traced {self.trace_count} times)>"


def _flat_caller(concrete: ConcreteFunction):
    """`run(*arrays)` for a graph on another device (its inputs are moved there first)."""
    def run(*arrays):
        return concrete.call_flat(arrays)
    return run


def _take_names(graph_function, fn) -> None:
    """`fn`'s name, qualified name, module and docstring, also for partials and objects."""
    if isinstance(fn, (types.FunctionType, types.MethodType)) or hasattr(fn, "__qualname__"):
        functools.update_wrapper(graph_function, fn)
        return
    inner = fn
    while isinstance(inner, functools.partial):
        inner = inner.func
    if inner is fn:     # an object with a `__call__`: named after its class
        cls = type(fn)
        name, qualname = cls.__name__, f"{cls.__qualname__}.__call__"
    else:
        name = getattr(inner, "__name__", type(inner).__name__)
        qualname = getattr(inner, "__qualname__", name)
    graph_function.__name__, graph_function.__qualname__ = name, qualname
    graph_function.__module__ = getattr(inner, "__module__", None)
    graph_function.__doc__ = getattr(inner, "__doc__", None)
    graph_function.__wrapped__ = fn


def _definition(fn) -> SourceInfo | None:
    """Where `fn` is defined, for messages."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    return SourceInfo(code.co_filename, code.co_firstlineno, code.co_name) if code else None


def _identifier(label: str) -> str:
    name = "".join(c if c.isalnum() else "_" for c in label).strip("_")
    while "__" in name:
        name = name.replace("__", "_")
    return name or "arg"


_ANY_ARGUMENTS = inspect.Signature([
    inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
    inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)])


def _signature_of(fn) -> inspect.Signature:
    try:
        return inspect.signature(fn, eval_str=True)
    except (NameError, SyntaxError, TypeError):
        return inspect.signature(fn)
    except ValueError:  # a built-in whose parameters Python does not expose (max, range)
        if _from_numpy(fn):   # NumPy's C functions before NumPy 2.4: as they are called
            return _ANY_ARGUMENTS
        name = getattr(fn, "__name__", type(fn).__name__)
        raise TypeError(f"ag.convert cannot read the parameters of {name!r} (a built-in "
                        f"without a signature); wrap it in a Python function, e.g. "
                        f"ag.convert(lambda a, b: {name}(a, b))") from None


def _from_numpy(fn) -> bool:
    """A ufunc, a ufunc's method or another of NumPy's functions."""
    if isinstance(fn, np.ufunc) or isinstance(getattr(fn, "__self__", None), np.ufunc):
        return True
    return (getattr(fn, "__module__", None) or "").split(".")[0] == "numpy"


def _weak_or_strong_ref(instance, table):
    """A weak reference that drops `instance`'s entry from `table` when it dies."""
    key = id(instance)
    try:
        return weakref.ref(instance, lambda _: table.pop(key, None))
    except TypeError:  # no __weakref__ slot: the cache keeps the instance alive
        return lambda: instance


def _weak_method(function, ref, conversion: ConvertedAhead):
    """`function` (as `conversion` converted it) bound to the object behind `ref`, weakly."""
    signature = inspect.signature(function)
    params = list(signature.parameters.values())[1:]

    @functools.wraps(function)
    def method(*args, **kwargs):
        instance = ref()
        if instance is None:
            raise ReferenceError(f"the object of method {function.__qualname__} was deleted")
        return conversion.target()(instance, *args, **kwargs)

    def eager(*args, **kwargs):   # unconverted, for ag.run_functions_eagerly
        instance = ref()
        if instance is None:
            raise ReferenceError(f"the object of method {function.__qualname__} was deleted")
        return function(instance, *args, **kwargs)
    method.__signature__ = signature.replace(parameters=params)
    method._ag_method = True
    method._ag_eager = eager
    method._ag_self_ref, method._ag_function = ref, function   # for frozen_bindings.snapshot
    return method
