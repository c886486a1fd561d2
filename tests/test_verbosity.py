"""`ag.set_verbosity`: the `autograph` logger reports conversions, traces, compiles and
long unrolling, and at level 2 the converted source."""
from __future__ import annotations

import logging
import os
import subprocess
import sys

import numpy as np
import pytest

import autograph as ag
from autograph import trace_log


@pytest.fixture
def log(caplog):
    caplog.set_level(logging.NOTSET, logger="autograph")
    yield caplog
    ag.set_verbosity(0)
    logging.getLogger("autograph").setLevel(logging.NOTSET)


def messages(caplog, level=logging.INFO):
    return [r.getMessage() for r in caplog.records if r.name == "autograph"
            and r.levelno == level]


def test_level_1_reports_conversions_traces_and_unrolling(log):
    ag.set_verbosity(1)

    def unrolled(x, n):          # its own code object: converted here
        for _ in range(n):       # a Python range: unrolled while tracing
            x = x * 0.5 + 1.0
        return x

    with pytest.warns(ag.UnrolledLoopWarning):
        ag.convert(unrolled)(np.ones(2), 2001)
    text = messages(log)
    assert any(m.startswith("autograph: converted test_level_1_reports_conversions_traces_and_"
                            "unrolling.<locals>.unrolled (test_verbosity.py:") for m in text)
    assert sum("still tracing: a Python loop" in m for m in text) == 2   # 1,000 and 2,000
    assert any("has run 2000 trips so far" in m for m in text)
    assert any(m.startswith("autograph: traced test_level_1_reports_conversions_traces_and_"
                            "unrolling.<locals>.unrolled (trace 1) for (x: float64[2], n=2001)")
               for m in text)
    assert messages(log, logging.DEBUG) == []


def test_level_2_adds_the_converted_source(log):
    ag.set_verbosity(2)

    def fresh(x):                # its own code object: converted here
        if x.sum() > 0:
            return x
        return -x

    ag.convert(fresh)
    assert any(m.startswith("autograph: converted test_level_2_adds_the_converted_source.<locals>"
                            ".fresh") for m in messages(log))
    (source,) = [m for m in messages(log, logging.DEBUG) if "fresh" in m]
    assert "ag__.if_stmt" in source


def test_level_0_is_quiet(log):
    ag.set_verbosity(0)
    ag.convert(lambda x: x + 1)(np.ones(2))
    assert messages(log) == []


def test_a_native_compile_is_reported_with_its_time(log):
    pytest.importorskip("numba", reason="the native tier needs Numba")
    ag.set_verbosity(1)
    f = ag.convert(lambda x: x * 2.0 + 1.0, tier="native")
    f(np.ones(3))
    (record,) = [m for m in messages(log) if "to machine code" in m]
    assert record.startswith("autograph: compiled graph ") and " s: runs native" in record


def test_a_negative_level_is_refused():
    with pytest.raises(ValueError, match="a verbosity is 0 or more"):
        ag.set_verbosity(-1)


def test_the_environment_variable_sets_it_and_records_go_to_stderr():
    code = ("import numpy as np, autograph as ag\n"
            "ag.convert(lambda x: x + 1)(np.ones(2))\n")
    env = {**os.environ, "AUTOGRAPH_VERBOSITY": "1"}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    assert "autograph: traced <lambda> (trace 1) for (x: float64[2]) on cpu" in run.stderr
    assert trace_log.logger.name == "autograph"
