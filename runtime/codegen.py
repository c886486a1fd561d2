"""Compiling a graph to a Python function: the fast way to run it.

Each equation becomes one line calling its bound kernel (or a Python operator
where one means the same, `c = a * b`, which is fastest on NumPy scalars);
`cond` and `while_loop` become real `if` and `while` statements (their
`primitives.emitters`, in `codegen_control`), other higher-order kernels get
their subgraphs compiled; values are
deleted after their last use. The source is registered with `linecache`, so
tracebacks and `pdb` show it, and an error raised by a line gets a note naming
the equation and the user's `file:line` it was traced from.

Buffer reuse (NumPy only): an elementwise ufunc whose array operand dies at
it writes its result into that operand's array, `t2 = __add(t0, t1, out=t0)`,
where the operand is a fresh array of this block (a ufunc's or `matmul`'s
result, read only by ufuncs and `matmul`, so no view of it or reference to it
lives on), not an output, and of the result's known shape and dtype, with at
least `REUSE_MIN_SIZE` elements (below, NumPy's cached allocation is as fast:
measured on bench/lstm.py's cells). NumPy's own kernel computes it, so the
values are bit for bit the same.
"""
from __future__ import annotations

import itertools
import linecache
import math
import weakref

import numpy as np

from . import config, primitives
from .aliasing import storage_outputs
from .errors import add_note_once
from .ir import Graph, Literal
from .ops.control_flow import cond_p
from .ops.elementwise import ELEMENTWISE_UFUNCS, ufunc_primitive
from .ops.linalg import matmul_p
from .passes.scalar_lowering import lower_scalars
from .passes.trip_threading import thread_trips
from .printing import Namer

# `power` stays a call: ndarray's `x ** 2` computes `square`, whose dtype differs for bool.
INFIX = {
    "add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//",
    "remainder": "%", "matmul": "@", "equal": "==", "not_equal": "!=",
    "less": "<", "less_equal": "<=", "greater": ">", "greater_equal": ">=",
    "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^", "left_shift": "<<",
    "right_shift": ">>",
}
PREFIX = {"negative": "-", "positive": "+", "invert": "~"}

UFUNCS = {ufunc_primitive(u): u for u in ELEMENTWISE_UFUNCS if u.nout == 1}
FRESH = {*UFUNCS, matmul_p}  # results are new arrays; operands are neither kept nor viewed
REUSE_MIN_SIZE = 4096  # elements: below, NumPy's cached allocation beats parsing `out=`

_serial = itertools.count()


class CodeGen:
    """Builds the source of one Python function from a graph tree."""

    trips = None   # where set, `emit_while` counts each loop's trips and reports them to it

    def __init__(self, graph: Graph, backend, name: str, bound_inputs=(), subgraph=False):
        self.backend = backend
        self.subgraph = subgraph   # its 0-d results go on as they are, NumPy scalars too
        self.namer = Namer()
        self.globals: dict = {}
        self.lines: list[str] = []
        self.line_eqns: dict[int, object] = {}
        self.alias: dict[int, str] = {}
        self.name = name
        self.graph = graph
        self.bound_inputs = list(bound_inputs)
        self._typed: dict = {}   # (dtype, bytes) -> the name of a typed literal

    def global_name(self, value, stem: str) -> str:
        name = f"__{stem}{len(self.globals)}"
        self.globals[name] = value
        return name

    def compile_subgraph(self, graph: Graph):
        """The `run_graph` callback of higher-order kernels (a `call`): `graph` compiled."""
        return compile_graph(graph, self.backend, subgraph=True)

    def ref(self, atom) -> str:
        if isinstance(atom, Literal):
            value = atom.value
            if type(value) in (bool, int) or (
                    type(value) is float and value == value and abs(value) != float("inf")):
                return repr(value)
            return self.global_name(value, "lit")
        alias = self.alias.get(atom.id)
        return alias if alias is not None else self.namer(atom)

    def emit(self, indent: str, text: str, eqn=None):
        self.lines.append(indent + text)
        if eqn is not None:
            self.line_eqns[len(self.lines)] = eqn

    def block(self, graph: Graph, indent: str, keep=(), test=False):
        """Emits `graph`'s equations; deletes each value after its last use. A scalar
        test read once, by the next equation (or, in a loop's `test` graph, as its
        result), is written into the line reading it: `if (n_2 % 2) == 0:`."""
        for var, value in graph.consts.items():
            self.alias[var.id] = self.global_name(self.backend.asarray(value), "const")
        last_use = {}
        for i, eqn in enumerate(graph.eqns):
            for atom in eqn.inputs:
                if not isinstance(atom, Literal):
                    last_use[atom.id] = i
        outputs = {a.id for a in graph.outputs if not isinstance(a, Literal)} | set(keep)
        reuse = self._reusable(graph, last_use, outputs)
        inlined = _inlined_tests(graph, test)
        defined = set()
        for i, eqn in enumerate(graph.eqns):
            if i in inlined:
                self.alias[eqn.outputs[0].id] = f"({inlined[i](self, [self.ref(a) for a in eqn.inputs])})"
                defined.add(eqn.outputs[0].id)
                continue
            self.equation(eqn, indent, reuse.get(i))
            defined.update(v.id for v in eqn.outputs)
            dead = [a for a in dict.fromkeys(eqn.inputs) if not isinstance(a, Literal)
                    and last_use.get(a.id) == i and a.id in defined and a.id not in outputs
                    and a.aval.ndim]   # a scalar holds no memory worth a `del`
            if dead:
                self.emit(indent, "del " + ", ".join(self.ref(a) for a in dead))
            unused = [v for v in eqn.outputs if v.id not in last_use and v.id not in outputs
                      and v.aval.ndim]
            if unused:
                self.emit(indent, "del " + ", ".join(self.ref(v) for v in unused))

    def _reusable(self, graph: Graph, last_use: dict, outputs: set) -> dict:
        """Equation index -> the operand whose array its result may be written into."""
        if self.backend.xp is not np:
            return {}
        fresh, spoiled, reuse = set(), set(), {}
        for i, eqn in enumerate(graph.eqns):
            if eqn.primitive not in FRESH:
                spoiled.update(a.id for a in eqn.inputs if not isinstance(a, Literal))
                continue
            out = eqn.outputs[0].aval
            if (eqn.primitive in UFUNCS and not eqn.params and out.ndim and out.fully_known
                    and math.prod(out.shape) >= REUSE_MIN_SIZE):
                for atom in eqn.inputs:
                    if (not isinstance(atom, Literal) and atom.id in fresh
                            and last_use.get(atom.id) == i and atom.id not in outputs
                            and atom.aval == out):
                        reuse[i] = atom
                        break
            if out.ndim and not out.weak:
                fresh.add(eqn.outputs[0].id)
        return {i: atom for i, atom in reuse.items() if atom.id not in spoiled}

    def equation(self, eqn, indent: str, out_operand=None):
        refs = [self.ref(a) for a in eqn.inputs]
        outs = [self.ref(v) for v in eqn.outputs]   # a name `codegen_control` coalesced
        emitter = primitives.emitters.get(eqn.primitive)
        if emitter is not None:
            return emitter(self, eqn, refs, outs, indent)
        if out_operand is not None:
            ufunc = self.global_name(UFUNCS[eqn.primitive], "u")
            call = f"{ufunc}({', '.join(refs)}, out={self.ref(out_operand)})"
            return self.emit(indent, f"{outs[0]} = {call}", eqn)
        if not self.backend.inline_operators:
            return self.kernel_call(eqn, refs, outs, indent)
        name = eqn.primitive.name
        # Python's operator on Python numbers only (weak values) is not NumPy's ufunc
        numpy_operands = not all(a.aval.weak for a in eqn.inputs)
        if eqn.primitive in UFUNCS and not eqn.params and numpy_operands:
            refs = self._typed_literals(eqn, refs)
        if not eqn.params and name in INFIX and len(refs) == 2 and numpy_operands:
            call = f"{refs[0]} {INFIX[name]} {refs[1]}"
        elif name == "power" and not eqn.params and numpy_operands and _float_scalar(eqn):
            call = f"{refs[0]} ** {refs[1]}"   # NumPy's scalar math, as eager `s ** k` runs
        elif not eqn.params and name in PREFIX and len(refs) == 1 and numpy_operands:
            call = f"{PREFIX[name]}{refs[0]}"
        else:
            return self.kernel_call(eqn, refs, outs, indent)
        self.assign(outs, call, indent, eqn)

    def kernel_call(self, eqn, refs, outs, indent):
        """`outs = kernel(*refs)`: the equation's bound kernel, called."""
        kernel = self.backend.eqn_kernel(eqn, self.compile_subgraph)
        self.assign(outs, f"{self.global_name(kernel, 'k')}({', '.join(refs)})", indent, eqn)

    def assign(self, outs, expression: str, indent: str, eqn):
        target = ", ".join(outs) if len(outs) > 1 else (outs[0] if outs else "")
        if eqn.primitive.multiple_results and len(outs) == 1:
            target += ","
        self.emit(indent, f"{target} = {expression}" if target else expression, eqn)

    def _typed_literals(self, eqn, refs: list) -> list:
        """`refs` with each Python number operand of an array ufunc as a 0-d array of the
        result's dtype, where NumPy casts it to that dtype anyway (NEP 50) and exactly:
        `1 + x` costs 0.58 µs on a float32 (1, 10) array, `__lit0 + x` 0.28 µs."""
        out = eqn.outputs[0].aval
        if self.backend.xp is not np or out.dtype.kind not in "iuf" or not any(
                not isinstance(a, Literal) and a.aval.ndim and a.aval.dtype == out.dtype
                for a in eqn.inputs):
            return refs
        ufunc = UFUNCS[eqn.primitive]
        try:   # the loop NumPy picks: `ldexp(x_f32, 2)` takes its 2 as an int32
            loop = ufunc.resolve_dtypes(tuple(type(a.value) if isinstance(a, Literal)
                                              and type(a.value) in (int, float)
                                              else a.aval.dtype for a in eqn.inputs)
                                        + (None,) * ufunc.nout)
        except TypeError:
            return refs
        if any(dtype != out.dtype for dtype in loop[:ufunc.nin]):
            return refs
        return [self._typed_literal(a.value, out.dtype) if isinstance(a, Literal)
                and type(a.value) in (int, float) else ref for a, ref in zip(eqn.inputs, refs)]

    def _typed_literal(self, value, dtype) -> str:
        with np.errstate(all="ignore"):
            typed = np.asarray(value).astype(dtype)
        exact = typed.item() == value if type(value) is int else bool(np.isfinite(typed))
        if not exact:
            return self.ref(Literal(value))   # NumPy's own cast raises or warns: keep it
        key = (typed.dtype.str, typed.tobytes())
        name = self._typed.get(key)
        if name is None:
            name = self._typed[key] = self.global_name(typed, "lit")
        return name

    def function_source(self, output_expr=None) -> str:
        """The whole `def`: signature, body in a try block, return statement."""
        graph = self.graph
        bound = {var.id for var, _ in self.bound_inputs}
        params = ", ".join(self.namer(v) for v in graph.inputs if v.id not in bound)
        self.emit("", f"def {self.name}({params}):")
        self.emit("    ", "try:")
        self._bind_weak_inputs("        ")
        self.block(graph, "        ")
        copies = storage_outputs(graph)
        outs = [self._output(a, i in copies) for i, a in enumerate(graph.outputs)]
        if output_expr is not None:
            result = output_expr(outs, self.global_name)
        else:
            result = f"({', '.join(outs)}{',' if len(outs) == 1 else ''})"
        self.emit("        ", f"return {result}")
        self.emit("    ", "except BaseException as error:")
        self.emit("        ", "__note(error)")
        self.emit("        ", "raise")
        return "\n".join(self.lines) + "\n"

    def _bind_weak_inputs(self, indent):
        """`w = __ref0()` for each input bound to a weakly held object (a variable)."""
        if not self.bound_inputs:
            return
        names = []
        for var, ref in self.bound_inputs:
            names.append(self.namer(var))
            self.emit(indent, f"{names[-1]} = {self.global_name(ref, 'ref')}()")
        self.emit(indent, f"if {' or '.join(f'{n} is None' for n in names)}:")
        deleted = self.global_name(_deleted_reporter(self.graph.name, self.bound_inputs), "dead")
        self.emit(indent + "    ", f"{deleted}({', '.join(names)})")

    def _output(self, atom, storage: bool) -> str:
        ref = self.ref(atom)
        if storage:  # a constant's or a variable's own array (or a view of it): a copy
            return f"{self.global_name(self.backend.xp.array, 'array')}({ref})"
        if atom.aval.weak:  # a Python number, as in eager code
            return ref
        if atom.aval.ndim == 0 and not self.subgraph:   # the caller gets an array
            return f"{self.global_name(self.backend.xp.asarray, 'asarray')}({ref})"
        return ref


def _float_scalar(eqn) -> bool:
    """A 0-d float or complex result: `**` of NumPy scalars is NumPy's scalar math, which
    rounds otherwise than its `np.power` loop (1 ulp, at times) and is what eager code
    runs on the NumPy scalars it holds; n-d `**` takes NumPy's shortcuts (`x ** 2` is
    `np.square`, an int8 for bools), where the graph's `power` is `np.power`'s."""
    out = eqn.outputs[0].aval
    return out.ndim == 0 and out.dtype.kind in "fc"


def _comparison(eqn):
    name = eqn.primitive.name
    if eqn.params or name not in _COMPARISONS or eqn.outputs[0].aval.ndim:
        return None
    return lambda gen, refs: f"{refs[0]} {INFIX[name]} {refs[1]}"


_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
for _ufunc in UFUNCS:
    if _ufunc.name in _COMPARISONS:
        primitives.inline_expressions[_ufunc] = _comparison


def _inlined_tests(graph: Graph, test: bool) -> dict:
    """Equation index -> how to write it inline, for each 0-d test whose one reader is
    the next equation (the predicate of a `cond`, or another inline test), or, in a
    loop's `test` graph, the result only."""
    uses: dict = {}
    for eqn in graph.eqns:
        for atom in eqn.inputs:
            if not isinstance(atom, Literal):
                uses[atom.id] = uses.get(atom.id, 0) + 1
    for atom in graph.outputs:
        if not isinstance(atom, Literal):
            uses[atom.id] = uses.get(atom.id, 0) + 1
    found = {}
    for i in range(len(graph.eqns) - 1, -1, -1):   # backwards: an inline reader is known
        eqn = graph.eqns[i]
        rule = primitives.inline_expressions.get(eqn.primitive)
        write = rule(eqn) if rule is not None and len(eqn.outputs) == 1 else None
        if write is None or uses.get(eqn.outputs[0].id) != 1:
            continue
        out = eqn.outputs[0]
        if i + 1 < len(graph.eqns):
            reader = graph.eqns[i + 1]
            if reader.primitive is cond_p and reader.inputs[0] is out or \
                    i + 1 in found and any(a is out for a in reader.inputs):
                found[i] = write
        elif test and graph.outputs[0] is out:
            found[i] = write
    return found


def _deleted_reporter(graph_name, bound_inputs):
    names = [var.name or "unnamed" for var, _ in bound_inputs]

    def report(*objects):
        dead = ", ".join(repr(n) for n, o in zip(names, objects) if o is None)
        raise ReferenceError(f"graph {graph_name!r} uses variables that were deleted ({dead}); "
                             f"a graph holds its variables weakly, so keep the objects that "
                             f"own them alive while calling it")
    return report


# Sources of collected graph functions. A compiled function sits in a reference cycle
# (it is in its own globals), so it dies in a garbage collection, which may run inside
# `linecache.checkcache` (pdb, doctest), whose loop fails on an entry popped meanwhile.
_dead_sources: list[str] = []


def compile_graph(graph: Graph, backend, output_expr=None, bound_inputs=(), subgraph=False,
                  trips=None):
    """A Python function computing `graph` on `backend`.

    `output_expr(names, global_name)`, if given, returns the expression the
    function returns (to build nested outputs directly); by default a tuple.
    `bound_inputs` pairs inputs with weak references: the function does not
    take them as arguments but dereferences them when it runs. A `subgraph` (run
    by a higher-order kernel) returns its 0-d values as they are, where a graph
    returns each as a 0-d array: a NumPy scalar stays one for the code after it.
    `trips(n, inputs)`, if given, is called after each run of an inlined `while`
    loop with its number of trips (`codegen_control`: a graph counting them).
    """
    if config.optimize and backend.xp is np:   # every graph the NumPy tier runs, subgraphs too
        graph = thread_trips(lower_scalars(graph))
    name = "".join(c if c.isalnum() else "_" for c in graph.name) or "graph"
    gen = CodeGen(graph, backend, name, bound_inputs, subgraph)
    gen.trips = trips
    source = gen.function_source(output_expr)
    filename = f"<graph {graph.name} #{next(_serial)}>"
    _forget_dead_sources()
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    gen.globals["__note"] = _error_noter(filename, gen, graph.name)
    exec(compile(source, filename, "exec"), gen.globals)
    function = gen.globals[name]
    function.source = source
    weakref.finalize(function, _dead_sources.append, filename)
    return function


def _forget_dead_sources():
    while True:
        try:
            filename = _dead_sources.pop()  # atomic: threads may compile at once
        except IndexError:
            return
        linecache.cache.pop(filename, None)


def _error_noter(filename, gen, graph_name):
    line_eqns = gen.line_eqns
    lines = gen.lines

    def note(error):
        tb, lineno = error.__traceback__, None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == filename:
                lineno = tb.tb_lineno
            tb = tb.tb_next
        eqn = line_eqns.get(lineno)
        if eqn is None:
            return
        where = f", traced from {eqn.source}" if eqn.source else ""
        add_note_once(error, f"raised by `{lines[lineno - 1].strip()}` "
                             f"({eqn.primitive.name}) in graph {graph_name!r}{where}")
    return note


