"""`for` loops: the body becomes a function of the item and the loop's state.

    for x in xs:             def loop_body(itr, total):
        total += x    ->         x = itr
                                 total += x
                                 return (total,)
                             total, = ag__.for_stmt(xs, None, loop_body, (total,), ('total',))

`range`, `enumerate` and `zip` in the loop header become `ag__.range_` (and so
on), which stage the loop when a bound or a sequence is traced. A test set
by the `break`/`return` converters is passed as `extra_test`.
"""
from __future__ import annotations

import gast

from ..pyct import anno, templates
from ..pyct.activity import activity, reads
from ..pyct.dataflow import analyze
from ..pyct.transformer import StatementTransformer
from . import _state, logical

_TEMPLATE = """
def loop_body(itr, parameters):
    declarations
    target = itr
    body
    return state
state = ag__.for_stmt(iterable, extra_test, loop_body, state, names)
"""
_EXTRA_TEST = """
def extra_test(parameters):
    declarations
    return test
"""
_STAGEABLE = {"range": "range_", "enumerate": "enumerate_", "zip": "zip_"}


def _iterable(node):
    """The loop's iterable, with `range`/`enumerate`/`zip` (nested too) made stageable."""
    stack = [node.iter]
    while stack:
        call = stack.pop()
        if isinstance(call, gast.Call) and isinstance(call.func, gast.Name) \
                and call.func.id in _STAGEABLE:
            call.func = templates.replace_as_expression(f"ag__.{_STAGEABLE[call.func.id]}")
            stack.extend(call.args)
    return node.iter


class _Fors(StatementTransformer):
    def __init__(self, ctx, outer, closures):
        self.ctx = ctx
        self.outer = outer
        self.closures = closures

    def visit_For(self, node):
        extra = anno.getanno(node, anno.Static.EXTRA_LOOP_TEST)
        if extra is not None:  # set before the logical converter ran: convert it now
            extra = logical.transform(extra, self.ctx)
        bind_target = gast.Assign(targets=[node.target], value=node.iter, type_comment=None)
        outer, captured, rebound, nonlocals = _state.outer_state(node, self.outer,
                                                                 self.closures)
        state = _state.block_state(
            node, [[bind_target] + node.body], outer=outer, then=node.orelse,
            extra_live=(reads(extra) if extra is not None else frozenset()) | nonlocals,
            captured=captured, rebound=rebound)
        body_name, item = self.ctx.namer.new("loop_body"), self.ctx.namer.new("itr")
        test_name = self.ctx.namer.new("extra_test") if extra is not None else None
        parameters, entry = _state.parameters(state, captured, self.ctx.namer)
        targets = sorted(activity(node.target).modified)  # bound from `itr` at the start
        _state.enter_as_function(node, [node.body], state + targets)
        self.generic_visit(node)
        before = []
        if extra is not None:
            before = templates.replace(_EXTRA_TEST, extra_test=test_name, parameters=parameters,
                                       declarations=entry(), test=extra)
        converted = templates.replace(
            _TEMPLATE, loop_body=body_name, itr=item, state=state, parameters=parameters,
            target=node.target, body=node.body, iterable=_iterable(node),
            names=_state.names_tuple(state),
            extra_test=test_name or gast.Constant(value=None, kind=None),
            declarations=_state.outer_declarations(outer, [bind_target] + node.body)
            + entry())
        return _state.initializers(node, [n for n in state if n not in nonlocals]) + before + converted + node.orelse


def transform(node, ctx):
    analyze(node, gast.For)
    return _Fors(ctx, _state.declared_outer(node), _state.Closures.of(node)).visit(node)
