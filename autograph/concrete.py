"""`ConcreteFunction`: the graph traced for one signature, compiled for one device."""
from __future__ import annotations

import weakref

import numpy as np

from runtime import AbstractValue, Tracer, config, current_builder
from runtime.codegen import compile_graph
from runtime.effects import prune_dead_code
from runtime.ops.call import call as call_graph
from runtime.ops.python_numbers import python_number_output
from runtime.tree import flatten
from runtime.verify import verify

from .signature import CallSignature


class ConcreteFunction:
    """The graph traced for one signature, compiled for one device.

    `graph` prints as text and has `to_dot()`; calling it runs the compiled graph.
    """

    def __init__(self, name, graph, call_sig: CallSignature, out_leaves, out_tree, backend,
                 variables=(), reads_unknown_dims: bool = False):
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
        self.reads_unknown_dims = reads_unknown_dims   # its Python read a None in a .shape
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
        names = [python_number_output(name, atom.aval, self.backend.xp, global_name)
                 for name, atom in zip(names, self.graph.outputs)]
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
        """Stages this graph as one `call` equation of the graph being traced.

        A graph whose Python code read an unknown dimension passes that on to the
        caller's trace (a caller relaxed by `reduce_retracing` then traces exact shapes).
        """
        if self.reads_unknown_dims:
            current_builder().note_unknown_dim_read()
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
