"""`print` of tuples, lists and dicts holding traced values (directly, in f-strings, and
through `str()`/`repr()`/`format()`): the graph prints eager's text, the items' reprs
(`np.float64(1.5)`, `array(3.)`, `1.5`), at every call; where that text cannot be had,
a `TracingError` naming the line."""
from __future__ import annotations

import collections
import logging

import numpy as np
import pytest

import autograph as ag

Pair = collections.namedtuple("Pair", "low high")


def _containers(x, a, n):
    s, k = a.sum(), a.argmax()
    print("step", (k, s), [float(s), x], {"mean": round(float(a.mean()), 3), "n": n})
    print({"nested": [(s,), {"x": x, "flag": a[0] > 1}], "empty": ()}, (s,), [])
    print(Pair(a.min(), a.astype(np.float32).max()), (k, a.astype(np.int8).sum(), "text"))
    return s


def _formatted(x, a):
    print(f"max at {np.unravel_index(np.argmax(a), a.shape)} of {[a.min(), x]!r}")
    print(str((a.argmin(),)), repr([a.sum()]), repr(a.sum()), format([a[0], int(a[1])]))
    print("{} and {!r}".format((a.sum(), 1), {"k": a.argmax()}), ascii((a[0], "é")))
    return a.sum()


def _in_loops(a, n):
    i, total = 0, 0.0
    while i < n:
        total = total + float(a[i])
        print("it", (i, total, a[i] > 1))
        i += 1
    if a.sum() > 3:
        print("big", [a.sum(), a.shape[0]])
    else:
        print("small", {"s": a.sum()})
    return total


@pytest.mark.parametrize("case", [
    (_containers, lambda a: (np.array(3.0), a, 4)),
    (_containers, lambda a: (np.float64(3.0), a, 4)),
    (_formatted, lambda a: (np.array(2.0), a)),
    (_in_loops, lambda a: (a, np.int64(2))),
], ids=["containers", "scalar argument", "formatted", "loops"])
def test_printed_containers_are_eagers_at_every_call(case, capsys):
    f, arguments = case
    converted = ag.convert(f, eager_fallback=False)
    for a in (np.array([1.0, 2.5, 0.5]), np.array([[4.0, 0.25], [7.0, 2.0]]).ravel()):
        f(*arguments(a))
        want = capsys.readouterr().out
        converted(*arguments(a))
        assert capsys.readouterr().out == want
        converted(*arguments(a * 3))   # the graph again: the text follows the new values
        f(*arguments(a * 3))
        printed = capsys.readouterr().out.splitlines()
        assert printed[:len(printed) // 2] == printed[len(printed) // 2:]


def test_a_logged_container_shows_eagers_values(caplog):
    log = logging.getLogger("print_containers")

    def f(x, a):
        log.warning("%r %r %s", x, (a.sum(), x), {"k": float(a.sum())})
        return a.sum()
    x, a = np.array(3.0), np.arange(3.0)
    with caplog.at_level(logging.WARNING, logger="print_containers"):
        f(x, a)
        ag.convert(f, eager_fallback=False)(x, a)
    assert [r.getMessage() for r in caplog.records] == [
        "array(3.) (np.float64(3.0), array(3.)) {'k': 3.0}"] * 2


class _Doubled:
    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"Doubled({self.value * 2})"


@pytest.mark.parametrize("body", [
    lambda a: print(collections.OrderedDict(s=a.sum())),
    lambda a: print([_Doubled(a.sum())]),
    lambda a: print((f"{a.sum()}", 1)),
    lambda a: print(f"{collections.deque([a.sum()])}"),
    lambda a: print(format((a.sum(),), "10")),
], ids=["ordered dict", "custom repr", "text in a tuple", "deque", "bad format spec"])
def test_a_container_text_that_cannot_be_eagers_is_refused(body):
    def f(a):
        body(a)
        return a.sum()
    with pytest.raises(ag.TracingError, match=r"test_print_containers\.py:\d+"):
        ag.convert(f, eager_fallback=False)(np.arange(3.0))
