"""`break` and `continue`: lowered to flags that guard the rest of the loop body.

    while test:                 break_ = False
        if c:                   while not break_ and test:
            break        ->         if c:
        rest                            break_ = True
                                    if not break_:
                                        rest
"""
from __future__ import annotations

import gast

from ..pyct import anno, templates
from ..pyct.transformer import StatementTransformer
from ._blocks import contains, lower_block, not_flag


class _Loops(StatementTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def _loop(self, node):
        self.generic_visit(node)  # inner loops first: their jumps are theirs
        before = []
        if contains(node.body, gast.Continue, into_loops=False):
            flag = self.ctx.namer.new("continue_")
            node.body = templates.replace("flag = False", flag=flag) + lower_block(
                node.body, gast.Continue, lambda _: templates.replace("flag = True", flag=flag),
                flag, into_loops=False)
        if not contains(node.body, gast.Break, into_loops=False):
            return node
        flag = self.ctx.namer.new("break_")
        node.body = lower_block(node.body, gast.Break,
                                lambda _: templates.replace("flag = True", flag=flag),
                                flag, into_loops=False)
        add_loop_test(node, flag)
        before = templates.replace("flag = False", flag=flag)
        after = []
        if node.orelse:  # `else` runs only when the loop was not broken out of
            after = templates.replace("if not flag:\n    orelse", flag=flag, orelse=node.orelse)
            node.orelse = []
        return before + [node] + after

    visit_While = visit_For = _loop


def add_loop_test(loop, flag: str) -> None:
    """Makes `loop` also stop when `flag` is set."""
    test = not_flag(flag)
    if isinstance(loop, gast.While):
        loop.test = gast.BoolOp(op=gast.And(), values=[test, loop.test])
        return
    existing = anno.getanno(loop, anno.Static.EXTRA_LOOP_TEST)
    if existing is not None:
        test = gast.BoolOp(op=gast.And(), values=[existing, test])
    anno.setanno(loop, anno.Static.EXTRA_LOOP_TEST, test)


def transform(node, ctx):
    return _Loops(ctx).visit(node)
