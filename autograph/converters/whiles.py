"""`while` loops: the test and the body become functions of the loop's state.

    while i < n:            def loop_test(i, total):
        total += i              return i < n
        i += 1       ->     def loop_body(i, total):
                                total += i
                                i += 1
                                return (i, total)
                            i, total = ag__.while_stmt(loop_test, loop_body, (i, total), ('i', 'total'))

The state is what the body changes and reads again (in the next step or after
the loop). `while`/`else` becomes the loop followed by its `else` block
(the `break` converter has already guarded it).
"""
from __future__ import annotations

import gast

from ..pyct import templates
from ..pyct.activity import reads
from ..pyct.dataflow import analyze
from ..pyct.transformer import StatementTransformer
from . import _state, logical

_TEMPLATE = """
def loop_test(parameters):
    declarations_test
    return test
def loop_body(parameters):
    declarations
    body
    return state
state = ag__.while_stmt(loop_test, loop_body, state, names)
"""


class _Whiles(StatementTransformer):
    def __init__(self, ctx, outer, closures):
        self.ctx = ctx
        self.outer = outer
        self.closures = closures

    def visit_While(self, node):
        logical.refuse_assignments(node.test, "a `while` test")
        outer, captured, rebound, nonlocals = _state.outer_state(node, self.outer,
                                                                 self.closures)
        state = _state.block_state(node, [node.body], extra_live=reads(node.test) | nonlocals,
                                   outer=outer, then=node.orelse, captured=captured,
                                   rebound=rebound)
        test_name, body_name = self.ctx.namer.new("loop_test"), self.ctx.namer.new("loop_body")
        parameters, entry = _state.parameters(state, captured, self.ctx.namer)
        _state.enter_as_function(node, [node.body], state)
        self.generic_visit(node)
        converted = templates.replace(
            _TEMPLATE, loop_test=test_name, loop_body=body_name, state=state,
            parameters=parameters, test=node.test, body=node.body,
            names=_state.names_tuple(state), declarations_test=entry(),
            declarations=_state.outer_declarations(outer, node.body) + entry())
        return _state.initializers(node, [n for n in state if n not in nonlocals]) + converted + node.orelse


def transform(node, ctx):
    analyze(node, gast.While)
    return _Whiles(ctx, _state.declared_outer(node), _state.Closures.of(node)).visit(node)
