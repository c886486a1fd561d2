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
def if_true(state):
    declarations
    body
    return state
def if_false(state):
    declarations_else
    orelse
    return state
state = ag__.if_stmt(test, if_true, if_false, state, names)
"""


class _Ifs(StatementTransformer):
    def __init__(self, ctx, outer):
        self.ctx = ctx
        self.outer = outer

    def visit_If(self, node):
        state = _state.block_state(node, [node.body, node.orelse], outer=self.outer)
        true_name, false_name = self.ctx.namer.new("if_true"), self.ctx.namer.new("if_false")
        _state.enter_as_function(node, [node.body, node.orelse], state)
        self.generic_visit(node)  # inner ifs next: their state was found on the source
        converted = templates.replace(
            _TEMPLATE, if_true=true_name, if_false=false_name, state=state,
            declarations=_state.outer_declarations(self.outer, node.body),
            declarations_else=_state.outer_declarations(self.outer, node.orelse),
            body=node.body, orelse=node.orelse, test=node.test,
            names=_state.names_tuple(state))
        return _state.initializers(node, state) + converted


def transform(node, ctx):
    analyze(node, gast.If)
    return _Ifs(ctx, _state.declared_outer(node)).visit(node)
