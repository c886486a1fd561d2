"""Calls that write a local array in place, as statements: each rebinds the array.

    t.fill(v)               ->  t = ag__.method_in_place(t, 'fill', (v,), {}, 't')
    np.add(a, b, out=t)     ->  t = ag__.out_call(np.add, (a, b), {'out': t}, 't')
    np.add.at(t, i, v)      ->  t = ag__.ufunc_at(np.add.at, (t, i, v), {}, 't')

Eagerly the array bound to `t` changes. A NumPy array cannot hold a traced
value, so where one is written (`v` traced) the operators return the traced
result, which the rebinding makes `t`'s value from then on (another name sharing
the array's memory is a `TracingError`, see `autograph/operators/local_arrays.py`);
otherwise they call as Python does and return `t` itself. Rebinding also makes
the array state of an enclosing staged block. `fill`, `sort`, `partition` and
`put` are the ndarray methods rewritten; `out=` and the first argument of a `.at`
call (a ufunc's, checked when it runs) take a local name.
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.activity import IN_PLACE_METHODS
from ..pyct.transformer import StatementTransformer, walk
from .writes import local_names


def _constant(value):
    return gast.Constant(value=value, kind=None)


def _locals(function) -> set:
    """Its parameters and the names it assigns (not only writes with `t.fill`, as a
    global's array may be), less global and nonlocal ones."""
    stored = {n.id for n in walk(function) if isinstance(n, gast.Name)
              and isinstance(n.ctx, (gast.Store, gast.Param))}
    return local_names(function) & stored


class _InPlaceCalls(StatementTransformer):
    def __init__(self, local_names):
        self.local_names = local_names

    def visit_FunctionDef(self, node):   # a nested function: its own local names
        outer, self.local_names = self.local_names, _locals(node)
        try:
            return self.generic_visit(node)
        finally:
            self.local_names = outer

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Expr(self, node):
        call = node.value
        if not isinstance(call, gast.Call) or any(k.arg is None for k in call.keywords) \
                or any(isinstance(a, gast.Starred) for a in call.args):
            return self.generic_visit(node)
        args = gast.Tuple(elts=call.args, ctx=gast.Load())
        kwargs = gast.Dict(keys=[_constant(k.arg) for k in call.keywords],
                           values=[k.value for k in call.keywords])
        func = call.func
        if isinstance(func, gast.Attribute) and func.attr in IN_PLACE_METHODS \
                and isinstance(func.value, gast.Name) and func.value.id in self.local_names:
            name = func.value.id
            return templates.replace(
                "target = ag__.method_in_place(target, method, args, kwargs, label)",
                target=name, method=_constant(func.attr), args=args, kwargs=kwargs,
                label=_constant(name))
        if isinstance(func, gast.Attribute) and func.attr == "at" and call.args \
                and isinstance(call.args[0], gast.Name) and call.args[0].id in self.local_names:
            return templates.replace(
                "target = ag__.ufunc_at(function, args, kwargs, label)", target=call.args[0].id,
                function=func, args=args, kwargs=kwargs, label=_constant(call.args[0].id))
        out = next((k.value for k in call.keywords if k.arg == "out"), None)
        if isinstance(out, gast.Name) and out.id in self.local_names:
            return templates.replace(
                "target = ag__.out_call(function, args, kwargs, label)",
                target=out.id, function=func, args=args, kwargs=kwargs, label=_constant(out.id))
        return self.generic_visit(node)


def transform(node, ctx):
    return _InPlaceCalls(set()).visit(node)
