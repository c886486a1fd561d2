"""Compiling a graph with Numba, and the Python function that calls the machine code.

`compile_native(graph, fallback, output_expr)` returns a function with the same arguments and
results as the NumPy tier's `fallback` (a graph's flat inputs in, its outputs
out), or raises `Unsupported` saying why the graph stays on the NumPy tier. The
machine code is called through the entry point of its one signature (arrays of
any layout, 0-d inputs as scalars), which skips Numba's type dispatch; where it
raises `Deopt`, the same inputs run on `fallback`, so NumPy's warnings, errors
and arbitrary-precision Python ints come from NumPy.
"""
from __future__ import annotations

import itertools
import linecache
import re

import numpy as np

from ..aliasing import storage_outputs
from . import array_rules, control, disk_cache, elementwise_rules, shape_rules, worker
from .emit import NativeGen
from .loader import numba_module
from .scalars import Unsupported

_serial = itertools.count()
_LOWERINGS = (array_rules, control, elementwise_rules, shape_rules)   # their rows fill the table


class Deopt(Exception):
    """Raised by native code where NumPy would warn or raise: run the NumPy tier."""


def native_source(graph) -> tuple[str, NativeGen]:
    """The Numba source of `graph` (`Unsupported` where a part has no lowering)."""
    if any(not hasattr(v.aval, "ndim") or v.aval.weak for v in graph.inputs):
        raise Unsupported("a weak or resource input")
    name = "".join(c if c.isalnum() else "_" for c in graph.name) or "graph"
    gen = NativeGen(graph)
    return gen.function_source(f"native_{name}"), gen


def type_specs(graph, gen) -> list[tuple]:
    """The native function's parameter types, without Numba: `(dtype, ndim, layout)`.
    Arguments may have any layout; the constants are C-ordered copies."""
    specs = [(np.dtype(v.aval.dtype).str, v.aval.ndim, "A") for v in graph.inputs]
    specs += [(value.dtype.str, value.ndim, "C") for _, value in gen.const_args]
    return specs


def unsupported_reason(graph) -> str | None:
    """Why `graph` cannot run on the native tier (None where it can), without Numba."""
    try:
        _check_lowerable(graph)
    except Unsupported as error:
        return str(error)
    return None


def _check_lowerable(graph):
    for eqn in graph.all_eqns():
        if eqn.primitive.effectful or eqn.primitive.state:
            raise Unsupported(f"primitive {eqn.primitive.name!r} has effects")
    source, gen = native_source(graph)
    if _only_numpy_calls(source):
        raise Unsupported("every operation would call NumPy's kernels (large arrays): the "
                          "NumPy tier makes the same calls, without leaving machine code")
    return source, gen


# The lines of a native function that does nothing but call NumPy (`numpy_kernels`):
_NUMPY_CALL_LINES = re.compile(
    r"\s*(with objmode\(.*|\w+, ok_\d+_ = call_numpy\(.*|if not ok_\d+_:|raise Deopt\(\)"
    r"|\w+ = \w+\[[\d:, ]*\]|return \(.*)$")


def _only_numpy_calls(source: str) -> bool:
    """Whether the native function's body is only `objmode` calls of NumPy's kernels (and
    basic slices of their results): machine code would gain nothing."""
    body = source.split("\n\n\n")[0].splitlines()[1:]
    return "call_numpy(" in source and all(
        _NUMPY_CALL_LINES.match(line) for line in body if line.strip())


def compile_native(graph, fallback, output_expr, in_worker: bool = False):
    """`graph` as machine code, called like `fallback` (the NumPy tier's function).

    `output_expr(names, global_name)` builds the returned structure, as for
    `runtime.codegen.compile_graph`. `in_worker`: compile in another process first
    (`worker.py`), so this process only loads the machine code from the disk cache
    (a compile holds the GIL for seconds; a load for a fraction of one).
    """
    source, gen = _check_lowerable(graph)
    name = source.split("(")[0][4:]
    specs = type_specs(graph, gen)
    if in_worker:
        worker.compile_in_worker(source, name, specs)
    numba = numba_module()
    types = disk_cache.numba_types(numba, specs)
    dispatcher = disk_cache.load_cached(numba, source, name, types)
    if dispatcher is None:
        dispatcher = numba.njit(types, error_model="numpy", nogil=disk_cache.nogil(source))(
            _in_memory(source, name, graph.name))
    entry = dispatcher.overloads[types].entry_point
    function = _caller(graph, entry, fallback, output_expr, gen, source)
    function.from_disk_cache = bool(dispatcher.stats.cache_hits)
    return function


def _in_memory(source, name, graph_name):
    filename = f"<native {graph_name} #{next(_serial)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(disk_cache.HEADER, namespace)   # as a cached file: np, Deopt, the helpers (Numba)
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def _caller(graph, entry, fallback, output_expr, gen, source):
    """The Python function around the entry point: 0-d inputs as scalars, a deopt to
    `fallback`, and outputs as the NumPy tier returns them."""
    globals_ = {"__entry": entry, "__fallback": fallback, "__Deopt": Deopt,
                "__asarray": np.asarray}
    names = []

    def global_name(value, stem):
        name = f"__{stem}{len(globals_)}"
        globals_[name] = value
        return name
    params = [f"a{i}" for i in range(len(graph.inputs))]
    args = [f"{p}[()]" if v.aval.ndim == 0 else p for p, v in zip(params, graph.inputs)]
    args += [global_name(value, "const") for _, value in gen.const_args]
    lines = [f"def native_call({', '.join(params)}):",
             "    try:",
             f"        outs = __entry({', '.join(args)})",
             "    except __Deopt:",
             f"        return __fallback({', '.join(params)})"]
    copies = storage_outputs(graph)
    for i, atom in enumerate(graph.outputs):
        name = f"o{i}"
        names.append(name)
        value = f"outs[{i}]"
        if atom.aval.ndim == 0 and not atom.aval.weak:
            value = f"__asarray({value}, {global_name(np.dtype(atom.aval.dtype), 'dtype')})"
        elif i in copies:   # a constant's own array: a copy, as the NumPy tier returns
            value = f"{value}.copy()"
        lines.append(f"    {name} = {value}")
    lines.append(f"    return {output_expr(names, global_name)}")
    text = "\n".join(lines) + "\n"
    exec(compile(text, f"<native call {graph.name}>", "exec"), globals_)
    function = globals_["native_call"]
    function.source = source
    return function
