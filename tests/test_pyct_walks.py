"""The converter's tree helpers: templates, walks, visitors and `contains`.

They were made faster (one pass to copy and fill a template, no generator per
node, nodes with nothing inside skipped); these pin what they must still do.
"""
from __future__ import annotations

import inspect

import gast

from autograph import conversion
from autograph.converters._blocks import contains
from autograph.pyct import templates, to_gast
from autograph.pyct.loader import to_source
from autograph.pyct.transformer import ExpressionTransformer, ExpressionVisitor, children, walk


def _expr(text):
    return gast.parse(text).body[0].value


def _source(statements):
    return to_source(gast.Module(body=statements, type_ignores=[]))


def test_a_template_used_again_is_as_it_was_parsed():
    first = templates.replace("def f(args):\n    body\n    return x + 1", f="g", args=["a"],
                              body=[gast.parse("y = 2").body[0]])
    first[0].body[-1].value.left.id = "changed"     # the caller owns what it was given
    second = templates.replace("def f(args):\n    body\n    return x + 1", f="h", args=[],
                               body=[])
    assert _source(second) == "def h():\n    return x + 1"


def test_a_node_is_moved_in_once_then_copied():
    value = _expr("a * b")
    (statement,) = templates.replace("target = value + value", target="t", value=value)
    left, right = statement.value.left, statement.value.right
    assert left is value and right is not value
    assert gast.dump(left) == gast.dump(right)


def test_statements_are_moved_in_once_then_copied():
    body = gast.parse("x = 1\ny = x").body
    statements = templates.replace("if c:\n    body\nelse:\n    body", body=body)
    assert statements[0].body == body                   # the same nodes
    assert all(a is not b for a, b in zip(statements[0].orelse, body))
    assert _source(statements) == "if c:\n    x = 1\n    y = x\nelse:\n    x = 1\n    y = x"


def test_a_def_takes_its_name_and_parameters_and_replacements_are_not_filled_again():
    # `state` inside the body replacement is the user's name, not the placeholder
    body = gast.parse("state = state + 1").body
    statements = templates.replace("def name(parameters):\n    body\n    return state",
                                   name="loop_body", parameters=["i", "state_1"], body=body,
                                   state=["state"])
    assert _source(statements) == \
        "def loop_body(i, state_1):\n    state = state + 1\n    return (state,)"
    assert isinstance(statements[0].args.args[0].ctx, gast.Param)


def test_a_name_replacement_takes_the_placeholders_context():
    (statement,) = templates.replace("target = ag__.f(value)", target=_expr("(a, b)"),
                                     value=_expr("c.d"))
    assert isinstance(statement.targets[0].ctx, gast.Store)
    assert all(isinstance(e.ctx, gast.Store) for e in statement.targets[0].elts)
    assert isinstance(statement.value.args[0].ctx, gast.Load)


def test_walk_and_children_follow_gast_order():
    tree = to_gast.to_gast(compile(inspect.getsource(conversion), "x", "exec", 1024))
    assert [id(n) for n in walk(tree)] == [id(n) for n in gast.walk(tree)]
    assert all(children(n) == list(gast.iter_child_nodes(n)) for n in gast.walk(tree))


def test_visitors_skip_nodes_with_nothing_inside_unless_they_visit_their_kind():
    tree = gast.parse("def f(x: int = 1):\n    return -x + 2 if x else y")

    class Seen(ExpressionVisitor):
        def __init__(self):
            self.kinds = []

        def generic_visit(self, node):
            self.kinds.append(type(node).__name__)
            super().generic_visit(node)

    class Loads(ExpressionVisitor):
        def __init__(self):
            self.count = 0

        def visit_Load(self, node):
            self.count += 1

    seen = Seen()
    seen.visit(tree)
    assert not {"Load", "Param", "USub", "Add", "Constant"} & set(seen.kinds)
    assert "Name" in seen.kinds   # the parameter `x: int` holds its annotation
    loads = Loads()
    loads.visit(tree)
    assert loads.count == sum(isinstance(n, gast.Load) for n in gast.walk(tree))


def test_a_transformer_still_replaces_inside_names_with_annotations():
    class Ints(ExpressionTransformer):
        def visit_Name(self, node):
            self.generic_visit(node)
            return gast.Name(id="float", ctx=node.ctx, annotation=None,
                             type_comment=None) if node.id == "int" else node

    tree = Ints().visit(gast.parse("def f(x: int):\n    return x"))
    assert to_source(tree) == "def f(x: float):\n    return x"


def test_contains_finds_statements_in_every_block_but_nested_functions():
    def body(text):
        return gast.parse(text).body

    assert contains(body("try:\n    pass\nexcept E:\n    return 1"), gast.Return, True)
    assert contains(body("with m:\n    if c:\n        pass\n    else:\n        return"),
                    gast.Return, True)
    assert contains(body("while c:\n    pass\nelse:\n    break"), gast.Break, False)
    assert not contains(body("while c:\n    break"), gast.Break, False)
    assert contains(body("while c:\n    break"), gast.Break, True)
    assert not contains(body("def g():\n    return 1"), gast.Return, True)
    assert contains(body("x = [(yield)]"), (gast.Return, gast.Yield), True)  # an expression
    assert not contains(body("f = lambda: (yield)"), gast.Yield, True)
