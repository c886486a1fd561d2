"""Loading generated source as a live function, with a map back to the user's lines.

The source is registered with `linecache` under a name like
`<autograph f (model.py:12)>`, so tracebacks, `inspect.getsource` and `pdb`
show it; its source map (`source_map.py`) translates its lines to the user's own lines.
"""
from __future__ import annotations

import ast
import copy
import itertools
import linecache
import types

import gast

from .anno import Static, getanno
from .source_map import register_source_map
from .to_ast import to_ast
from .transformer import walk

_serial = itertools.count()
FACTORY = "ag__create"


def _to_ast(node) -> tuple[ast.Module, list]:
    """(the ast Module of a gast tree, its nodes in `ast.walk`'s order)."""
    tree, nodes = to_ast(node)
    if not isinstance(tree, ast.Module):
        tree = ast.Module(body=[tree], type_ignores=[])
        nodes.insert(0, tree)
    return tree, nodes


def to_source(node) -> str:
    """Python source for a gast tree, printed by `ast.unparse`."""
    return ast.unparse(_to_ast(node)[0])


def source_with_map(node) -> tuple[str, dict]:
    """The source of a gast tree, and its map: generated line -> original (file, line, function)."""
    source, mapping, _ = _printed(node)
    return source, mapping


def _printed(node) -> tuple[str, dict, ast.Module]:
    """`source_with_map`, and the source parsed again (with the generated lines).

    The parsed nodes are paired with the tree's, which printing and parsing
    leave in the same order.
    """
    tree, nodes = _to_ast(node)
    source = ast.unparse(tree)
    parsed = ast.parse(source)
    mapping = {}
    for original, reparsed in zip(nodes, walk(parsed)):
        origin = getattr(original, "_ag_origin", None)
        if origin is not None:
            line = getattr(reparsed, "lineno", None)
            if line is not None and line not in mapping:
                mapping[line] = origin
    return source, mapping, parsed


def load(function_def, fn, origin_label: str):
    """Compiles `function_def` (a gast FunctionDef) into a function like `fn`.

    The new function shares `fn`'s globals, defaults and closure cells; `ag__`
    reaches it as one more closure variable.
    """
    module_name = getanno(function_def, Static.MODULE_NAME, "ag__")
    freevars = _captured(fn, module_name)
    # Inside the factory the def gets a name of its own, so that the function's
    # name in its body still means what it meant (a global, or a closure cell).
    # Its defaults and annotations are `fn`'s own values (set by `instantiate`):
    # their expressions may name locals of the function that defined `fn`.
    function_def = copy.copy(function_def)
    function_def.name = f"{function_def.name}__converted"
    function_def.args = _without_defaults_and_annotations(function_def.args)
    function_def.returns = None
    factory = gast.FunctionDef(
        name=FACTORY, args=_params([module_name, *freevars]),
        body=[function_def, gast.Return(value=gast.Name(id=function_def.name, ctx=gast.Load(),
                                                        annotation=None, type_comment=None))],
        decorator_list=[], returns=None, type_comment=None, type_params=[])
    module = gast.Module(body=[factory], type_ignores=[])
    source, mapping, parsed = _printed(module)
    filename = f"<autograph {fn.__name__} ({origin_label}) #{next(_serial)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    register_source_map(filename, mapping)
    code = compile(parsed, filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    return factory_code, source, filename


def instantiate(factory_code, fn, ag_module):
    """The converted function, bound to `fn`'s globals, defaults and closure cells."""
    factory = types.FunctionType(factory_code, fn.__globals__, FACTORY)
    module_name = factory_code.co_varnames[0]
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    inner = factory(ag_module, *[cells[name].cell_contents if _full(cells[name]) else None
                                 for name in _captured(fn, module_name)])
    closure = tuple(cells.get(name) or types.CellType(ag_module) if name == module_name
                    else cells[name] for name in inner.__code__.co_freevars)
    code = inner.__code__.replace(co_name=fn.__code__.co_name)
    converted = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    converted.__kwdefaults__ = fn.__kwdefaults__
    converted.__annotations__ = dict(getattr(fn, "__annotations__", {}))
    converted.__dict__.update(fn.__dict__)
    converted.__qualname__ = fn.__qualname__
    converted.__doc__ = fn.__doc__
    return converted


def _captured(fn, module_name: str) -> list:
    """`fn`'s free variables but the operators' name (a function defined in converted
    code has it too)."""
    return [name for name in fn.__code__.co_freevars if name != module_name]


def _without_defaults_and_annotations(args):
    """A copy of `args` (the tree is shared with `to_code`): its parameters, bare."""
    return gast.arguments(
        posonlyargs=[_bare(a) for a in args.posonlyargs], args=[_bare(a) for a in args.args],
        vararg=_bare(args.vararg), kwonlyargs=[_bare(a) for a in args.kwonlyargs],
        kw_defaults=[None] * len(args.kwonlyargs), kwarg=_bare(args.kwarg), defaults=[])


def _bare(param):
    """A copy of a parameter (a gast Name) without its annotation."""
    if param is None:
        return None
    param = copy.copy(param)
    param.annotation = None
    return param


def _full(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _params(names):
    return gast.arguments(
        args=[gast.Name(id=n, ctx=gast.Param(), annotation=None, type_comment=None) for n in names],
        posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
