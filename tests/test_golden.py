"""Converted sources of representative functions, compared with golden files.

After a deliberate change to a converter, regenerate them with
`python -m pytest tests/test_golden.py --update-golden` and review the diff.
"""
from pathlib import Path

import pytest
from golden.functions import FUNCTIONS

import autograph as ag

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_converted_source_matches_golden(fn, request):
    path = GOLDEN / f"{fn.__name__}.py.golden"
    source = ag.to_code(fn)
    compile(source, str(path), "exec")  # valid Python
    if request.config.getoption("--update-golden"):
        path.write_text(source)
    assert path.exists(), f"no golden file {path.name}: run with --update-golden"
    assert source == path.read_text(), (
        f"the converted source of {fn.__name__} changed; if that is intended, run "
        f"`python -m pytest tests/test_golden.py --update-golden` and review the diff")
