"""The runner of the docs' code blocks (tests/markdown_blocks.py) on small Markdown texts."""
import doctest
import os

import pytest

import markdown_blocks
from markdown_blocks import parse_blocks, run_markdown

FENCE = "```"


def md(*parts: str) -> str:
    """Markdown from blocks written with ~~~ for fences (easier to read here)."""
    return "\n".join(parts).replace("~~~", FENCE) + "\n"


def outcomes(text: str):
    return [(o.block.line, o.status) for o in run_markdown(text, "t.md")]


def message(text: str, line: int) -> str:
    return next(o.message for o in run_markdown(text, "t.md") if o.block.line == line)


def test_matching_output_passes_and_ellipsis_stands_for_what_varies():
    text = md("~~~python", "import time", "print('took', time.perf_counter(), 's')",
              "print([1,   2])", "~~~", "<!-- output -->", "~~~", "took ... s", "[1, 2]", "~~~")
    assert outcomes(text) == [(1, "passed"), (7, "passed")]


def test_mismatching_output_fails_with_a_diff():
    text = md("~~~python", "print(6 * 7)", "~~~", "", "<!-- output -->", "~~~", "41", "~~~")
    assert outcomes(text) == [(1, "passed"), (6, "failed")]
    assert "t.md:6: the output of the block at line 1 differs" in message(text, 6)
    assert "Expected:\n    41\nGot:\n    42" in message(text, 6)


def test_an_undefined_name_fails_at_its_markdown_line():
    text = md("Prose.", "", "~~~python", "x = 1", "print(y)", "~~~")
    assert outcomes(text) == [(3, "failed")]
    failure = message(text, 3)
    assert 'File "t.md", line 5' in failure and "NameError: name 'y' is not defined" in failure


def test_blocks_share_one_namespace_in_a_temporary_folder():
    text = md("~~~python", "import os", "n = 2", "open('made.txt', 'w').close()", "~~~",
              "~~~python", "print(n * 3, os.path.exists('made.txt'))", "~~~",
              "<!-- output -->", "~~~", "6 True", "~~~")
    assert outcomes(text) == [(1, "passed"), (6, "passed"), (10, "passed")]
    assert not os.path.exists("made.txt")


def test_raises_expects_the_last_statement_to_raise_it():
    text = md("<!-- raises: ZeroDivisionError -->", "~~~python", "print('before')", "1 / 0",
              "~~~", "<!-- output -->", "~~~", "before", "ZeroDivisionError: division by zero",
              "~~~")
    assert outcomes(text) == [(2, "passed"), (7, "passed")]
    subclass = md("<!-- raises: ArithmeticError -->", "~~~python", "1 / 0", "~~~")
    assert outcomes(subclass) == [(2, "passed")]


@pytest.mark.parametrize("code, expected", [
    ("x = 1", "the last statement raised nothing, expected KeyError"),
    ("{}[0]\n1 / 0", "KeyError: 0"),            # an earlier statement raised
    ("1 / 0", "ZeroDivisionError"),             # another exception
])
def test_raises_fails_otherwise(code, expected):
    text = md("<!-- raises: KeyError -->", "~~~python", code, "~~~")
    assert outcomes(text) == [(2, "failed")]
    assert expected in message(text, 2)


@pytest.mark.parametrize("text, expected", [
    (md("~~~python", "x = 1", "~~~", "~~~", "1", "~~~"), "untagged block with no marker"),
    (md("<!-- outptu -->", "~~~", "1", "~~~"), "unknown marker '<!-- outptu -->'"),
    (md("<!-- skip -->", "~~~python", "1", "~~~"), "marker 'skip' needs a value"),
    (md("<!-- raises: KeyError -->", "~~~bash", "ls", "~~~"), "apply to ```python blocks only"),
    (md("~~~python", "x = 1", "~~~"), ""),
    (md("~~~python", "print(1)", "~~~"), "printed output that no <!-- output --> block shows"),
    (md("~~~bash", "ls", "~~~", "<!-- output -->", "~~~", "1", "~~~"), "must follow a python"),
    (md("~~~python", "x = ", "~~~"), "invalid syntax"),
    (md("~~~python", "x = 1"), "fence never closed"),
    (md("<!-- output -->", "", "~~~python", "x = 1", "~~~"), "right below it; this one has none"),
    (md("~~~text", "<!-- output -->", "~~~"), ""),   # inside a block: not a marker
])
def test_every_block_is_accounted_for(text, expected):
    found = [o for o in run_markdown(text, "t.md") if o.status == "failed"]
    assert [expected in o.message for o in found] == ([True] if expected else [])


def test_other_languages_are_shown_and_skips_give_their_reason():
    text = md("~~~bash", "rm -rf /", "~~~", "~~~text", "anything", "~~~",
              "<!-- skip: a fragment -->", "~~~python", "BINARY = {", "~~~",
              "<!-- output -->", "~~~", "nothing checked", "~~~",
              "<!-- needs: no_such_module_here -->", "~~~python", "import no_such_module_here",
              "~~~", "<!-- needs: cupy -->", "~~~python", "import cupy", "~~~")
    found = run_markdown(text, "t.md")
    assert [(o.status, o.message) for o in found][:5] == [
        ("shown", ""), ("shown", ""), ("skipped", "a fragment"),
        ("skipped", "its block is skipped: a fragment"),
        ("skipped", "needs no_such_module_here")]
    assert found[5].status == "passed" or found[5].message == "needs a GPU (CuPy)"


def test_converted_functions_read_their_source_from_the_block():
    text = md("~~~python", "import numpy as np", "import autograph as ag", "",
              "@ag.convert", "def f(x):", "    if x.sum() > 0:", "        x = -x", "    return x",
              "", "print(f(np.ones(2)), f.trace_count)", "~~~",
              "<!-- output -->", "~~~", "[-1. -1.] 1", "~~~")
    assert outcomes(text) == [(1, "passed"), (14, "passed")]


def test_parse_blocks_reads_fences_languages_and_markers():
    blocks = parse_blocks(md("<!-- skip: later -->", "~~~Python", "a", "b", "~~~"))
    assert [(b.line, b.lang, b.code, b.markers) for b in blocks] == [
        (2, "python", "a\nb\n", {"skip": "later"})]


def test_the_runners_own_example():
    assert doctest.testmod(markdown_blocks).failed == 0
