"""Run the code blocks of a Markdown file and check their printed output.

The convention (docs/testing.md, "Docs that run"): a marker is an HTML comment
on the line right above a fence, so GitHub shows nothing of it.

- ```python: run, in file order, in one namespace per file (like a notebook);
  whatever it prints must be shown by an `<!-- output -->` block.
- `<!-- output -->`: the expected output of the python block before it (tagged
  ```python for highlighting, or untagged), compared by `doctest.OutputChecker`
  with ELLIPSIS and NORMALIZE_WHITESPACE, so `...` stands for what varies.
- `<!-- raises: TracingError -->`: the block's last statement must raise that
  exception (or a subclass); its output block, if any, ends with `Name: message`.
- `<!-- skip: reason -->`: not run (a fragment, a GPU, timings).
- `<!-- needs: cupy -->`: run only where that module imports, else skipped.
- A block tagged with another language (```bash, ```text) is shown, not run.
- An untagged block with no marker is an error: every block is accounted for.

    >>> text = "```python\\nprint(1 + 1)\\n```\\n<!-- output -->\\n```\\n2\\n```\\n"
    >>> [(o.block.line, o.status) for o in run_markdown(text, "demo.md")]
    [(1, 'passed'), (5, 'passed')]
"""
from __future__ import annotations

import ast
import contextlib
import dataclasses
import doctest
import importlib
import io
import os
import re
import sys
import tempfile
import traceback
import types

MARKER = re.compile(r"^<!--\s*([a-z]+)\s*(?::\s*(.*?))?\s*-->$")
MARKERS = {"output": False, "skip": True, "raises": True, "needs": True}  # kind: takes a value
PYTHON = ("python", "py")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclasses.dataclass
class Block:
    """One fenced block: `line` is its opening fence's (1-based), `code` its text."""
    line: int
    lang: str
    code: str
    markers: dict
    error: str = ""     # what is wrong with its fence or markers, if anything


@dataclasses.dataclass
class Outcome:
    """What became of a block: `status` is passed, failed, skipped or shown (not run)."""
    block: Block
    status: str
    message: str = ""
    printed: str = ""   # what a python block printed
    raised: str = ""    # `Name: message` of the exception a `raises` block expected


def parse_blocks(text: str) -> list[Block]:
    """The fenced blocks of a Markdown text, with the markers above each."""
    lines = text.splitlines()
    blocks, i, used = [], 0, set()
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped.startswith("```"):
            i += 1
            continue
        start, lang = i, stripped[3:].strip().lower()
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), None)
        if end is None:
            blocks.append(Block(start + 1, lang, "", {}, "fence never closed"))
            break
        markers, error, k = {}, "", start - 1
        while k >= 0 and lines[k].strip().startswith("<!--"):
            match = MARKER.match(lines[k].strip())
            if not match or match[1] not in MARKERS:
                error = f"unknown marker {lines[k].strip()!r} (known: {', '.join(MARKERS)})"
            elif MARKERS[match[1]] != bool(match[2]):
                error = (f"marker {match[1]!r} " +
                         ("needs a value, e.g. <!-- skip: reason -->" if MARKERS[match[1]]
                          else "takes no value"))
            else:
                markers[match[1]] = match[2] or ""
            used.add(k)
            k -= 1
        used.update(range(start + 1, end))  # a block's own lines are no markers
        blocks.append(Block(start + 1, lang, "\n".join(lines[start + 1:end]) + "\n",
                            markers, error or _marker_error(lang, markers)))
        i = end + 1
    return sorted(blocks + _stray_markers(lines, used), key=lambda b: b.line)


def _stray_markers(lines: list[str], used: set) -> list[Block]:
    """Markers outside blocks and not right above a fence: they would apply to nothing."""
    return [Block(k + 1, "", "", {}, "a marker applies to the fence on the line right "
                  "below it; this one has none") for k, line in enumerate(lines)
            if k not in used and (m := MARKER.match(line.strip())) and m[1] in MARKERS]


def _marker_error(lang: str, markers: dict) -> str:
    if "output" in markers and len(markers) > 1:
        return "an <!-- output --> block takes no other marker"
    if lang not in PYTHON and ("raises" in markers or "needs" in markers):
        return "<!-- raises --> and <!-- needs --> apply to ```python blocks only"
    if not lang and not markers:
        return ("untagged block with no marker: mark it <!-- output --> or "
                "<!-- skip: reason -->, or give it a language (```text is shown, not run)")
    return ""


def _runs(block: Block) -> bool:
    return block.lang in PYTHON and not block.error and not (
        {"output", "skip"} & block.markers.keys())


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def _skip_reason(markers: dict) -> str:
    if "skip" in markers:
        return markers["skip"]
    module = markers.get("needs")
    if module:
        try:
            importlib.import_module(module)
        except ImportError:
            return "needs a GPU (CuPy)" if module == "cupy" else f"needs {module}"
    return ""


def run_markdown(text: str, name: str, workdir: str | None = None) -> list[Outcome]:
    """Run `text`'s python blocks in order in one namespace, in `workdir` (a fresh
    temporary folder by default), and check every block; one `Outcome` per block."""
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = stack.enter_context(tempfile.TemporaryDirectory())
        return _Runner(text, name, workdir).run()


class _Runner:
    def __init__(self, text: str, name: str, workdir: str):
        self.name = name
        self.blocks = parse_blocks(text)
        stem = re.sub(r"\W", "_", name)
        # One source file holding every python block at its own line, so that
        # tracebacks give the Markdown's line numbers and inspect.getsource works.
        self.filename = os.path.join(os.path.abspath(workdir), f"{stem}.py")
        self.workdir = workdir
        self.module = types.ModuleType(f"markdown_{stem}")
        self.module.__file__ = self.filename
        self.last: Outcome | None = None   # the last python block's outcome
        self.claimed = False               # whether an output block has checked it

    def run(self) -> list[Outcome]:
        with open(self.filename, "w") as f:
            f.write(self._padded_all())
        before = os.getcwd()
        sys.modules[self.module.__name__] = self.module
        try:
            os.chdir(self.workdir)
            outcomes = [self._check(block) for block in self.blocks]
        finally:
            os.chdir(before)
            sys.modules.pop(self.module.__name__, None)
        self._close_last()
        return outcomes

    def _padded_all(self) -> str:
        lines: list[str] = []
        for block in self.blocks:
            if _runs(block) and _parses(block.code):
                lines += [""] * (block.line - len(lines)) + block.code.splitlines()
        return "\n".join(lines) + "\n"

    def _where(self, block: Block) -> str:
        return f"{self.name}:{block.line}"

    def _check(self, block: Block) -> Outcome:
        if block.error:
            return Outcome(block, "failed", f"{self._where(block)}: {block.error}")
        if "output" in block.markers:
            return self._compare(block)
        if block.lang not in PYTHON:
            return Outcome(block, "skipped" if "skip" in block.markers else "shown",
                           block.markers.get("skip", ""))
        self._close_last()
        outcome = self._python(block)
        self.last, self.claimed = outcome, False
        return outcome

    def _python(self, block: Block) -> Outcome:
        reason = _skip_reason(block.markers)
        if reason:
            return Outcome(block, "skipped", reason)
        try:
            tree = ast.parse("\n" * block.line + block.code, self.filename)
        except SyntaxError as e:
            return Outcome(block, "failed", f"{self._where(block)}: {e}")
        expected = block.markers.get("raises")
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                raised = self._execute(tree.body, expected)
        except Exception as e:  # noqa: BLE001 - a block's failure is its outcome
            return Outcome(block, "failed", f"{self._where(block)}: the block raised\n"
                           + self._traceback(e), printed.getvalue())
        if raised is None:
            return Outcome(block, "failed", f"{self._where(block)}: the last statement "
                           f"raised nothing, expected {expected}", printed.getvalue())
        return Outcome(block, "passed", "", printed.getvalue(), raised)

    def _execute(self, statements: list, expected: str | None) -> str | None:
        """Runs the statements; with `expected`, the last must raise that exception:
        its `Name: message` line, or None where it raised nothing."""
        if not expected:
            self._exec(statements)
            return ""
        self._exec(statements[:-1])
        try:
            self._exec(statements[-1:])
        except Exception as e:
            if expected.split(".")[-1] not in {cls.__name__ for cls in type(e).__mro__}:
                raise
            return f"{type(e).__name__}: {e}\n"
        return None

    def _exec(self, statements: list) -> None:
        if statements:
            code = compile(ast.Module(statements, []), self.filename, "exec")
            exec(code, self.module.__dict__)

    def _traceback(self, e: BaseException) -> str:
        frames = traceback.extract_tb(e.__traceback__)
        ours = [i for i, f in enumerate(frames) if f.filename == self.filename]
        tb = e.__traceback__
        for _ in range(ours[0] if ours else 0):
            tb = tb.tb_next
        text = "".join(traceback.format_exception(type(e), e, tb))
        return text.replace(self.filename, self.name)

    def _compare(self, block: Block) -> Outcome:
        ran = self.last
        if ran is None or self.claimed:
            return Outcome(block, "failed", f"{self._where(block)}: an <!-- output --> block "
                           "must follow a python block (one output block each)")
        self.claimed = True
        if ran.status == "skipped":
            return Outcome(block, "skipped", f"its block is skipped: {ran.message}")
        if ran.status == "failed":
            return Outcome(block, "failed", f"{self._where(block)}: its block failed")
        got, checker = ran.printed + ran.raised, doctest.OutputChecker()
        if checker.check_output(block.code, got, FLAGS):
            return Outcome(block, "passed")
        diff = checker.output_difference(doctest.Example("", block.code), got,
                                         FLAGS | doctest.REPORT_UDIFF)
        return Outcome(block, "failed", f"{self._where(block)}: the output of the block at "
                       f"line {ran.block.line} differs from the docs.\n{diff}")

    def _close_last(self) -> None:
        """A python block that printed must be followed by its output block."""
        ran = self.last
        if ran and not self.claimed and ran.printed and ran.status == "passed":
            ran.status = "failed"
            ran.message = (f"{self._where(ran.block)}: the block printed output that no "
                           f"<!-- output --> block shows:\n{ran.printed}")
        self.last = None
