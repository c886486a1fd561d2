"""`ConcreteFunction`: the graph traced for one signature, compiled for one device."""
from __future__ import annotations

import functools
import os
import weakref

import numpy as np

from autograph_runtime import AbstractValue, Tracer, TracingError, config, current_builder
from autograph_runtime.codegen import compile_graph
from autograph_runtime.codegen_control import inlines_loops
from autograph_runtime.dask_arrays import is_dask_array
from autograph_runtime.effects import prune_dead_code
from autograph_runtime.native import compile_native
from autograph_runtime.onnx import export_graph
from autograph_runtime.ops.call import call as call_graph
from autograph_runtime.ops.effects import assert_p
from autograph_runtime.ops.python_numbers import python_number_output
from autograph_runtime.passes import optimize
from autograph_runtime.tracer_value import write_in_place
from autograph_runtime.tree import flatten
from autograph_runtime.verify import verify

from .argument_writes import check_targets, copy_back, with_callers_arrays
from .cache_keys import is_array_key
from .signature import CallSignature
from .tiers import Tiering
from .tiers import settings as tier_settings


class ConcreteFunction:
    """The graph traced for one signature, compiled for one device.

    `graph` prints as text and has `to_dot()`; calling it runs the compiled graph.
    `writes_arguments` maps each flat array input the function writes in place
    to the graph output holding its final value (after the result's outputs);
    a call copies those into the caller's arrays (`argument_writes.py`).
    `fast_call(*arrays)` is what the short call path runs: the compiled graph
    itself where no argument is written.
    """

    def __init__(self, name, graph, call_sig: CallSignature, out_leaves, out_tree, backend,
                 variables=(), reads_unknown_dims: bool = False, writes_arguments=(),
                 tier: str | None = None, closure=()):
        self.name = name
        self.closure = list(closure)   # the caller's traced values it reads (then uncached)
        self.graph = graph = prune_dead_code(graph)
        self.optimized_graph = optimize(graph, backend) if config.optimize else graph
        self.backend = backend
        self._call_sig = call_sig
        n_arrays = len(graph.inputs) - len(variables)
        self._input_avals = [v.aval for v in graph.inputs[:n_arrays]]
        self._variables = [weakref.ref(v) for v in variables]
        self._static_outputs = [None if isinstance(x, (Tracer, np.ndarray)) else x
                                for x in out_leaves]
        self._is_output = [isinstance(x, (Tracer, np.ndarray)) for x in out_leaves]
        self._out_tree = out_tree
        self.reads_unknown_dims = reads_unknown_dims   # its Python read a None in a .shape
        self.bindings = None   # the plain globals, cells, `self.NAME` it read (frozen_bindings.py)
        self._writes = tuple(writes_arguments)
        n_results = sum(self._is_output)
        self.writes_arguments = {i: n_results + j for j, i in enumerate(self._writes)}
        # (leaf of the result, written input): a result that is the argument's final value
        result_outputs = [k for k, is_out in enumerate(self._is_output) if is_out]
        self._returns_written = tuple(
            (leaf, i) for leaf, atom in zip(result_outputs, graph.outputs)
            for i, out in self.writes_arguments.items() if graph.outputs[out] is atom)
        if config.verify_graphs:
            verify(graph)
        self._bound = list(zip(graph.inputs[n_arrays:], self._variables))
        self._plain_fn = None   # the NumPy tier's code without trip counters, once compiled
        self._tiering = Tiering(self, tier or tier_settings.tier, self._compile_native)
        if self._tiering.counting and inlines_loops(self.optimized_graph):
            # until it is hot, the code counting loop trips runs (`autograph.tiers`); the
            # code without the counters is compiled when the graph gets hot (`_numpy_fn`)
            self._fn = compile_graph(self.optimized_graph, backend, self._output_expr,
                                     self._bound, trips=self._tiering.trips)
        elif self._tiering.tier == "numpy":
            self._fn = self._numpy_fn
        if self._writes:
            self.fast_call = self._call_writing
        elif self._tiering.counting:
            self.fast_call = self._call_counting
        else:
            self.fast_call = self._fn

    @property
    def _numpy_fn(self):
        """The graph's NumPy-tier code without trip counters (compiled on first use)."""
        if self._plain_fn is None:
            self._plain_fn = compile_graph(self.optimized_graph, self.backend,
                                           self._output_expr, self._bound)
        return self._plain_fn

    @functools.cached_property
    def replayable(self) -> bool:
        """Whether running the graph does nothing but compute its results (no print, no
        variable written, no Python called, no random draw; a staged `assert` is fine, and
        so is a loop run as Python whose code has none, `island_effects`): a call it
        failed in a way eager code would not may then run eagerly instead."""
        return not any(eqn.primitive.effectful and eqn.primitive is not assert_p and
                       not eqn.params.get("no_effect", False) for eqn in self.graph.all_eqns())

    @property
    def tier(self) -> str:
        """`"numpy"` or `"native"`: the tier that runs the graph now (`autograph.tiers`)."""
        return self._tiering.tier

    @property
    def tier_reason(self) -> str | None:
        """Why the graph runs on the NumPy tier (None where it runs native)."""
        return self._tiering.reason

    def _compile_native(self, in_worker: bool = False):
        return compile_native(self.optimized_graph, self._numpy_fn, self._output_expr, in_worker)

    def _call_counting(self, *inputs):
        if self._tiering.counting:
            self._tiering.count(inputs)
        return self._fn(*inputs)

    @property
    def variables(self) -> list:
        """The variables the graph reads or writes, in the order of its resource inputs."""
        variables = [ref() for ref in self._variables]
        if any(v is None for v in variables):
            raise ReferenceError(f"a variable of {self.name} was deleted")
        return variables

    def _output_expr(self, names, global_name):
        names = [python_number_output(name, atom.aval, self.backend.xp, global_name)
                 for name, atom in zip(names, self.graph.outputs)]
        it = iter(names)
        exprs = [next(it) if graph_output else global_name(static, "py")
                 for graph_output, static in zip(self._is_output, self._static_outputs)]
        result = self._out_tree.to_source(exprs, global_name)
        if self._writes:   # (result, (final value of each written argument,))
            return f"({result}, ({''.join(name + ', ' for name in it)}))"
        return result

    @property
    def source(self) -> str:
        """The Python source the graph runs as now (with trip counters while it counts them)."""
        return self._fn.source

    def call_flat(self, inputs):
        """Runs the graph on its flat input arrays; returns the structured outputs.

        Arguments the function writes in place are written back before it returns.
        """
        if self._writes:
            check_targets(inputs, self._writes, self.name, self._labels)
        callers = inputs
        backend = self.backend
        if backend.xp is not np or not all(type(x) is np.ndarray or isinstance(x, np.generic)
                                           for x in inputs):
            inputs = [backend.asarray(x) for x in inputs]
        if self._tiering.counting:
            self._tiering.count(inputs)
        if not self._writes:
            result = self._fn(*inputs)
        else:
            result, written = self._fn(*inputs)
            copy_back(callers, self._writes, written)
            result = with_callers_arrays(result, callers, self._writes, written,
                                         self._returns_written)
        if backend.finish is not None:   # a lazy backend's results (`DaskBackend.finish`)
            leaves, tree = flatten(result)
            result = tree.unflatten(backend.finish(leaves))
        return result

    def _call_writing(self, *inputs):
        return self.call_flat(inputs)

    def _labels(self):
        sig = self._call_sig
        if sig is None:
            return None
        return [label for label, key in zip(sig.labels, sig.keys) if is_array_key(key)]

    def call_in_trace(self, inputs):
        """Stages this graph as one `call` equation of the graph being traced.

        A graph whose Python code read an unknown dimension passes that on to the
        caller's trace (a caller relaxed by `reduce_retracing` then traces exact shapes).
        """
        if self.reads_unknown_dims:
            current_builder().note_unknown_dim_read()
        outs = iter(call_graph(self.graph, *inputs, *self.closure, variables=self.variables))
        leaves = [next(outs) if is_out else static for is_out, static
                  in zip(self._is_output, self._static_outputs)]
        for i, value in zip(self._writes, outs):   # the caller's traced arrays, rewritten
            target = inputs[i]
            if any(j != i and isinstance(x, Tracer) and x.node is getattr(target, "node", None)
                   for j, x in enumerate(inputs)):
                raise TracingError(
                    f"{self.name} writes in place its argument {i}, and another of its "
                    f"arguments is the same traced array: its graph was traced for distinct "
                    f"arrays; pass a copy")
            if isinstance(target, Tracer):
                write_in_place(target, value, f"write of its argument by {self.name}")
            elif isinstance(target, np.ndarray):
                raise TracingError(
                    f"{self.name} writes in place its argument {i}, a NumPy array while "
                    f"tracing (not a traced value): the write would happen once, while "
                    f"tracing; pass a copy and use the result instead")
        return self._out_tree.unflatten(leaves)

    def __call__(self, *args, **kwargs):
        leaves = flatten((args, kwargs))[0]
        arrays = [x for x in leaves if isinstance(x, (np.ndarray, np.generic))
                  or hasattr(x, "__cuda_array_interface__") or is_dask_array(x)]
        if len(arrays) != len(self._input_avals):
            raise TypeError(f"{self.name} takes {len(self._input_avals)} array inputs "
                            f"({', '.join(map(str, self._input_avals))}), got {len(arrays)}")
        for i, (x, aval) in enumerate(zip(arrays, self._input_avals)):
            given = AbstractValue(np.shape(x), np.result_type(x))
            if not aval.accepts(given):
                error = TypeError if given.dtype != aval.dtype else ValueError
                raise error(f"input {i} of {self.name} must be {aval}, got {given}")
        return self.call_flat(arrays)

    def export_onnx(self, path: str | os.PathLike, opset: int | None = None) -> object:
        """Writes the traced graph as an ONNX model to `path` (atomically; `onnx.checker`
        passes on it); returns the `onnx.ModelProto`. See `autograph.onnx_export`."""
        return export_graph(self.graph, path, self.variables, opset, self.name)

    def __repr__(self):
        inputs = ", ".join(str(a) for a in self._input_avals)
        return f"<ConcreteFunction {self.name}({inputs}) on {self.backend.name}>"
