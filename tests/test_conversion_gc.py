"""The garbage collector is paused while a function converts, and only then."""
from __future__ import annotations

import gc
import itertools
import linecache
import threading

import numpy as np
import pytest

from autograph import conversion
from autograph.pyct import gc_pause, parser


_made = itertools.count()


def _fresh():
    """A function never converted before (conversions are cached per code object)."""
    n = next(_made)   # code objects of the same text are equal: each its own constant
    source = f"def f(x):\n    if x > 0:\n        x = -x\n    return np.abs(x) + {n}\n"
    filename = f"<test_conversion_gc {n}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["f"]


@pytest.fixture
def seen(monkeypatch):
    """Whether the collector was on, each time a function's source was parsed."""
    states = []
    parse = parser.parse_function

    def parse_function(fn):
        states.append(gc.isenabled())
        return parse(fn)
    monkeypatch.setattr(conversion, "parse_function", parse_function)
    return states


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_while_converting_and_on_again_after(seen, collector_on):
    fn = _fresh()
    converted = conversion.convert_function(fn)
    assert seen == [False] and gc.isenabled()
    assert converted(np.float64(2.0)) == fn(np.float64(2.0))


def test_a_program_that_disabled_it_keeps_it_disabled(seen, collector_on):
    gc.disable()
    conversion.convert_function(_fresh())
    assert seen == [False] and not gc.isenabled()


def test_on_again_after_a_conversion_that_fails(collector_on, monkeypatch):
    def failing(fn):
        assert not gc.isenabled()
        raise parser.SourceUnavailable("no source here")
    monkeypatch.setattr(conversion, "parse_function", failing)
    with pytest.warns(conversion.ConversionWarning):
        conversion.convert_function(_fresh())
    assert gc.isenabled()


def test_nested_and_concurrent_pauses_end_with_the_last(collector_on):
    start, stop = threading.Barrier(3), threading.Barrier(3)

    def convert():
        with gc_pause.gc_paused():
            start.wait()
            stop.wait()
    threads = [threading.Thread(target=convert) for _ in range(2)]
    for thread in threads:
        thread.start()
    start.wait()
    with gc_pause.gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()   # the threads still convert
    stop.wait()
    for thread in threads:
        thread.join()
    assert gc.isenabled()
