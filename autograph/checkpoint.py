"""`ag.Checkpoint(**objects)`: variables saved and restored by their attribute paths.

The variables are found by walking the objects' attributes, dicts, lists and
tuples; each is named by its path from the checkpoint's keywords, as
`tf.train.Checkpoint` names them:

    ckpt = ag.Checkpoint(model=model)     # model.dense.w -> "model/dense/w"
    ckpt.save("ckpt")
    ckpt.restore("ckpt")

`restore` changes nothing unless every variable matches: the same paths, and
for each the same shape and dtype. Saving and restoring follow the rules of
`saved_files`: a save replaces only an empty folder or an earlier save, and
a malformed checkpoint is a `LoadError` naming the file.
"""
from __future__ import annotations

import json
import os
import types

import numpy as np

from autograph_runtime.variables import Variable

from .function import ConcreteFunction, GraphFunction
from .saved_files import LoadError, npz_arrays, npz_bytes, parsed, read_folder, write_folder

FORMAT, VERSION = "autograph.checkpoint", 1
_OPAQUE = (str, bytes, int, float, complex, bool, type(None), np.ndarray, np.generic,
           types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType,
           type, GraphFunction, ConcreteFunction)


class CheckpointMismatchError(ValueError):
    """A checkpoint's variables do not match the objects restored into."""


class Checkpoint:
    """The variables reachable from `objects`, keyed by attribute path."""

    def __init__(self, **objects):
        if not objects:
            raise TypeError("Checkpoint takes the objects to track as keywords: "
                            "Checkpoint(model=model)")
        self._objects = objects

    def variables(self) -> dict[str, Variable]:
        """Path -> variable, each variable once (at the first path that reaches it)."""
        found: dict[str, Variable] = {}
        seen: set[int] = set()
        for name, obj in self._objects.items():
            _walk(obj, name, found, seen)
        return found

    def save(self, path) -> str:
        """Writes the variables' values to the folder `path` (atomically); returns `path`."""
        variables = self.variables()
        keys = {p: f"v{i}" for i, p in enumerate(variables)}
        index = [{"path": p, "key": keys[p], "shape": list(v.shape), "dtype": v.dtype.name}
                 for p, v in variables.items()]
        write_folder(path, FORMAT, VERSION, {
            "index.json": json.dumps(index, indent=1).encode(),
            "variables.npz": npz_bytes({keys[p]: v.numpy() for p, v in variables.items()}),
        })
        return str(path)

    def restore(self, path) -> None:
        """Assigns the saved values to the variables at the same paths; all or nothing."""
        files = read_folder(path, FORMAT, VERSION, ("index.json", "variables.npz"))
        index = parsed(path, "index.json", _index, files["index.json"])
        arrays = parsed(path, "variables.npz", npz_arrays, files["variables.npz"])
        missing = sorted(e["key"] for e in index.values() if e["key"] not in arrays)
        if missing:
            raise LoadError(f"{os.path.join(os.fspath(path), 'index.json')}: names "
                            f"{missing[0]!r}, which variables.npz does not hold")
        variables = self.variables()
        problems = [f"{p}: not in the checkpoint" for p in variables if p not in index]
        problems += [f"{p}: in the checkpoint, but no such variable here"
                     for p in index if p not in variables]
        for p, v in variables.items():
            if p in index:
                saved = arrays[index[p]["key"]]
                if saved.shape != v.shape or saved.dtype != v.dtype:
                    problems.append(f"{p}: the checkpoint holds {saved.dtype}{list(saved.shape)}, "
                                    f"the variable is {v.dtype}{list(v.shape)}")
        if problems:
            raise CheckpointMismatchError(
                f"{path} does not match the variables to restore; nothing was changed:\n  "
                + "\n  ".join(problems))
        for p, v in variables.items():
            v.assign(arrays[index[p]["key"]])


def _index(data: bytes) -> dict:
    """Path -> entry of `index.json`; `ValueError` if an entry is malformed."""
    entries = json.loads(data)
    if not isinstance(entries, list):
        raise ValueError(f"the index is a {type(entries).__name__}, not a list")
    index = {}
    for entry in entries:
        if not (isinstance(entry, dict) and isinstance(entry.get("path"), str)
                and isinstance(entry.get("key"), str)):
            raise ValueError(f"entry {entry!r:.80} has no string path and key")
        index[entry["path"]] = entry
    return index


def _walk(obj, path: str, found: dict, seen: set) -> None:
    if isinstance(obj, Variable):
        if id(obj) not in seen:
            seen.add(id(obj))
            if path in found:
                raise ValueError(f"two variables have the checkpoint path {path!r} (a key "
                                 f"holding '/', or keys like 0 and '0'); rename one")
            found[path] = obj
        return
    if isinstance(obj, _OPAQUE) or id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, dict):
        items = list(obj.items())
    elif isinstance(obj, (list, tuple)):
        items = list(enumerate(obj))
    else:
        items = _attributes(obj)
    for key, value in items:
        _walk(value, f"{path}/{key}", found, seen)


def _attributes(obj) -> list:
    """(name, value) of an object's attributes: its `__dict__` and its `__slots__`."""
    items = [(k, v) for k, v in getattr(obj, "__dict__", {}).items() if not k.startswith("__")]
    for cls in type(obj).__mro__:
        slots = getattr(cls, "__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if not name.startswith("__") and hasattr(obj, name):
                items.append((name, getattr(obj, name)))
    return items
