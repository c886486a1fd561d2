"""Graphs as JSON-ready data, and back: the readable half of a saved function.

A graph becomes a dict of inputs, equations and outputs; values are numbered,
types read like `float32[?,3]` (a variable's resource: `ref float32[3]`), and
constant arrays go to a side table (`constants`) that the caller stores as
binary. Equation params are JSON values, with tagged objects for what JSON
lacks: `{"dtype": "float32"}`, `{"slice": [0, null, 2]}`, `{"graph": {...},
"ref": 0}` (a subgraph; where it appears again, `{"graph_ref": 0}`). A
primitive's `primitives.save_rules` entry refuses what cannot be saved
(`py_function`); its `primitives.load_rules` entry completes the params of
graphs saved by older versions (a `while_loop`'s operand counts).

>>> import numpy as np
>>> from autograph_runtime import GraphBuilder, AbstractValue
>>> with GraphBuilder("f") as b:
...     x = b.new_input(AbstractValue((None, 3), np.float32), "x")
...     y = (x * 2).sum(axis=1)
>>> data = graph_to_data(b.build([y]), constants={})
>>> data["eqns"][1]["op"], data["eqns"][1]["in"], data["eqns"][1]["out"], data["eqns"][1]["params"]
('sum', [1], [[2, 'float32[?]']], {'axis': [1], 'keepdims': False})
>>> print(graph_from_data(data, {}))
graph f(x:f32[?,3]) {
  t0:f32[?,3] = multiply x 2
  t1:f32[?] = sum[axis=(1,), keepdims=False] t0
  return t1
}
"""
from __future__ import annotations

import builtins
import collections
import functools
import keyword

import numpy as np

from . import primitives
from .abstract import PYTHON_DTYPES, AbstractValue, ResourceType
from .errors import AutographError
from .ir import Eqn, Graph, Literal, SourceInfo, Var
from .ops.indexing import Dyn
from .tree import TreeDef


class SerializationError(AutographError, ValueError):
    """A graph holds something that cannot be written (or read) as data."""


# -- types ----------------------------------------------------------------------

def type_to_text(aval: AbstractValue) -> str:
    dims = ",".join("?" if d is None else str(d) for d in aval.shape)
    text = f"{aval.dtype.name}[{dims}]{'~weak' if aval.weak else ''}"
    return f"ref {text}" if isinstance(aval, ResourceType) else text


def type_from_text(text: str) -> AbstractValue:
    kind = AbstractValue
    if text.startswith("ref "):
        kind, text = ResourceType, text[4:]
    name, _, dims = text.partition("[")
    weak = kind is AbstractValue and dims.endswith("]~weak")  # a Python number
    dims = dims.removesuffix("~weak") if weak else dims
    if not dims.endswith("]"):
        raise SerializationError(f"malformed type {text!r}")
    shape = [None if d == "?" else int(d) for d in dims[:-1].split(",") if d]
    if any(d is not None and d < 0 for d in shape):
        raise SerializationError(f"malformed type {text!r}: a negative dimension")
    dtype = dtype_from_text(name)
    if weak and (shape or dtype not in PYTHON_DTYPES.values()):
        raise SerializationError(f"malformed type {text!r}: a Python number is a bool[], "
                                 f"int64[], float64[] or complex128[]")
    return AbstractValue((), dtype, weak=True) if weak else kind(tuple(shape), dtype)


def dtype_from_text(name: str) -> np.dtype:
    """The dtype named `name`: a bool, integer, float or complex one, by its canonical name."""
    dtype = np.dtype(name) if isinstance(name, str) else None
    if dtype is None or dtype.kind not in "biufc" or dtype.name != name:
        raise SerializationError(f"{name!r} is not the name of a numeric dtype")
    return dtype


# -- values: params and literals -------------------------------------------------

def value_to_data(value, where: str):
    """A param or literal value as JSON data (tuples become lists)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and type(value) is int:
        return value
    if type(value) is float:
        return value if np.isfinite(value) else {"float": repr(value)}
    if type(value) is complex:
        return {"complex": [repr(value.real), repr(value.imag)]}
    if isinstance(value, np.generic):
        return {"scalar": value_to_data(value.item(), where), "dtype": value.dtype.name}
    if isinstance(value, np.dtype):
        return {"dtype": value.name}
    if isinstance(value, Dyn):
        return {"dyn": value.k}
    if isinstance(value, slice):
        return {"slice": [value_to_data(p, where) for p in (value.start, value.stop, value.step)]}
    if value is Ellipsis:
        return {"ellipsis": True}
    if isinstance(value, AbstractValue):
        return {"type": type_to_text(value)}
    if type(value) is tuple:
        return [value_to_data(v, where) for v in value]
    if isinstance(value, type) and issubclass(value, BaseException):   # a staged error's
        value = getattr(value, "__ag_saved_as__", value)                 # type
        if getattr(builtins, value.__name__, None) is value:
            return {"exception": value.__name__}
    raise SerializationError(f"{where} holds a {type(value).__name__} ({value!r:.60}), "
                             f"which cannot be saved")


def _is_int(x) -> bool:
    return type(x) is int or (isinstance(x, np.integer))


def _index(x, what: str) -> int:
    """`x` if it is a non-negative int (a JSON `true` is not a number here)."""
    if type(x) is not int or x < 0:
        raise SerializationError(f"{what} is numbered {x!r:.40}, not by a non-negative integer")
    return x


def value_from_data(data):
    if isinstance(data, list):
        return tuple(value_from_data(d) for d in data)
    if not isinstance(data, dict):
        return data
    (tag, body), *rest = data.items()
    if tag == "float":
        return float(body)
    if tag == "complex":
        return complex(float(body[0]), float(body[1]))
    if tag == "scalar":
        return dtype_from_text(data["dtype"]).type(value_from_data(body))
    if tag == "dtype":
        return dtype_from_text(body)
    if tag == "dyn":
        return Dyn(_index(body, "a dynamic operand"))
    if tag == "slice":
        parts = [value_from_data(p) for p in body]
        if len(parts) != 3 or not all(p is None or isinstance(p, Dyn) or _is_int(p)
                                      for p in parts):
            raise SerializationError(f"malformed slice {body!r:.60}")
        return slice(*parts)
    if tag == "ellipsis":
        return Ellipsis
    if tag == "type":
        return type_from_text(body)
    if tag == "exception":
        error = getattr(builtins, body, None) if isinstance(body, str) else None
        if not (isinstance(error, type) and issubclass(error, BaseException)):
            raise SerializationError(f"{body!r:.40} is not a builtin exception type")
        return error
    raise SerializationError(f"unknown tagged value {tag!r}")


# -- graphs ------------------------------------------------------------------------

class _Numbering:
    """Numbers for Vars, and for subgraphs (a graph used twice is written once)."""

    def __init__(self):
        self.ids: dict[int, int] = {}
        self.graphs: dict[int, int] = {}

    def __call__(self, var: Var) -> int:
        return self.ids.setdefault(var.id, len(self.ids))


def graph_to_data(graph: Graph, constants: dict, numbering: _Numbering | None = None) -> dict:
    """`graph` as JSON data; its constant arrays are added to `constants` (name -> array)."""
    number = numbering or _Numbering()
    data = {
        "name": graph.name,
        "inputs": [[number(v), type_to_text(v.aval), v.name] for v in graph.inputs],
        "consts": [],
        "eqns": [],
    }
    for var, array in graph.consts.items():
        key = f"c{len(constants)}"
        constants[key] = np.asarray(array)
        data["consts"].append([number(var), type_to_text(var.aval), key])
    for eqn in graph.eqns:
        where = f"equation {eqn.primitive.name} of graph {graph.name!r}"
        refusal = primitives.save_rules.get(eqn.primitive)
        why = refusal(eqn) if refusal is not None else None
        if why is not None:
            raise SerializationError(
                f"graph {graph.name!r} calls {eqn.primitive.name}"
                f"{f' (at {eqn.source})' if eqn.source else ''}: {why}")
        entry = {"op": eqn.primitive.name,
                 "in": [_atom_to_data(a, number) for a in eqn.inputs],
                 "out": [[number(v), type_to_text(v.aval)] for v in eqn.outputs]}
        params = {k: (_subgraph_to_data(v, constants, number) if isinstance(v, Graph)
                      else value_to_data(v, f"param {k!r} of {where}"))
                  for k, v in eqn.params.items()}
        if params:
            entry["params"] = params
        if eqn.source is not None:
            entry["source"] = [eqn.source.filename, eqn.source.lineno, eqn.source.function]
        data["eqns"].append(entry)
    data["outputs"] = [_atom_to_data(a, number) for a in graph.outputs]
    return data


def _subgraph_to_data(graph: Graph, constants, number: _Numbering) -> dict:
    known = number.graphs.get(id(graph))
    if known is not None:  # the same graph again (a graph function called twice)
        return {"graph_ref": known}
    number.graphs[id(graph)] = len(number.graphs)
    return {"graph": graph_to_data(graph, constants, number), "ref": number.graphs[id(graph)]}


def _atom_to_data(atom, number):
    if isinstance(atom, Literal):
        return {"literal": value_to_data(atom.value, "a literal")}
    return number(atom)


def graph_from_data(data: dict, constants: dict, variables: dict | None = None,
                    graphs: dict | None = None) -> Graph:
    """The graph that `graph_to_data` wrote; `constants` maps names to arrays."""
    variables = {} if variables is None else variables
    graphs = {} if graphs is None else graphs

    def subgraph(value):
        if "graph_ref" in value:
            if _index(value["graph_ref"], "a subgraph") not in graphs:
                raise SerializationError(f"graph {value['graph_ref']} is used before it is "
                                         f"defined")
            return graphs[value["graph_ref"]]
        graph = graph_from_data(value["graph"], constants, variables, graphs)
        graphs[_index(value["ref"], "a subgraph")] = graph
        return graph

    def define(number, text, name=None):
        _index(number, "a value")
        if not (name is None or isinstance(name, str)):
            raise SerializationError(f"value {number} is named {name!r:.40}, not by a string")
        if number in variables:
            raise SerializationError(f"value {number} is defined twice")
        var = variables[number] = Var(type_from_text(text), name)
        return var

    def atom(entry):
        if isinstance(entry, dict):
            return Literal(value_from_data(entry["literal"]))
        if _index(entry, "an operand") not in variables:
            raise SerializationError(f"value {entry} is used before it is defined")
        return variables[entry]

    check_graph_name(data["name"])
    inputs = [define(n, t, name) for n, t, name in data["inputs"]]
    consts = {}
    for number, text, key in data["consts"]:
        if key not in constants:
            raise SerializationError(f"constant {key!r} is missing")
        consts[define(number, text)] = _read_only(constants[key])
    eqns = []
    for entry in data["eqns"]:
        prim = primitives.registry.get(entry["op"])
        if prim is None:
            raise SerializationError(f"unknown primitive {entry['op']!r}")
        ins = [atom(a) for a in entry["in"]]
        params = {k: subgraph(v) if isinstance(v, dict) and ("graph" in v or "graph_ref" in v)
                  else value_from_data(v) for k, v in entry.get("params", {}).items()}
        if prim in primitives.load_rules:  # e.g. params older versions did not write
            params = primitives.load_rules[prim](params)
        outs = [define(n, t) for n, t in entry["out"]]
        source = SourceInfo(*entry["source"]) if "source" in entry else None
        eqns.append(Eqn(prim, ins, params, outs, source))
    return Graph(data["name"], inputs, eqns, [atom(a) for a in data["outputs"]], consts)


def check_graph_name(name) -> None:
    """Refuses a graph name that tracing never writes: an identifier, or one in `<>`."""
    word = name[1:-1] if isinstance(name, str) and name[:1] == "<" and name[-1:] == ">" else name
    if not (isinstance(word, str) and word.isascii() and word.isidentifier()
            and (word != name or not keyword.iskeyword(word))):
        raise SerializationError(f"graph name {name!r:.60} is not an identifier")


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


# -- structures ------------------------------------------------------------------------

def tree_to_data(tree: TreeDef):
    """A `TreeDef` as JSON data: `"*"` for a leaf, tagged lists for containers."""
    if tree.kind == "leaf":
        return "*"
    children = [tree_to_data(c) for c in tree.children]
    if tree.kind in ("tuple", "list"):
        return {tree.kind: children}
    if tree.kind == "dict":
        if not all(isinstance(k, (str, int)) and not isinstance(k, bool) for k in tree.meta):
            raise SerializationError(f"dict keys {list(tree.meta)} cannot be saved (only str "
                                     f"and int keys)")
        return {"dict": [[k, c] for k, c in zip(tree.meta, children)]}
    if tree.kind == "namedtuple":
        return {"namedtuple": tree.meta.__name__, "fields": list(tree.meta._fields),
                "children": children}
    raise SerializationError(f"a {tree.meta[0].__name__} in the arguments or results cannot "
                             f"be saved (a custom tree node)")


def tree_from_data(data) -> TreeDef:
    if data == "*":
        return TreeDef("leaf", None, ())
    if "namedtuple" in data:
        cls = _namedtuple(data["namedtuple"], tuple(data["fields"]))
        return TreeDef("namedtuple", cls, tuple(tree_from_data(c) for c in data["children"]))
    if "dict" in data:
        keys = tuple(k for k, _ in data["dict"])
        return TreeDef("dict", keys, tuple(tree_from_data(c) for _, c in data["dict"]))
    (kind, children), = data.items()
    if kind not in ("tuple", "list"):
        raise SerializationError(f"unknown structure {kind!r}")
    return TreeDef(kind, None, tuple(tree_from_data(c) for c in children))


@functools.lru_cache(maxsize=None)
def _namedtuple(name: str, fields: tuple):
    """A namedtuple class standing in for the original one (which load cannot import)."""
    return collections.namedtuple(name, fields)
