"""Python containers changed inside a staged `if` or loop: eager's answer or a clear error.

A staged `if` traces both branches and a staged loop traces its body once or
twice, so a method call changing a container (`s.add(i)`, `q.append(i)`,
`out.extend(...)`, `groups[0].append(i)`) runs while tracing, whatever the
condition. Every container the converted code can reach (its locals, its
closure's, those of a loop's body function, a nested helper's enclosing
function's) is watched: the block either carries it as its state (lists,
dicts, plain objects) or the change is a `TracingError` naming it, never the
trace-time change silently kept (each case below returned a different answer
before).
"""
from __future__ import annotations

import collections
import importlib.util

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag

X = np.array([0.5, 2.0, -1.0, 3.0, 0.2])


def set_add(x):
    s = set()
    for i in range(4):
        if x[i] > 1:
            s.add(i)
    return sorted(s)


def deque_in_if(x):
    q = collections.deque()
    if x[0] > 1:
        q.append(1)
    return len(q)


def deque_in_loop(x):
    q = collections.deque()
    for v in x:
        if v > 1:
            q.append(v)
    return len(q)


def counter(x):
    c = collections.Counter()
    for i in range(4):
        if x[i] > 1:
            c.update([i % 2])
    return dict(c)


def default_dict(x):
    d = collections.defaultdict(list)
    for i in range(4):
        if x[i] > 1:
            d[i % 2].append(i)
    return dict(d)


def extend_in_loop(x):
    out = []
    for i in range(4):
        if x[i] > 1:
            out.extend([i, i])
    return out


def nested_list(x):
    groups = [[], []]
    for i in range(4):
        if x[i] > 1:
            groups[0].append(i)
    return groups


class Bag:
    def __init__(self):
        self.items = []


def object_attribute_list(x):
    bag = Bag()
    for i in range(4):
        if x[i] > 1:
            bag.items.append(i)
    return bag.items


def setdefault_append(x):
    d = {}
    for i in range(4):
        if x[i] > 1:
            d.setdefault(i % 2, []).append(i)
    return d


def closure_appends(x):
    out = []

    def add(v):
        out.append(v)

    for i in range(4):
        if x[i] > 1:
            add(i)
    return out


def list_in_dict(x):
    nb = {0: []}
    for i in range(3):
        if x[i] > 0:
            nb[0].append(i)
    return nb


CASES = [set_add, deque_in_if, deque_in_loop, counter, default_dict, extend_in_loop,
         nested_list, object_attribute_list, setdefault_append, closure_appends, list_in_dict]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [X, -X, np.full(5, 2.0)], ids=["mixed", "negated", "all"])
def test_a_container_changed_in_a_staged_block_is_eager_s_or_refused(fn, x):
    want = fn(x.copy())
    try:
        got = ag.convert(fn)(x.copy())
    except (ag.TracingError, ag.ConversionError) as error:
        assert "on a traced value" in str(error) and __file__ in str(error)
        return
    assert got == want   # the block carried it


@pytest.mark.parametrize("fn", [set_add, deque_in_if, deque_in_loop, counter, default_dict])
def test_containers_a_block_cannot_carry_are_named(fn):
    kind = {set_add: "set", deque_in_if: "deque", deque_in_loop: "deque", counter: "Counter",
            default_dict: "defaultdict"}[fn]
    with pytest.raises(ag.TracingError, match=rf"^{kind} '\w+' is changed inside"):
        ag.convert(fn)(X.copy())


def test_python_conditions_and_the_block_s_own_containers_are_free():
    def f(x, n):
        seen = set()
        for i in range(n):        # a Python loop, a Python condition: eager's own
            if i % 2 == 0:
                seen.add(i)
        total = 0.0
        for v in x:               # a staged loop
            local = collections.deque([v])   # made and changed in the body: per trace
            local.append(v * 2)
            total = total + sum(local)
        return total + len(seen)

    assert ag.convert(f)(X, 5) == f(X, 5)


def test_an_unchanged_container_passes():
    def f(x):
        s = {1}
        if x[0] > 1:
            s.add(1)              # already there: no change
        return len(s) + x[0]

    for x in (X, -X):
        assert ag.convert(f)(x) == f(x)


HISTORY = []


def global_list(x):
    for v in x:
        if v > 1:
            HISTORY.append(float(v))
    return x.sum()


def test_a_global_list_changed_in_a_staged_block_is_eager_s_or_refused():
    HISTORY.clear()
    want = global_list(X)
    wanted = list(HISTORY)
    HISTORY.clear()
    try:
        got = ag.convert(global_list)(X)
    except ag.TracingError as error:
        assert "HISTORY" in str(error)
        return
    assert got == want and HISTORY == wanted


class Box:
    pass


def append_to_argument(x, log):
    log.append(1.0)
    return x


def append_to_argument_in_loop(x, log):
    for v in x:
        if v > 1.0:
            log.append(float(v))
    return x.sum()


def set_argument_key(x, cfg):
    cfg["applied"] = True
    return x * cfg["scale"]


def set_argument_attribute(x, box):
    box.total = x.sum()
    return x


@pytest.mark.parametrize("fn, make", [
    (append_to_argument, list), (append_to_argument_in_loop, list),
    (set_argument_key, lambda: {"scale": 2.0}), (set_argument_attribute, Box)],
    ids=["append", "append in a loop", "dict key", "attribute"])
def test_a_change_to_an_argument_container_is_refused_and_undone(fn, make):
    # eagerly the caller's container changes at every call; a graph could not do that
    container = make()
    before = dict(vars(container)) if isinstance(container, Box) else list(container) \
        if isinstance(container, list) else dict(container)
    with pytest.raises(ag.TracingError, match=r"'(log|cfg|box)'.*argument|argument '(log|cfg|box(\.total)?)'"):
        ag.convert(fn)(X.copy(), container)
    after = dict(vars(container)) if isinstance(container, Box) else list(container) \
        if isinstance(container, list) else dict(container)
    assert after == before     # nothing the trace did is left in the caller's container


class RunningMean:
    def __init__(self):
        self.mean, self.count, self.seen = np.zeros(2), 0, []

    def update(self, x):
        self.count += 1
        self.mean += (x - self.mean) / self.count   # a traced value into self
        return self.mean * 1.0

    def remember(self, x):
        self.seen.append(x.sum())                     # a list of self changed
        return x


@pytest.mark.parametrize("method", ["update", "remember"])
@pytest.mark.parametrize("bind", ["decorated", "bound method"])
def test_a_method_changing_its_instance_is_refused_and_undone(method, bind):
    # once a silent difference: self.mean kept a Tracer, later calls ignored earlier ones
    stats = RunningMean()
    run = getattr(stats, method) if bind == "bound method" else \
        ag.convert(getattr(RunningMean, method)).__get__(stats)
    before = dict(vars(stats))
    with pytest.raises(ag.TracingError, match=r"sets self\.(mean|seen) to a traced value"):
        (ag.convert(run) if bind == "bound method" else run)(np.array([1.0, 3.0]))
    assert vars(stats) == before and stats.count == 0 and stats.seen == []


def test_a_method_changing_its_instance_falls_back_to_eager_s_answers():
    eager, converted = RunningMean(), RunningMean()
    run = ag.convert(converted.update, eager_fallback=True)
    for x in ([1.0, 2.0], [3.0, 5.0], [0.0, 0.0]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ag.FallbackWarning)
            np.testing.assert_array_equal(run(np.array(x)), eager.update(np.array(x)))
    assert converted.count == eager.count == 3


def test_arguments_read_or_copied_are_free():
    def f(x, cfg, log):
        log = list(log)          # a copy of its own: eager's too
        log.append(cfg["scale"])
        return x * cfg["scale"] + len(log)

    cfg, log = {"scale": 2.0}, [1.0]
    np.testing.assert_array_equal(ag.convert(f)(X, cfg, log), f(X, cfg, log))
    assert cfg == {"scale": 2.0} and log == [1.0]


# -- generated: every container kind, change, place and block ------------------------

MAKERS = {"list": "[]", "set": "set()", "deque": "collections.deque()",
          "dict": "{}", "counter": "collections.Counter()", "nested": "[[], []]",
          "object": "Holder()", "defaultdict": "collections.defaultdict(list)"}
CHANGES = {   # container kind -> the changes Python code makes to it
    "list": ["c.append(i)", "c.extend([i, i])", "c.insert(0, i)", "c += [i]"],
    "set": ["c.add(i)", "c.update([i])", "c.discard(0)"],
    "deque": ["c.append(i)", "c.appendleft(i)", "c.extend([i])"],
    "dict": ["c[i] = i", "c.setdefault(i % 2, []).append(i)", "c.update({i: 1})"],
    "counter": ["c.update([i % 2])"],
    "nested": ["c[0].append(i)", "c[1].extend([i])"],
    "object": ["c.items.append(i)", "c.count = i"],
    "defaultdict": ["c[i % 2].append(i)"],
}
BLOCKS = {   # how the change is reached: {change} runs where the condition holds
    "staged if in a Python loop": "    for i in range(4):\n        if x[i] > 1:\n            {change}\n",
    "staged loop": "    i = 0\n    for v in x:\n        if v > 1:\n            {change}\n        i += 1\n",
    "helper": "    def helper(i):\n        {change}\n    for i in range(4):\n        if x[i] > 1:\n            helper(i)\n",
    "python condition": "    for i in range(4):\n        if i % 2:\n            {change}\n",
}
PROGRAM = '''import collections
import numpy as np


class Holder:
    def __init__(self):
        self.items = []
        self.count = 0


def f(x):
    c = {make}
{block}    return c
'''


def _result(value):
    """A comparable form of what a program returns."""
    if hasattr(value, "items") and hasattr(value, "count") and not isinstance(value, dict):
        return ("object", list(value.items), value.count)
    if isinstance(value, (set, collections.deque)):
        return (type(value).__name__, sorted(value) if isinstance(value, set) else list(value))
    if isinstance(value, dict):
        return ("dict", sorted((k, _result(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", [_result(v) for v in value])
    return np.asarray(value).item() if np.ndim(value) == 0 else tuple(np.asarray(value))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(MAKERS)), st.data(), st.sampled_from(sorted(BLOCKS)),
       st.sampled_from([X, -X, np.full(5, 2.0)]))
def test_generated_container_changes_are_eager_s_or_refused(tmp_path_factory, kind, data,
                                                           block, x):
    change = data.draw(st.sampled_from(CHANGES[kind]))
    source = PROGRAM.format(make=MAKERS[kind], block=BLOCKS[block].format(change=change))
    path = tmp_path_factory.mktemp("containers") / "program.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(f"containers_{abs(hash(source))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        want = _result(module.f(x.copy()))
    except Exception as error:   # `c += [i]` in a helper: eager's UnboundLocalError
        with pytest.raises(type(error)):
            ag.convert(module.f)(x.copy())
        return
    try:
        got = _result(ag.convert(module.f)(x.copy()))
    except ag.AutographError as error:   # refused: clearly, naming the program's line
        assert "program.py:" in str(error), (source, error)
        return
    assert got == want, source


class Holder:
    def __init__(self):
        self.items = []
        self.count = 0


def object_with_a_traced_attribute(x):
    c = Holder()
    for i in range(4):
        if x[i] > 1:
            c.count = i
    return c


def test_an_object_returned_holding_a_traced_value_is_refused():
    # returned as it is, it held the trace's value (a Tracer) after the call
    with pytest.raises(ag.TracingError, match=r"returns a Holder object whose 'result.count'"):
        ag.convert(object_with_a_traced_attribute)(X)


SEEN = {7}


def add_to_a_global_set(x):
    for i in range(4):
        if x[i] > 1:
            SEEN.add(i)
    return x.sum()


def test_a_refused_change_is_put_back():
    with pytest.raises(ag.TracingError, match=r"set 'SEEN' is changed inside"):
        ag.convert(add_to_a_global_set)(X)
    assert SEEN == {7}      # what the traces added is undone


def counts_then_refused(x, log, box):
    box.calls = getattr(box, "calls", 0) + 1   # a Python value: kept by a trace that succeeds
    log.append("start")                         # refused: the argument list changes
    return x.sum()


def test_a_refused_trace_leaves_no_python_value_behind_for_the_eager_fallback():
    # once a silent difference: the refused trace's box.calls = 1 stayed, and the eager
    # fallback made it 2
    eager_box, box, log = Box(), Box(), []
    counts_then_refused(X.copy(), [], eager_box)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ag.FallbackWarning)
        ag.convert(counts_then_refused, eager_fallback=True)(X.copy(), log, box)
    assert vars(box) == vars(eager_box) == {"calls": 1} and log == ["start"]
