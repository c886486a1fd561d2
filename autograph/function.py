"""`GraphFunction` (what `ag.convert` returns) and `ConcreteFunction` (one traced graph).

A call looks its signature up in a cache (dtypes and shapes of array
arguments, values of Python arguments, structure, device); a miss traces the
Python function into a graph and compiles it. A hit with plain NumPy arrays
as positional arguments takes a short path: one dict lookup, then the graph's
compiled code.
"""
from __future__ import annotations

import functools
import inspect
import threading
import types
import warnings
import weakref

import numpy as np

from runtime import AbstractValue, GraphBuilder, Tracer, config, current_builder
from runtime.backend import get_backend
from runtime.codegen import compile_graph
from runtime.effects import prune_dead_code
from runtime.naming import variable_names
from runtime.ops.call import call as call_graph
from runtime.source import note_original_location, user_stacklevel
from runtime.tree import LEAF, flatten
from runtime.variable_scope import CreationScope
from runtime.verify import verify

from .conversion import convert_function
from .device import current_device
from .device import state as device_state
from .operators import converted_call
from .signature import (
    CallSignature,
    WeakIdentity,
    describe_change,
    flatten_call,
    is_array_key,
    param_specs_of,
)
from .specs import TensorSpec

RETRACE_WARNING_AFTER = 5


class RetracingWarning(UserWarning):
    """A graph function was traced more often than its arguments suggest it should be."""


class ConcreteFunction:
    """The graph traced for one signature, compiled for one device.

    `graph` prints as text and has `to_dot()`; calling it runs the compiled graph.
    """

    def __init__(self, name, graph, call_sig: CallSignature, out_leaves, out_tree, backend,
                 variables=()):
        self.name = name
        self.graph = graph = prune_dead_code(graph)
        self.backend = backend
        self._call_sig = call_sig
        n_arrays = len(graph.inputs) - len(variables)
        self._input_avals = [v.aval for v in graph.inputs[:n_arrays]]
        self._variables = [weakref.ref(v) for v in variables]
        self._static_outputs = [None if isinstance(x, (Tracer, np.ndarray)) else x
                                for x in out_leaves]
        self._is_output = [isinstance(x, (Tracer, np.ndarray)) for x in out_leaves]
        self._out_tree = out_tree
        if config.verify_graphs:
            verify(graph)
        self._fn = compile_graph(graph, backend, self._output_expr,
                                 list(zip(graph.inputs[n_arrays:], self._variables)))

    @property
    def variables(self) -> list:
        """The variables the graph reads or writes, in the order of its resource inputs."""
        variables = [ref() for ref in self._variables]
        if any(v is None for v in variables):
            raise ReferenceError(f"a variable of {self.name} was deleted")
        return variables

    def _output_expr(self, names, global_name):
        it = iter(names)
        exprs = [next(it) if graph_output else global_name(static, "py")
                 for graph_output, static in zip(self._is_output, self._static_outputs)]
        return self._out_tree.to_source(exprs, global_name)

    @property
    def source(self) -> str:
        """The Python source the graph was compiled to."""
        return self._fn.source

    def call_flat(self, inputs):
        """Runs the graph on its flat input arrays; returns the structured outputs."""
        backend = self.backend
        if backend.xp is not np or not all(type(x) is np.ndarray or isinstance(x, np.generic)
                                           for x in inputs):
            inputs = [backend.asarray(x) for x in inputs]
        return self._fn(*inputs)

    def call_in_trace(self, inputs):
        """Stages this graph as one `call` equation of the graph being traced."""
        outs = iter(call_graph(self.graph, *inputs, variables=self.variables))
        leaves = [next(outs) if is_out else static for is_out, static
                  in zip(self._is_output, self._static_outputs)]
        return self._out_tree.unflatten(leaves)

    def __call__(self, *args, **kwargs):
        leaves = flatten((args, kwargs))[0]
        arrays = [x for x in leaves if isinstance(x, (np.ndarray, np.generic))
                  or hasattr(x, "__cuda_array_interface__")]
        if len(arrays) != len(self._input_avals):
            raise TypeError(f"{self.name} takes {len(self._input_avals)} array inputs "
                            f"({', '.join(map(str, self._input_avals))}), got {len(arrays)}")
        for i, (x, aval) in enumerate(zip(arrays, self._input_avals)):
            given = AbstractValue(np.shape(x), np.result_type(x))
            if not aval.accepts(given):
                error = TypeError if given.dtype != aval.dtype else ValueError
                raise error(f"input {i} of {self.name} must be {aval}, got {given}")
        return self.call_flat(arrays)

    def __repr__(self):
        inputs = ", ".join(str(a) for a in self._input_avals)
        return f"<ConcreteFunction {self.name}({inputs}) on {self.backend.name}>"


class GraphFunction:
    """A Python function that runs as a graph: traced once per input signature."""

    def __init__(self, fn, *, input_signature=None, autograph=True, reduce_retracing=False):
        functools.update_wrapper(self, fn)
        self.python_function = fn
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self.autograph = autograph
        self.reduce_retracing = reduce_retracing
        self._signature = _signature_of(fn)
        self._apply_defaults = isinstance(fn, (types.FunctionType, types.MethodType))
        self._param_specs = param_specs_of(fn, self._signature, input_signature)
        self._fast: dict = {}       # (dtype0, shape0, ...) -> compiled graph, CPU only
        self._cache: dict = {}      # (device, CallSignature.key) -> ConcreteFunction
        self._lock = threading.RLock()
        self._last_sig: CallSignature | None = None
        self._bound_instances: dict = {}
        self._may_create_variables = True   # until the first trace succeeds
        self.trace_count = 0

    # -- calls -------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        # The short path: CPU, positional NumPy arrays, a signature seen before.
        # Its key is flat, (dtype0, shape0, dtype1, shape1, ...); the common
        # one-argument case builds it without a loop.
        if not kwargs and device_state.device == "cpu":
            if len(args) == 1:
                x = args[0]
                key = (x.dtype, x.shape) if type(x) is np.ndarray else None
            else:
                key = []
                for x in args:
                    if type(x) is not np.ndarray:
                        key = None
                        break
                    key += (x.dtype, x.shape)
                key = None if key is None else tuple(key)
            compiled = self._fast.get(key)
            if compiled is not None:
                return compiled(*args)
        return self._call(args, kwargs)

    def _call(self, args, kwargs):
        sig = flatten_call(self._signature, args, kwargs, self._param_specs,
                           self._apply_defaults)
        tracing = current_builder() is not None and any(isinstance(x, Tracer) for x in sig.leaves)
        concrete = self._concrete_for(sig)
        inputs = [x for x, k in zip(sig.leaves, sig.keys) if is_array_key(k)]
        if tracing:
            return concrete.call_in_trace(inputs)
        return concrete.call_flat(inputs)

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The graph for one signature: arrays, `TensorSpec`s and Python values as in a call."""
        return self._concrete_for(flatten_call(self._signature, args, kwargs, self._param_specs,
                                               self._apply_defaults))

    def _device_for(self, sig: CallSignature) -> str:
        device = current_device()
        if device == "cpu":
            for x in sig.leaves:
                if hasattr(x, "__cuda_array_interface__"):
                    return f"gpu:{x.device.id}"
        return device

    def _concrete_for(self, sig: CallSignature) -> ConcreteFunction:
        key = (self._device_for(sig), sig.key)
        concrete = self._cache.get(key)
        if concrete is None:
            with self._lock:
                concrete = self._cache.get(key)
                if concrete is None:
                    concrete = self._relaxed_match(key, sig) or self._trace(sig, key[0])
                    self._remember(key, concrete)
                    self._remember_fast_path(key[0], sig, concrete)
        return concrete

    def _remember(self, key, concrete):
        """Caches `concrete`; it is forgotten when an object its key names dies."""
        self._cache[key] = concrete
        for leaf_key in key[1][1]:
            if leaf_key[0] == "object" and isinstance(leaf_key[2], WeakIdentity):
                obj = leaf_key[2].ref()
                if obj is not None:
                    weakref.finalize(obj, _forget, weakref.ref(self), key)

    def _remember_fast_path(self, device, sig, concrete):
        _, trees = sig.trees
        positional = all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                         for p in self._signature.parameters.values())
        if (device == "cpu" and positional and all(t is LEAF for t in trees)
                and all(type(x) is np.ndarray for x in sig.leaves)):
            key = []
            for x in sig.leaves:
                key += (x.dtype, x.shape)
            self._fast[tuple(key)] = concrete._fn

    # -- tracing -----------------------------------------------------------
    def _trace(self, sig: CallSignature, device: str, keys=None) -> ConcreteFunction:
        """Traces the function for `sig`, checking the rules for creating variables.

        Variables may be created on the first trace only. A first trace that
        creates some is repeated (once the variables exist, the Python function
        must not create more): the graph comes from the second trace, and a
        function that creates variables every time it runs fails there.
        """
        keys = keys or sig.keys
        allowed = self._may_create_variables
        concrete, created = self._trace_once(sig, device, keys, allowed)
        if created:
            concrete, _ = self._trace_once(sig, device, keys, False)
        self._may_create_variables = False
        self.trace_count += 1
        self._warn_if_retracing(sig.without_values())
        return concrete

    def _trace_once(self, sig, device, keys, allow_variables: bool):
        builder = GraphBuilder(self.__name__)
        with builder, variable_names():
            leaves = [builder.new_input(AbstractValue(k[2], k[1]), _identifier(label))
                      if is_array_key(k) else x
                      for x, k, label in zip(sig.leaves, keys, sig.labels)]
            known = {t.node.id: x for t, x in zip(leaves, sig.leaves) if isinstance(t, Tracer)
                     and not isinstance(x, TensorSpec)}
            scope = CreationScope(self.__qualname__, builder, allow_variables, known)
            args, kwargs = sig.rebuild(leaves)
            try:
                with scope:
                    out = self._traced_function()(*args, **kwargs)
            except Exception as error:
                note_original_location(error)
                raise
        out_leaves, out_tree = flatten(out)
        graph = builder.build([x for x in out_leaves if isinstance(x, (Tracer, np.ndarray))])
        concrete = ConcreteFunction(self.__name__, graph, sig.without_values(), out_leaves,
                                    out_tree, get_backend(device),
                                    [variable for variable, _ in builder.resources])
        return concrete, bool(scope.created)

    def _traced_function(self):
        """What tracing calls: the converted function, unless `autograph=False`."""
        fn = self.python_function
        if not self.autograph or getattr(fn, "_ag_method", False):
            return fn  # a method's own wrapper converts the method it calls
        if isinstance(fn, types.FunctionType):
            return convert_function(fn)
        return lambda *args, **kwargs: converted_call(fn, args, kwargs)

    def _warn_if_retracing(self, sig):
        previous, self._last_sig = self._last_sig, sig
        if self.trace_count > RETRACE_WARNING_AFTER and previous is not None:
            warnings.warn(
                f"{self.__qualname__} was traced {self.trace_count} times; this time "
                f"because {describe_change(previous, sig)}. Tracing is slow: pass arrays "
                f"rather than changing Python values, give an input_signature with None "
                f"dimensions, or use reduce_retracing=True", RetracingWarning,
                stacklevel=user_stacklevel())

    def _relaxed_match(self, key, sig):
        """With `reduce_retracing`, a graph with unknown dims for shapes that vary."""
        if not self.reduce_retracing:
            return None
        device = key[0]
        for (other_device, (trees, keys)), concrete in list(self._cache.items()):
            relaxed = _relax(keys, sig.keys) if (other_device, trees) == (device, sig.trees) \
                else None
            if relaxed is None:
                continue
            relaxed_key = (device, (trees, relaxed))
            if relaxed_key not in self._cache:
                self._remember(relaxed_key, self._trace(sig, device, relaxed))
            return self._cache[relaxed_key]
        return None

    @property
    def variables(self) -> list:
        """The variables that the traced graphs use, each once, in the order first used."""
        found = {}
        for concrete in list(self._cache.values()):
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
            method = GraphFunction(_weak_method(self.python_function, ref, self.autograph),
                                   input_signature=self.input_signature,
                                   autograph=self.autograph,
                                   reduce_retracing=self.reduce_retracing)
            bound = self._bound_instances[id(instance)] = (ref, method)
        return bound[1]

    def __repr__(self):
        return f"<GraphFunction {self.__qualname__} (traced {self.trace_count} times)>"


def _forget(function_ref, key):
    """Drops a cache entry whose key names an object that died."""
    function = function_ref()
    if function is not None:
        concrete = function._cache.pop(key, None)
        if concrete is not None:
            function._fast = {k: fn for k, fn in function._fast.items() if fn is not concrete._fn}


def _relax(old_keys, new_keys):
    """Keys with differing dims made unknown, where only array shapes differ."""
    out = []
    for a, b in zip(old_keys, new_keys):
        if a == b:
            out.append(a)
        elif is_array_key(a) and is_array_key(b) and a[1] == b[1] and len(a[2]) == len(b[2]):
            out.append(("array", a[1], tuple(x if x == y else None for x, y in zip(a[2], b[2]))))
        else:
            return None
    return tuple(out)


def _identifier(label: str) -> str:
    name = "".join(c if c.isalnum() else "_" for c in label).strip("_")
    while "__" in name:
        name = name.replace("__", "_")
    return name or "arg"


def _signature_of(fn) -> inspect.Signature:
    try:
        return inspect.signature(fn, eval_str=True)
    except (NameError, SyntaxError, TypeError):
        return inspect.signature(fn)


def _weak_or_strong_ref(instance, table):
    """A weak reference that drops `instance`'s entry from `table` when it dies."""
    key = id(instance)
    try:
        return weakref.ref(instance, lambda _: table.pop(key, None))
    except TypeError:  # no __weakref__ slot: the cache keeps the instance alive
        return lambda: instance


def _weak_method(function, ref, autograph: bool):
    """`function` (converted if `autograph`) bound to the object behind `ref`, weakly."""
    signature = inspect.signature(function)
    params = list(signature.parameters.values())[1:]

    @functools.wraps(function)
    def method(*args, **kwargs):
        instance = ref()
        if instance is None:
            raise ReferenceError(f"the object of method {function.__qualname__} was deleted")
        target = convert_function(function) if autograph else function
        return target(instance, *args, **kwargs)
    method.__signature__ = signature.replace(parameters=params)
    method._ag_method = True
    return method
