"""`ag.save(f, path, *specs)` and `ag.load(path)`: graph functions as folders.

    path/
      function.json   the graphs (readable JSON, see runtime.serialization),
                      the call signatures they serve, the variables' names
      variables.npz   the variables' values
      constants.npz   the graphs' captured arrays
      manifest.json   format, version, and each file's size and SHA-256

`load` needs neither the source nor the objects the function came from: it
returns a `LoadedFunction` that owns new variables with the saved values,
which its graphs read and update.
"""
from __future__ import annotations

import inspect
import json
import os
from collections.abc import Callable, Sequence

import numpy as np

from autograph_runtime import AbstractValue, Tracer, current_builder
from autograph_runtime.backend import get_backend
from autograph_runtime.serialization import (
    SerializationError,
    graph_from_data,
    graph_to_data,
    tree_from_data,
    tree_to_data,
    type_from_text,
    type_to_text,
    value_from_data,
    value_to_data,
)
from autograph_runtime.variables import Variable
from autograph_runtime.verify import verify

from .device import current_device
from .function import ConcreteFunction, GraphFunction
from .saved_files import npz_arrays, npz_bytes, parsed, read_folder, write_folder
from .cache_keys import PyKey, is_array_key, leaf_key
from .signature import flatten_call
from .specs import TensorSpec

# Version 2: a `while_loop` keeps its operand counts in its params. Version 1
# folders still load (`runtime.serialization` derives the counts).
# Version 3: a signature lists the array arguments its graph writes in place
# ("writes"; their final values are the graph's last outputs), which a call of
# the loaded function writes back. Older folders write none (their graphs
# never returned the writes), and an older autograph refuses version 3.
FORMAT, VERSION = "autograph.saved_function", 3


def save(f: Callable, path: str | os.PathLike, *specs: TensorSpec,
         signatures: Sequence | None = None) -> None:
    """Writes `f`'s graphs and its variables' values to the folder `path`.

    `specs` (arrays, `TensorSpec`s and Python values, as for
    `f.get_concrete_function`) choose one signature; `signatures=[(spec, ...),
    ...]` several; with neither, every signature `f` has traced is saved. A
    loaded function is saved again with its signatures and current values.
    """
    if isinstance(f, LoadedFunction):
        if specs or signatures is not None:
            raise TypeError("a loaded function is saved with the signatures it was saved with")
        return _write(path, f._document, f.variables, f._constants)
    if not isinstance(f, GraphFunction):
        raise TypeError(f"ag.save takes a graph function (from ag.convert) or a loaded "
                        f"function, not {f!r}")
    if specs and signatures is not None:
        raise TypeError("give the specs of one signature, or signatures=[...], not both")
    if specs:
        concretes = [f.get_concrete_function(*specs)]
    elif signatures is not None:
        concretes = [f.get_concrete_function(*(s if isinstance(s, tuple) else (s,)))
                     for s in signatures]
    else:
        concretes = list(dict.fromkeys(f._traces.values()))
    if not concretes:
        raise ValueError(f"{f.__qualname__} has no traced signature to save: call it first or "
                         f"pass the specs to save (ag.save(f, path, ag.TensorSpec(...)))")
    variables: dict[int, tuple[int, Variable]] = {}
    constants: dict[str, np.ndarray] = {}
    entries = []
    for concrete in concretes:
        for v in concrete.variables:
            variables.setdefault(id(v), (len(variables), v))
        try:
            entries.append(_signature_to_data(f, concrete, constants, variables))
        except SerializationError as error:
            raise SerializationError(f"cannot save {f.__qualname__}: {error}") from None
    ordered = [v for _, v in sorted(variables.values(), key=lambda item: item[0])]
    document = {
        "function": f.__qualname__,
        "variables": [{"key": f"v{i}", "name": v.name, "type": type_to_text(v.resource_type),
                       "trainable": v.trainable} for i, v in enumerate(ordered)],
        "signatures": entries,
    }
    _write(path, document, ordered, constants)


def _write(path, document: dict, variables: list, constants: dict) -> None:
    write_folder(path, FORMAT, VERSION, {
        "function.json": json.dumps(document, indent=1).encode(),
        "variables.npz": npz_bytes({f"v{i}": v.numpy() for i, v in enumerate(variables)}),
        "constants.npz": npz_bytes(constants),
    })


def _signature_to_data(f, concrete: ConcreteFunction, constants, variables) -> dict:
    sig = concrete._call_sig
    names, trees = sig.trees
    leaves = []
    for label, key in zip(sig.labels, sig.keys):
        if is_array_key(key):
            leaves.append({"array": type_to_text(_aval(key))})
        elif isinstance(key, PyKey):
            leaves.append({"python": value_to_data(key.python_value, f"argument {label!r}")})
        else:
            raise SerializationError(f"argument {label!r} is a {key.type.__name__} object, which "
                                     f"is part of the graph's key and cannot be saved")
    outputs = [None if is_output else {"python": value_to_data(static, "a Python result")}
               for is_output, static in zip(concrete._is_output, concrete._static_outputs)]
    return {
        "parameters": _parameters_to_data(f._signature),
        "arguments": [{"name": n, "tree": tree_to_data(t)} for n, t in zip(names, trees)],
        "leaves": leaves,
        "outputs": {"tree": tree_to_data(concrete._out_tree), "leaves": outputs},
        "variables": [variables[id(v)][0] for v in concrete.variables],
        "writes": list(concrete.writes_arguments),
        "graph": graph_to_data(concrete.graph, constants),
    }


def _aval(key) -> AbstractValue:
    return AbstractValue(key.shape, key.dtype)


def _parameters_to_data(signature: inspect.Signature) -> list:
    out = []
    for p in signature.parameters.values():
        entry = {"name": p.name, "kind": p.kind.name}
        if p.default is not p.empty:
            try:
                entry["default"] = value_to_data(p.default, f"the default of {p.name!r}")
            except SerializationError:
                pass  # the saved signatures then need the argument
        out.append(entry)
    return out


def load(path: str | os.PathLike) -> "LoadedFunction":
    """The function saved at `path`, with new variables holding the saved values.

    Every problem with the folder is a `LoadError` naming the file: the checks
    of `read_folder`, then any malformed part of the files it returns.
    """
    files = read_folder(path, FORMAT, VERSION, FILES)
    document = parsed(path, "function.json", json.loads, files["function.json"])
    values = parsed(path, "variables.npz", npz_arrays, files["variables.npz"])
    constants = parsed(path, "constants.npz", npz_arrays, files["constants.npz"])
    return parsed(path, "function.json", LoadedFunction, document, values, constants)


FILES = ("function.json", "variables.npz", "constants.npz")


class LoadedFunction:
    """A saved graph function: callable on the saved signatures, owning its variables."""

    def __init__(self, document: dict, values: dict, constants: dict):
        if not isinstance(document, dict) or not isinstance(document["function"], str):
            raise TypeError("the document is not an object naming its function")
        _lists(document, "variables", "signatures")
        if not document["signatures"]:
            raise ValueError("the document saves no signature")
        self.__name__ = self.__qualname__ = document["function"]
        self._document, self._constants = document, constants  # to save it again
        self.variables = []
        for entry in document["variables"]:
            if not (isinstance(entry["name"], (str, type(None)))
                    and type(entry["trainable"]) is bool):
                raise TypeError(f"variable entry {entry!r:.80} needs a name and a bool trainable")
            variable = Variable(values[entry["key"]], name=entry["name"],
                                trainable=entry["trainable"])
            if variable.resource_type != type_from_text(entry["type"]):
                raise ValueError(f"variable {entry['name']!r} holds {variable.resource_type}, "
                                 f"not the declared {entry['type']}")
            self.variables.append(variable)
        self._signatures = [_SavedSignature(s, constants, self.variables)
                            for s in document["signatures"]]
        for saved in self._signatures:   # compiled now: a malformed graph fails the load
            saved.concrete(current_device())

    @property
    def signatures(self) -> list[str]:
        """The input types of each saved signature, readable."""
        return [s.describe() for s in self._signatures]

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The compiled graph for a call with these arguments (arrays or `TensorSpec`s)."""
        return self._match(args, kwargs)[0].concrete(current_device())

    def export_onnx(self, path: str | os.PathLike, *specs: object,
                    opset: int | None = None) -> list[str]:
        """`ag.export_onnx(self, path, *specs, opset=opset)`: its saved signatures as ONNX."""
        from .onnx_export import export_onnx
        return export_onnx(self, path, *specs, opset=opset)

    def __call__(self, *args, **kwargs):
        saved, sig = self._match(args, kwargs)
        concrete = saved.concrete(current_device())
        inputs = [x for x, k in zip(sig.leaves, sig.keys) if is_array_key(k)]
        if current_builder() is not None and any(isinstance(x, Tracer) for x in inputs):
            return concrete.call_in_trace(inputs)
        return concrete.call_flat(inputs)

    def _match(self, args, kwargs):
        for saved in self._signatures:
            try:
                sig = flatten_call(saved.signature, args, kwargs, {})
            except TypeError:  # arguments this signature's parameters do not take
                continue
            if saved.accepts(sig):
                return saved, sig
        described = "\n  ".join(self.signatures)
        raise TypeError(f"no saved signature of {self.__name__} accepts these arguments; "
                        f"saved:\n  {described}")

    def __repr__(self):
        return (f"<LoadedFunction {self.__name__}: {len(self._signatures)} signature(s), "
                f"{len(self.variables)} variable(s)>")


class _SavedSignature:
    def __init__(self, data: dict, constants: dict, variables: list):
        _lists(data, "parameters", "arguments", "leaves", "variables")
        self.signature = inspect.Signature([
            inspect.Parameter(p["name"], _PARAMETER_KINDS[p["kind"]],
                              **({"default": value_from_data(p["default"])}
                                 if "default" in p else {}))
            for p in data["parameters"]])
        if not all(a["name"] in self.signature.parameters for a in data["arguments"]):
            raise ValueError(f"arguments {[a['name'] for a in data['arguments']]!r:.80} are not "
                             f"all parameters of the signature")
        self.trees = (tuple(a["name"] for a in data["arguments"]),
                      tuple(tree_from_data(a["tree"]) for a in data["arguments"]))
        self.leaves = [type_from_text(leaf["array"]) if "array" in leaf
                       else leaf_key(value_from_data(leaf["python"])) for leaf in data["leaves"]]
        self.graph = graph_from_data(data["graph"], constants)
        verify(self.graph)
        if not all(type(i) is int and 0 <= i < len(variables) for i in data["variables"]):
            raise IndexError(f"variable numbers {data['variables']!r:.60} are not all among "
                             f"the {len(variables)} saved variables")
        self.variables = [variables[i] for i in data["variables"]]
        out = data["outputs"]
        self.out_tree = tree_from_data(out["tree"])
        self.out_leaves = [_GRAPH_OUTPUT if leaf is None else value_from_data(leaf["python"])
                           for leaf in out["leaves"]]
        self.writes = data.get("writes", [])   # absent before version 3
        n_arrays = sum(isinstance(t, AbstractValue) for t in self.leaves)
        if not (isinstance(self.writes, list) and len(set(self.writes)) == len(self.writes)
                and all(type(i) is int and 0 <= i < n_arrays for i in self.writes)):
            raise ValueError(f"written arguments {self.writes!r:.60} are not distinct numbers "
                             f"of the {n_arrays} array arguments")
        self._check_consistent()
        self._compiled: dict = {}

    def _check_consistent(self) -> None:
        """The signature's parts agree with its graph (each part may parse and still not)."""
        arrays = [t for t in self.leaves if isinstance(t, AbstractValue)]
        expected = arrays + [v.resource_type for v in self.variables]
        found = [v.aval for v in self.graph.inputs]
        if found != expected:
            raise ValueError(f"graph {self.graph.name!r} takes ({', '.join(map(str, found))}), "
                             f"the signature gives ({', '.join(map(str, expected))})")
        n_outputs = sum(leaf is _GRAPH_OUTPUT for leaf in self.out_leaves) + len(self.writes)
        if n_outputs != len(self.graph.outputs):
            raise ValueError(f"graph {self.graph.name!r} returns {len(self.graph.outputs)} "
                             f"values, the signature expects {n_outputs}")
        if self.out_tree.num_leaves != len(self.out_leaves):
            raise ValueError(f"the result structure has {self.out_tree.num_leaves} leaves, "
                             f"the signature lists {len(self.out_leaves)}")
        if sum(t.num_leaves for t in self.trees[1]) != len(self.leaves):
            raise ValueError(f"the argument structures have "
                             f"{sum(t.num_leaves for t in self.trees[1])} leaves, the "
                             f"signature lists {len(self.leaves)}")

    def accepts(self, sig) -> bool:
        if sig.trees != self.trees or len(sig.keys) != len(self.leaves):
            return False
        for key, saved in zip(sig.keys, self.leaves):
            if is_array_key(key):
                if not (hasattr(saved, "accepts") and saved.accepts(_aval(key))):
                    return False
            elif key != saved:
                return False
        return True

    def concrete(self, device: str) -> ConcreteFunction:
        concrete = self._compiled.get(device)
        if concrete is None:
            concrete = self._compiled[device] = ConcreteFunction(
                self.graph.name, self.graph, None, self.out_leaves, self.out_tree,
                get_backend(device), self.variables, writes_arguments=self.writes)
        return concrete

    def describe(self) -> str:
        it = iter(str(x) for x in self.leaves)
        return "(" + ", ".join(f"{n}={t.unflatten([next(it) for _ in range(t.num_leaves)])}"
                               for n, t in zip(*self.trees)) + ")"


def _lists(data: dict, *keys: str) -> None:
    """Refuses `data` unless it is an object whose `keys` hold lists."""
    if not isinstance(data, dict):
        raise TypeError(f"{data!r:.60} is not an object")
    for key in keys:
        if not isinstance(data[key], list):
            raise TypeError(f"{key!r} holds {data[key]!r:.60}, not a list")


_GRAPH_OUTPUT = np.empty(0)  # marks the results that the graph computes
_PARAMETER_KINDS = {kind.name: kind for kind in type(inspect.Parameter.POSITIONAL_ONLY)}
