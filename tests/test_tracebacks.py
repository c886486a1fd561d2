"""Short tracebacks: errors raised to the user lose autograph's and runtime's own frames."""
from __future__ import annotations

import os
import subprocess
import sys
import traceback

import numpy as np
import pytest

import autograph as ag
from autograph.tracebacks import NOTE

PACKAGES = tuple(os.path.dirname(m.__file__) + os.sep
                 for m in (ag, sys.modules["autograph_runtime"]))


def helper(x, w):
    return x @ w


@ag.convert
def model(x, w):
    h = helper(x, w)
    if h.sum() > 0:
        h = h * 2
    return h


@ag.convert
def checked(x):
    assert x.sum() > 0, "the sum must be positive"
    return x


@pytest.fixture(autouse=True)
def filtering_on():
    yield
    ag.set_traceback_filtering(True)


def frames(error):
    return [frame.filename for frame in traceback.extract_tb(error.__traceback__)]


def test_a_tracing_error_shows_the_users_and_the_converted_frames_only():
    with pytest.raises(ValueError, match="mismatch in its core dimension") as caught:
        model(np.ones((2, 3)), np.ones((4, 5)))
    files = frames(caught.value)
    assert files[0] == __file__                               # the call in this test
    assert not any(f.startswith(PACKAGES) for f in files)
    assert any(f.startswith("<autograph model") for f in files)
    assert any(f.startswith("<autograph helper") for f in files)
    notes = caught.value.__notes__
    assert notes.count(NOTE) == 1
    # one note for the user's line: NumPy's name, no second note for the same line
    assert [n for n in notes if "test_tracebacks.py:" in n] == [
        f"while tracing numpy.matmul (at {__file__}:{helper.__code__.co_firstlineno + 1} "
        f"in helper)"]


def test_an_error_when_the_graph_runs_is_shortened_too():
    checked(np.ones(2))
    with pytest.raises(AssertionError, match="the sum must be positive") as caught:
        checked(-np.ones(2))                                 # the staged assert fails
    assert not any(f.startswith(PACKAGES) for f in frames(caught.value))
    assert NOTE in caught.value.__notes__


def test_an_error_raised_by_our_frames_alone_keeps_only_the_users():
    def returns_in_finally(x):
        # a `return` in `finally` drops the exception: not convertible
        try:
            x = x - 1
        finally:
            return x

    with pytest.raises(ag.ConversionError) as caught:
        ag.convert(returns_in_finally)(np.ones(2))
    assert frames(caught.value) == [__file__]
    assert NOTE in caught.value.__notes__


def test_get_concrete_function_shortens_too():
    with pytest.raises(ValueError) as caught:
        model.get_concrete_function(np.ones((2, 3)), np.ones((4, 5)))
    assert not any(f.startswith(PACKAGES) for f in frames(caught.value))


def test_filtering_off_keeps_every_frame():
    ag.set_traceback_filtering(False)
    with pytest.raises(ValueError) as caught:
        model(np.ones((2, 3)), np.ones((4, 5)))
    assert any(f.startswith(PACKAGES) for f in frames(caught.value))
    assert NOTE not in getattr(caught.value, "__notes__", [])


def test_a_chained_error_is_shortened_too():
    @ag.convert
    def wraps(x):
        return model(x, np.ones((4, 5)))

    try:
        try:
            wraps(np.ones((2, 3)))
        except ValueError as error:
            raise RuntimeError("while fitting") from error
    except RuntimeError as outer:
        cause = outer.__cause__
    assert not any(f.startswith(PACKAGES) for f in frames(cause))


def test_the_environment_variable_turns_it_off():
    code = ("import numpy as np, autograph as ag\n"
            "f = ag.convert(lambda x, w: x @ w)\n"
            "f(np.ones((2, 3)), np.ones((4, 5)))\n")
    env = {**os.environ, "AUTOGRAPH_TRACEBACK_FILTERING": "off"}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 1 and "runtime" + os.sep + "tracer.py" in run.stderr
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 1 and "runtime" + os.sep + "tracer.py" not in run.stderr
    assert "autograph hid its own frames" in run.stderr
