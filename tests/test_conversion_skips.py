"""Converters skipped where they have no work: the converted source is the same.

A converter that declares what it rewrites (`ACTS_ON`: kinds of node and names)
is not run on a function that holds none of it (`conversion._has_work`). That
holds only while no converter before it makes such nodes: both are checked here
on the corpus and on functions made to hold, or lack, each trigger.
"""
from __future__ import annotations

import numpy as np
import pytest
from corpus import modules

from autograph import conversion
from autograph.pipeline import PIPELINE
from autograph.pyct import loader
from autograph.pyct.transformer import walk


def printing(x):
    print(x)
    return x


def asserting(x):
    assert x > 0, f"x is {x}"
    return x


def formatting(x):
    return f"{x:.2f}"


def index_trick(x):
    return np.r_[x, 0.0] + np.c_[x, x].sum()


def shapes(x):
    return x.shape[0] + x.size


def choosing(x):
    return 1.0 if x > 0 else -1.0


def plain(x, n):
    total = 0.0
    for i in range(n):
        if x[i] > 0 and i % 2 == 0:
            total += x[i]
    while total > 10:
        total = total / 2
    return total


MADE = [printing, asserting, formatting, index_trick, shapes, choosing, plain]
CORPUS = [fn for module in modules() for fn, _ in module.CASES]
FUNCTIONS = MADE + CORPUS


def _every_converter_run(monkeypatch):
    monkeypatch.setattr(conversion, "_has_work", lambda converter, contents: True)


def test_the_triggers_are_what_the_converters_rewrite():
    declared = {name: module.ACTS_ON for name, module in PIPELINE
                if getattr(module, "ACTS_ON", None) is not None}
    assert set(declared) == {"index_tricks", "shapes", "print_assert",
                             "conditional_expressions"}
    contents = conversion._contents(walk(conversion.transformed(plain, stages=0)))
    assert all(declared[name].isdisjoint(contents) for name in declared)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__qualname__)
def test_skipping_leaves_the_source_and_its_map_as_they_were(fn, monkeypatch):
    skipped = loader.source_with_map(conversion.transformed(fn))
    _every_converter_run(monkeypatch)
    assert loader.source_with_map(conversion.transformed(fn)) == skipped


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__qualname__)
def test_no_converter_makes_what_a_later_one_acts_on(fn, monkeypatch):
    _every_converter_run(monkeypatch)
    before = conversion._contents(walk(conversion.transformed(fn, stages=0)))
    for stage, (name, module) in enumerate(PIPELINE):
        acts_on = getattr(module, "ACTS_ON", None)
        if acts_on is None or not acts_on.isdisjoint(before):
            continue
        made = conversion._contents(walk(conversion.transformed(fn, stages=stage)))
        assert acts_on.isdisjoint(made), (name, sorted(acts_on & made))


@pytest.mark.parametrize("fn", MADE[:-1], ids=lambda fn: fn.__qualname__)
def test_a_function_holding_a_trigger_is_converted_by_its_converter(fn):
    source = conversion.to_code(fn)
    assert any(call in source for call in (
        "ag__.print_", "ag__.assert_", "ag__.fstring", "ag__.index_trick", "ag__.shape_of",
        "ag__.if_exp")), source
