"""`logging` calls in converted code log each time the graph runs, as eagerly.

The oracle is the undecorated function: the same records (level, logger,
message, and the user's file, line and function as location) at every call,
in the same order, with levels and adapters consulted when the graph runs.
"""
from __future__ import annotations

import logging
import warnings

import numpy as np
import pytest

import autograph as ag

log = logging.getLogger("test_logging_calls")


class Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)

    def take(self):
        taken = [(r.name, r.levelname, r.getMessage(), r.pathname, r.lineno, r.funcName)
                 for r in self.records]
        self.records = []
        return taken


@pytest.fixture
def records():
    handler = Records()
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    yield handler
    log.removeHandler(handler)
    log.setLevel(logging.NOTSET)


def same_records(records, fn, *calls):
    """Each call's records from `fn` and from `ag.convert(fn)`: equal, call by call."""
    converted, logged = ag.convert(fn), 0
    for args in calls:
        want = fn(*args)
        wanted = records.take()
        got = converted(*args)
        assert records.take() == wanted
        np.testing.assert_allclose(got, want)
        logged += len(wanted)
    assert logged and converted.trace_count < len(calls)


def statistics(x):
    m = x.mean()
    log.info("mean=%s max=%.2f size=%d", m, x.max(), x.size)
    if m > 1:
        log.warning("large mean %r", m)
    return m * 2


def progress(x, n):
    s = 0.0
    for i in range(n):
        s = s + x[i]
        log.debug("step %d: s=%.3f", i, s)
    return s


def formatted(x):
    total = x.sum()
    log.info(f"total={total:.1f} first={x[0]!r}")
    log.log(logging.ERROR, "by level %s", total)
    log.info("no traced value")
    return total


def test_records_are_made_when_the_graph_runs_at_every_call(records):
    # the second call of the same signature runs the graph only: it logs too
    same_records(records, statistics, (np.arange(3.0),), (np.arange(3.0) + 1,),
                 (np.arange(5.0),))


def test_a_staged_loop_logs_each_trip(records):
    same_records(records, progress, (np.arange(6.0), np.int64(4)), (np.arange(6.0), np.int64(0)),
                 (np.arange(6.0), np.int64(6)))


def test_f_strings_levels_and_python_values(records):
    same_records(records, formatted, (np.arange(3.0),), (np.ones(2),), (np.ones(3) * 2,))


def test_the_level_is_read_when_the_graph_runs(records):
    converted = ag.convert(statistics)
    x = np.arange(4.0)
    converted(x)
    assert len(records.take()) == 2
    log.setLevel(logging.WARNING)
    converted(x)
    statistics(x)
    got = records.take()   # the graph, then eager: the warning alone, the same
    assert [r[1] for r in got] == ["WARNING", "WARNING"] and got[0] == got[1]
    assert converted.trace_count == 1


def test_the_root_logger_and_an_adapter(records, caplog):
    adapter = logging.LoggerAdapter(log, {"run": 7})
    adapter.process = lambda msg, kwargs: (f"[run 7] {msg}", kwargs)

    def f(x):
        m = x.max()
        adapter.info("max %s", m)
        logging.info("root %s", m)
        return m

    with caplog.at_level(logging.INFO):
        want = f(np.arange(3.0))
        wanted = [(r.name, r.getMessage(), r.lineno) for r in caplog.records]
        caplog.clear()
        ag.convert(f)(np.arange(3.0))
        assert [(r.name, r.getMessage(), r.lineno) for r in caplog.records
                if r.name != "autograph"] == wanted
    assert want == 2.0 and wanted[0][1] == "[run 7] max 2.0" and wanted[1][1] == "root 2.0"


def test_logs_and_prints_keep_program_order(capsys):
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("LOG %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)

    def f(x):
        print("first", x.sum())
        log.info("second %s", x.sum())
        print("third")
        return x

    try:
        import sys
        handler.stream = sys.stdout
        f(np.ones(2))
        want = capsys.readouterr().out
        handler.stream = sys.stdout
        ag.convert(f)(np.ones(2))
        assert capsys.readouterr().out == want == "first 2.0\nLOG second 2.0\nthird\n"
    finally:
        log.removeHandler(handler)
        log.setLevel(logging.NOTSET)


def test_a_logging_call_is_not_lowered_to_the_native_tier_or_saved(records, tmp_path):
    concrete = ag.convert(statistics, tier="native").get_concrete_function(np.arange(3.0))
    assert concrete.tier == "numpy" and "py_function" in concrete.tier_reason
    with pytest.raises(Exception, match="logging call at"):
        ag.save(ag.convert(statistics), str(tmp_path / "m"), np.arange(3.0))


def test_a_try_run_as_python_when_the_graph_runs_logs_from_the_user_s_line(records):
    def f(a):
        try:
            inv = np.linalg.inv(a)
            log.info("inverted, trace %s", inv.trace())
        except np.linalg.LinAlgError as error:
            log.error("singular: %s", error)
            inv = np.zeros_like(a)
        return inv

    same_records(records, f, (np.eye(2) * 2,), (np.zeros((2, 2)),), (np.eye(2),))


def warn_on_clip(x, lo, hi):
    if np.any((x < lo) | (x > hi)):
        warnings.warn("values clipped", RuntimeWarning)
    if x.sum() > 100:
        warnings.warn(f"a large total {x.sum():.1f}")
    return np.clip(x, lo, hi)


def test_warnings_warn_warns_each_time_the_graph_runs_at_the_user_s_line():
    f = ag.convert(warn_on_clip)
    line = warn_on_clip.__code__.co_firstlineno + 2
    for x in (np.array([0.5]), np.array([3.0]), np.array([0.25]), np.array([300.0])):
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            warn_on_clip(x, 0.0, 1.0)
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            f(x, 0.0, 1.0)
        assert [(w.category, str(w.message)) for w in got] == \
            [(w.category, str(w.message)) for w in want]
        assert all(w.filename == __file__ for w in got)
        assert not got or got[0].lineno in (line, line + 2)
    assert f.trace_count == 1


def warn_counting_below(x, lo):
    n = int(np.sum(x < lo))
    if n:
        warnings.warn(f"{n} values below {lo}")   # a traced int and a Python float
    return x


def test_a_warning_formatted_from_traced_and_python_values_warns_as_eagerly():
    f = ag.convert(warn_counting_below)
    for x, lo in ((np.array([0.0, 0.5, 1.0]), 0.2), (np.array([1.0]), 0.2),
                  (np.array([0.0, 0.1]), 0.75)):
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            warn_counting_below(x, lo)
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            f(x, lo)
        assert [str(w.message) for w in got] == [str(w.message) for w in want]
