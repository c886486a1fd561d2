"""`if`/`elif`/`else`: branches become functions of the state they change.

    if x > 0:                def if_true(y):
        y = x                    y = x
    else:            ->          return (y,)
        y = -x               def if_false(y):
                                 y = -x
                                 return (y,)
                             y = ag__.bound_or_undefined(lambda: y, 'y')
                             (y,) = ag__.if_stmt(x > 0, if_true, if_false, (y,), ('y',))
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.dataflow import analyze
from ..pyct.transformer import StatementTransformer
from . import _state

_TEMPLATE = """
def if_true(parameters):
    declarations
    body
    return state
def if_false(parameters):
    declarations_else
    orelse
    return state
state = ag__.if_stmt(test, if_true, if_false, state, names)
"""


class _Ifs(StatementTransformer):
    def __init__(self, ctx, outer, closures):
        self.ctx = ctx
        self.outer = outer
        self.closures = closures

    def visit_If(self, node):
        outer, captured, rebound, nonlocals = _state.outer_state(node, self.outer,
                                                                 self.closures)
        state = _state.block_state(node, [node.body, node.orelse], extra_live=nonlocals,
                                   outer=outer, captured=captured, rebound=rebound)
        true_name, false_name = self.ctx.namer.new("if_true"), self.ctx.namer.new("if_false")
        parameters, entry = _state.parameters(state, captured, self.ctx.namer)
        _state.enter_as_function(node, [node.body, node.orelse], state)
        self.generic_visit(node)  # inner ifs next: their state was found on the source
        converted = templates.replace(
            _TEMPLATE, if_true=true_name, if_false=false_name, state=state,
            parameters=parameters,
            declarations=_state.outer_declarations(outer, node.body) + entry(),
            declarations_else=_state.outer_declarations(outer, node.orelse) + entry(),
            body=node.body, orelse=node.orelse, test=node.test,
            names=_state.names_tuple(state))
        return _state.initializers(node, [n for n in state if n not in nonlocals]) + converted


def transform(node, ctx):
    analyze(node, gast.If)
    return _Ifs(ctx, _state.declared_outer(node), _state.Closures.of(node)).visit(node)
