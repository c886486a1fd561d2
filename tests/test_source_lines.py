"""A function's source is parsed from the lines defining it (`autograph.pyct.parser`),
the whole file where those lines do not parse alone: both give the user's lines."""
import functools

import numpy as np

import autograph as ag
from autograph.pyct import parser


def ending_in_text_at_column_0(x):
    if np.sum(x) > 0:
        x = x * 2
    return x + len("""a text ending
""")


def decorated(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)
    return wrapper


class Model:
    @staticmethod
    @decorated
    def step(x):
        total = x * 2   # a comment at the end
        for i in range(3):
            total = total + (
                i)
# a comment at column 0, inside the method
        return total


def _node(fn):
    lines, code = parser._lines(fn)
    return parser._definition_tree(lines, code)


def test_an_indented_decorated_method_is_parsed_from_its_own_lines():
    fn = Model.step.__wrapped__
    assert _node(fn) is not None
    node, filename = parser.parse_function(fn)
    assert node.name == "step" and filename == __file__
    assert node.lineno == fn.__code__.co_firstlineno + 2   # the `def`, after two decorators
    x = np.arange(3.0)
    np.testing.assert_array_equal(ag.convert(fn)(x), fn(x))


def test_lines_that_do_not_parse_alone_fall_back_to_the_file():
    assert _node(ending_in_text_at_column_0) is None
    node, _ = parser.parse_function(ending_in_text_at_column_0)
    assert node.lineno == ending_in_text_at_column_0.__code__.co_firstlineno
    for x in (np.ones(2), -np.ones(2)):
        np.testing.assert_array_equal(ag.convert(ending_in_text_at_column_0)(x),
                                      ending_in_text_at_column_0(x))


def test_errors_name_the_users_line_from_the_lines_alone():
    def fails(x):
        y = x + 1
        return np.frobnicate(y)

    assert _node(fails) is not None
    line = fails.__code__.co_firstlineno + 2
    try:
        ag.convert(fails)(np.ones(2))
    except AttributeError as error:
        assert f"test_source_lines.py:{line}" in "".join(getattr(error, "__notes__", ())), error
    else:
        raise AssertionError("np.frobnicate does not exist")
