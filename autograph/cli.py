"""`agc`: show what autograph makes of a function.

    agc FILE.py::FUNC                   print the converted source of FUNC
    agc package.module::FUNC            the same for a module of a package (relative
                                        imports work; run from the package's parent)
    agc FILE.py::FUNC --stage N         the source after the first N converters
    agc FILE.py::FUNC --graph SPEC...   trace FUNC for the specs, print its graph
    agc FILE.py::FUNC --dot SPEC...     the same graph as Graphviz dot
    agc FILE.py::FUNC --dot SPEC... --svg OUT   (or --png OUT) rendered by Graphviz
    agc FILE.py::FUNC --graph SPEC... --optimized   the graph after the passes (what runs)
    agc FILE.py::Class.method --graph SPEC...    a method, traced on Class()
    agc FILE.py::Class.method --graph SPEC... --init SPEC...   on Class(*SPECs)
    agc FILE.py::FUNC --onnx OUT.onnx SPEC...       trace FUNC, write it as an ONNX model

A SPEC, one per parameter, is a dtype and a shape (`float32[None,5]`, `int64[]`;
None or ? for a dimension known only when it runs; the short names graphs print,
`f32[?,5]`, `i64[]`, work too) or a Python value (`py:3`, `py:'mean'`). FUNC may
be a function, a method, a `functools.partial` or a callable object (its
class's `__call__`). A method (`Model.step`, not a static or class method) is
traced as `Model().step` is, reading `self`'s attributes; where the constructor
needs arguments, `--init` gives them, a SPEC each (an array SPEC builds zeros of
that shape) or NAME=SPEC: `--init py:64 activation=py:'relu'`. Bad input, and a
FUNC without Python source to show (`np.sin`, `len`), prints one line and exits
with status 2.
"""
from __future__ import annotations

import argparse
import inspect
import re
import shutil
import subprocess
import importlib.util
import os
import sys

from autograph_runtime.native import unsupported_reason

from autograph_runtime.errors import AutographError

from .call_marks import mark_calls
from .cli_methods import UsageError, bound_method, build_instance, method_owner
from .version import __version__
from .conversion import check_convertible, source_function, to_code, transformed
from .function import GraphFunction
from .pipeline import PIPELINE
from .pyct.loader import to_source
from .pyct.parser import SourceUnavailable
from .specs import parse_spec


def load_function(target: str):
    """The object named by `FILE.py::NAME` or `package.module::NAME` (NAME may be dotted,
    like `Model.step`). A module is imported from the working directory as part of
    its package, so its relative imports work."""
    return load_target(target)[0]


def load_target(target: str):
    """(the object `target` names, the class whose instance it needs: `Model` for
    `Model.step` where `step` is a plain method, else None)."""
    path, sep, name = target.partition("::")
    if not sep or not name:
        raise UsageError(f"expected FILE.py::FUNC, got {target!r}")
    if not os.path.isfile(path) and _MODULE_NAME.fullmatch(path):
        module = _import_module(path)
    else:
        module = _load_file(path)
    obj = owner = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise UsageError(f"{path} has no function {name!r}")
        owner, obj = method_owner(obj, part), getattr(obj, part)
    if not callable(obj):
        raise UsageError(f"{name!r} in {path} is not a function")
    return obj, owner


_MODULE_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def _import_module(name: str):
    sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(name)
    except ImportError as error:
        if error.name is not None and name.startswith(error.name) and not \
                os.path.exists(name):
            raise UsageError(f"no such file or module: {name}") from None
        raise UsageError(f"{name} failed to import: {type(error).__name__}: {error}") from None
    except Exception as error:
        raise UsageError(f"{name} failed to import: {type(error).__name__}: {error}") from None


def _load_file(path: str):
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
        hint = ""
        if isinstance(error, ImportError) and "relative import" in str(error):
            dotted = os.path.splitext(os.path.normpath(path))[0].replace(os.sep, ".")
            hint = f" (name it as a module of its package, from the package's parent: {dotted}::FUNC)"
        raise UsageError(f"{path} failed to import: {type(error).__name__}: {error}{hint}") \
            from None
    return module


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(f"{message} (usage: agc FILE.py::FUNC [--stage N | --graph|--dot "
                         f"SPEC... [--init SPEC...]])")


def _parser():
    parser = _Parser(prog="agc", description=__doc__.split("\n")[0],
                     epilog=__doc__.split("\n", 1)[1].strip("\n"),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"agc {__version__}")
    parser.add_argument("target", metavar="FILE.py::FUNC")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--graph", nargs="*", metavar="SPEC", help="print the traced graph")
    mode.add_argument("--dot", nargs="*", metavar="SPEC", help="print the graph as dot")
    for fmt in ("svg", "png"):
        parser.add_argument(f"--{fmt}", metavar="OUT",
                            help=f"with --graph or --dot: render the graph to OUT as {fmt.upper()} "
                                 f"through Graphviz's dot program")
    parser.add_argument("--init", nargs="*", metavar="SPEC",
                        help="with --graph or --dot on a method: the arguments of its class's "
                             "constructor (SPECs, or NAME=SPEC)")
    parser.add_argument("--optimized", action="store_true",
                        help="with --graph or --dot: the graph after runtime.passes.optimize")
    mode.add_argument("--onnx", nargs="+", metavar="OUT SPEC",
                      help="write the graph traced for the SPECs as an ONNX model to OUT")
    mode.add_argument("--stage", type=int, metavar="N",
                      help=f"source after the first N of the {len(PIPELINE)} converters")
    return parser


def _source(function, stage) -> str:
    try:
        check_convertible(function)
        fn = source_function(function)
        if stage is None:
            return mark_calls(to_code(fn), fn)
        if not 0 <= stage <= len(PIPELINE):
            raise UsageError(f"--stage takes 0 to {len(PIPELINE)}, got {stage}")
        names = ", ".join(name for name, _ in PIPELINE[:stage]) or "none"
        return f"# after: {names}\n" + to_source(transformed(fn, stage)) + "\n"
    except (AutographError, SourceUnavailable) as error:
        raise UsageError(f"{type(error).__name__}: {error}") from None


def run(argv) -> str:
    """The text `agc` prints for `argv`; raises `UsageError` for bad input."""
    args = _parser().parse_args(argv)
    function, owner = load_target(args.target)
    for fmt in ("svg", "png", "init"):
        if getattr(args, fmt) is not None and args.graph is None and args.dot is None:
            raise UsageError(f"--{fmt} is for a graph: give its SPECs with --graph or --dot")
    if args.init is not None and owner is None:
        raise UsageError(f"--init builds the instance of a method's class; "
                         f"{args.target.partition('::')[2]} is not a method of a class")
    if args.onnx is not None:
        if owner is not None:
            raise UsageError("--onnx exports a function; for a method, export "
                             "ag.convert(instance.method) with ag.export_onnx")
        return _export(function, args.onnx[0], args.onnx[1:])
    if args.graph is None and args.dot is None:
        return _source(function, args.stage)
    instance = None   # kept alive while tracing: a bound graph function holds it weakly
    try:
        if owner is not None:
            instance = build_instance(owner, args.init, function.__qualname__)
            function = bound_method(instance, args.target.rpartition(".")[2])
        elif not isinstance(function, GraphFunction):
            function = GraphFunction(function)
    except AutographError as error:
        raise UsageError(f"{type(error).__name__}: {error}") from None
    try:
        specs = [parse_spec(s) for s in (args.graph if args.graph is not None else args.dot)]
    except ValueError as error:
        raise UsageError(str(error)) from None
    _check_one_spec_per_parameter(function, specs, "--graph" if args.graph is not None else "--dot")
    try:
        concrete = function.get_concrete_function(*specs)
        graph = concrete.optimized_graph if args.optimized else concrete.graph
    except Exception as error:
        notes = " ".join(getattr(error, "__notes__", ()))
        raise UsageError(f"{type(error).__name__}: {error} {notes}".strip()) from None
    for fmt in ("svg", "png"):
        if getattr(args, fmt) is not None:
            return _render(graph.to_dot(), fmt, getattr(args, fmt))
    if args.dot is not None:
        return graph.to_dot()
    reason = unsupported_reason(concrete.optimized_graph)
    verdict = "every primitive has a lowering" if reason is None else f"no, {reason}"
    return f"{graph}\n# native tier: {verdict}"


def _export(function, path: str, spec_texts) -> str:
    """`--onnx OUT SPEC...`: FUNC traced for the specs, written as an ONNX model."""
    try:
        function = function if isinstance(function, GraphFunction) else GraphFunction(function)
        specs = [parse_spec(s) for s in spec_texts]
    except (AutographError, ValueError) as error:
        raise UsageError(f"{type(error).__name__}: {error}" if isinstance(error, AutographError)
                         else str(error)) from None
    _check_one_spec_per_parameter(function, specs, "--onnx")
    try:
        model = function.get_concrete_function(*specs).export_onnx(path)
    except Exception as error:
        notes = " ".join(getattr(error, "__notes__", ()))
        raise UsageError(f"{type(error).__name__}: {error} {notes}".strip()) from None
    opset = model.opset_import[0].version
    return f"wrote {path} (ONNX opset {opset}, {len(model.graph.node)} nodes)"


def _render(dot_source: str, fmt: str, path: str) -> str:
    """Writes the graph to `path` as `fmt` through Graphviz's `dot`; says where."""
    program = shutil.which("dot")
    if program is None:
        raise UsageError(f"--{fmt} needs Graphviz's dot program, which is not on PATH "
                         f"(install Graphviz: apt install graphviz, brew install graphviz or "
                         f"conda install graphviz; --dot prints the source without it)")
    run = subprocess.run([program, f"-T{fmt}", "-o", path], input=dot_source, text=True,
                         capture_output=True)
    if run.returncode != 0:
        raise UsageError(f"dot failed to write {path}: {run.stderr.strip() or run.returncode}")
    return f"wrote {path}"


def _check_one_spec_per_parameter(function, specs, option):
    try:
        inspect.signature(function.python_function).bind(*specs)
    except TypeError as error:   # "missing a required argument: 'n'"
        raise UsageError(f"{option} for {function.__qualname__}: {error} (one SPEC per "
                         f"parameter, like float32[None,5], int64[] or py:3)") from None
    except ValueError:
        pass   # no signature to check against: tracing says what is wrong


def main(argv=None) -> int:
    try:
        print(run(sys.argv[1:] if argv is None else argv))
    except UsageError as error:
        print(f"agc: error: {str(error).splitlines()[0]}", file=sys.stderr)
        return 2
    return 0
