"""`agc`: show what autograph makes of a function.

    agc FILE.py::FUNC --graph SPEC...   trace FUNC for the specs, print its graph
    agc FILE.py::FUNC --dot SPEC...     the same graph as Graphviz dot

A SPEC is `float32[None,5]`, `int64[]` or `py:3` (a Python value). Bad input
prints one line and exits with status 2.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys

from .function import GraphFunction
from .specs import parse_spec


class UsageError(Exception):
    """Bad input to `agc`: reported in one line, exit status 2."""


def load_function(target: str):
    """The object named by `FILE.py::NAME` (NAME may be dotted, like `Model.step`)."""
    path, sep, name = target.partition("::")
    if not sep or not name:
        raise UsageError(f"expected FILE.py::FUNC, got {target!r}")
    if not os.path.isfile(path):
        raise UsageError(f"no such file: {path}")
    module_name = "_agc_" + "".join(c if c.isalnum() else "_" for c in os.path.abspath(path))
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise UsageError(f"{path} failed to import: {type(error).__name__}: {error}") from None
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise UsageError(f"{path} has no function {name!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise UsageError(f"{name!r} in {path} is not a function")
    return obj


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(f"{message} (usage: agc FILE.py::FUNC --graph|--dot SPEC...)")


def _parser():
    parser = _Parser(prog="agc", description=__doc__.split("\n")[0])
    parser.add_argument("target", metavar="FILE.py::FUNC")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--graph", nargs="*", metavar="SPEC", help="print the traced graph")
    mode.add_argument("--dot", nargs="*", metavar="SPEC", help="print the graph as dot")
    return parser


def run(argv) -> str:
    """The text `agc` prints for `argv`; raises `UsageError` for bad input."""
    args = _parser().parse_args(argv)
    function = load_function(args.target)
    if not isinstance(function, GraphFunction):
        function = GraphFunction(function)
    try:
        specs = [parse_spec(s) for s in (args.graph if args.graph is not None else args.dot)]
    except ValueError as error:
        raise UsageError(str(error)) from None
    try:
        graph = function.get_concrete_function(*specs).graph
    except Exception as error:
        notes = " ".join(getattr(error, "__notes__", ()))
        raise UsageError(f"{type(error).__name__}: {error} {notes}".strip()) from None
    return graph.to_dot() if args.dot is not None else str(graph)


def main(argv=None) -> int:
    try:
        print(run(sys.argv[1:] if argv is None else argv))
    except UsageError as error:
        print(f"agc: error: {str(error).splitlines()[0]}", file=sys.stderr)
        return 2
    return 0
