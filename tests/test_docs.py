"""The code blocks of the READMEs and docs/ run, and print what the docs show.

The convention is docs/testing.md's "Docs that run" (the runner is
tests/markdown_blocks.py). Each file's python blocks run once, in order, in one
namespace and a fresh temporary folder; each block is one test, named
`FILE:LINE` after its opening fence, that reports what became of it.
"""
from __future__ import annotations

import contextlib
import pathlib

import pytest

import autograph.tiers
from markdown_blocks import parse_blocks, run_markdown

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Markdown with code blocks that is not documentation: why each is left out.
NOT_DOCS = {
    "bench/RESULTS.md": "a record of benchmark runs: timings of one machine, not examples",
}


def _files() -> list[str]:
    paths = [ROOT / "README.md", *sorted(ROOT.glob("docs/*.md")),
             *sorted(ROOT.glob("*/README.md"))]
    return [p.relative_to(ROOT).as_posix() for p in paths]


FILES = _files()
_outcomes: dict = {}


@contextlib.contextmanager
def _settings_kept():
    """The docs may call `ag.set_tier`: the suite's own tier comes back after them."""
    kept = dict(vars(autograph.tiers.settings))
    try:
        yield
    finally:
        vars(autograph.tiers.settings).clear()
        vars(autograph.tiers.settings).update(kept)


def _outcome(name: str, line: int):
    if name not in _outcomes:
        with _settings_kept():
            outcomes = run_markdown((ROOT / name).read_text(), name)
        _outcomes[name] = {o.block.line: o for o in outcomes}
    return _outcomes[name][line]


def _blocks():
    for name in FILES:
        for block in parse_blocks((ROOT / name).read_text()):
            yield pytest.param(name, block.line, id=f"{name}:{block.line}")


@pytest.mark.parametrize("name, line", list(_blocks()))
def test_block(name, line):
    outcome = _outcome(name, line)
    if outcome.status == "skipped":
        pytest.skip(f"{name}:{line}: {outcome.message}")
    assert outcome.status != "failed", outcome.message


def test_every_markdown_file_with_code_is_checked():
    found = {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.md")
             if not any(part.startswith(".") or part.endswith(".egg-info")
                        for part in p.relative_to(ROOT).parts)
             and parse_blocks(p.read_text())}
    assert found - set(FILES) - set(NOT_DOCS) == set()
    assert {"README.md", "docs/gradients.md", "runtime/README.md"} <= set(FILES)
