"""f-strings, `str(x)`, `format(x)` and `str.format` of traced values in converted code:
formatted when the graph runs, for `print`, `assert` messages and the messages of raised
exceptions, as eager code formats them; other uses of their text, and `%` of a traced
value, are a `TracingError` (never the text of a tracer)."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as ag


def _report(x, n):
    total = 0.0
    width = 8
    for i in range(n):
        total = total + x[i]
        print(f"step {i}: total={total:.2f} {total!r} [{x[i]:>{width}.3f}] {'ok'!s:^6}")
    print(f"done {n=}", f"{x.shape}", f"{{braces}} {n}")
    return total


def test_printed_f_strings_are_eagers(capsys):
    x, n = np.array([1.5, -2.25, 3.0]), np.int64(3)
    _report(x, n)
    want = capsys.readouterr().out
    f = ag.convert(_report)
    f(x, n)
    assert capsys.readouterr().out == want
    f(x * 2, n)   # the graph again: the text follows the values
    _report(x * 2, n)
    printed = capsys.readouterr().out.splitlines()
    assert printed[:len(printed) // 2] == printed[len(printed) // 2:]


def _checked(x):
    s = x.sum()
    assert s < 10, f"sum {s:.1f} of {x.size} values is too big"
    return s


def test_an_assert_message_f_string_is_formatted_when_it_fails():
    f = ag.convert(_checked)
    assert f(np.ones(3)) == 3.0
    with pytest.raises(AssertionError, match=r"^sum 12\.0 of 3 values is too big"):
        f(np.full(3, 4.0))


def _always_fails(x):
    assert False, f"x[0] is {x[0]}"


def test_a_failing_assert_with_a_traced_message_fails_at_every_call_with_its_text():
    f = ag.convert(_always_fails)
    for value in (1.0, 2.5):
        with pytest.raises(AssertionError, match=f"^x\\[0\\] is {value}"):
            f(np.array([value]))


def _python_values_only(x):
    return f"{x.shape[0]:03d}|{x.dtype}|{'a'!r}"


def test_an_f_string_of_python_values_is_pythons_string():
    assert ag.convert(_python_values_only)(np.ones(4)) == "004|float64|'a'"


@pytest.mark.parametrize("body", [
    lambda x: len(f"{x.sum()}"),
    lambda x: f"{x.sum()}".upper(),
    lambda x: ("%s" % x.sum()).upper(),
    lambda x: {f"{x.sum()}": 1},
], ids=["len", "method", "percent then a method", "dict key"])
def test_the_text_of_a_traced_value_is_refused_not_made_up(body):
    def f(x):
        return body(x)
    with pytest.raises(ag.TracingError, match="only when the graph runs"):
        ag.convert(f)(np.ones(3))


@pytest.mark.parametrize("body", [
    lambda x: f"{x.sum()}" + "!",
    lambda x: str(x.sum()),
    lambda x: "{}|{:>8.3f}".format(x.sum(), x[0]),
    lambda x: format(x.max(), ".1e"),
    lambda x: (f"mean={x.mean():.3f} of {x.size} {x[:2]!r}", x.sum()),
    lambda x: repr(x.sum()),
    lambda x: str([x[0], float(x[1])]),
], ids=["concatenated", "str", "format method", "format", "in a tuple", "repr", "list"])
@pytest.mark.parametrize("x", [np.array([1.5, -2.0, 3.25]), np.array([4, 5, 6])])
def test_a_returned_text_is_formatted_when_the_graph_runs(body, x):
    def f(x):
        return body(x)
    converted = ag.convert(f)
    for y in (x, x * 2):   # the trace, then the graph again on other values
        want, got = f(y), converted(y)
        for w, g in zip(want if type(want) is tuple else [want],
                        got if type(got) is tuple else [got]):
            assert type(g) is type(w) or not isinstance(w, str)
            assert str(g) == str(w)


def test_a_returned_text_cannot_be_saved_or_chosen_by_a_staged_if(tmp_path):
    def labelled(x):
        return f"{x.mean():.3f}"
    with pytest.raises(ag.SerializationError, match="text formatted from traced values"):
        ag.save(ag.convert(labelled), str(tmp_path / "m"), np.ones(3))

    def chosen(x):
        if x.sum() > 0:
            label = f"{x.sum()}"
        else:
            label = "none"
        return label
    with pytest.raises(ag.TracingError, match="only when the graph runs"):
        ag.convert(chosen)(np.ones(3))


def _texts(x):
    print("sum: " + str(x.sum()) + ", max " + format(x.max(), ".1f"))
    print("{} and {:.2f} and {name!s:>6}".format(x[0], x.mean(), name=x.min()))
    line = "values:"
    for v in x:
        line += f" {v:.1f}"
    print(line, str(x))
    return x.sum()


@pytest.mark.parametrize("x", [np.array([1.5, -2.0, 3.0]), np.array([7, 1])])
def test_str_format_and_joined_texts_print_as_eagerly(capsys, x):
    _texts(x)
    want = capsys.readouterr().out
    ag.convert(_texts)(x)
    assert capsys.readouterr().out == want


def _bars(x):
    for i, v in enumerate(x):
        print(f"[{i:>2}] {v:8.3f} {'*' * int(v)}|{int(v) * '-'}")   # a str times a traced int
        print("#" * int(v), f"<{str(v)}>")                        # a text in an f-string
    return len(x)


@pytest.mark.parametrize("x", [np.array([1.5, 3.2, 0.1]), np.array([-2.0, 0.0]),
                               np.array([4, 1])])
def test_a_str_repeated_by_a_traced_int_prints_as_eagerly(capsys, x):
    _bars(x)
    want = capsys.readouterr().out
    converted = ag.convert(_bars)
    converted(x)
    converted(x)   # the graph, at its second call
    assert capsys.readouterr().out == want * 2


def _percent_texts(x, name):
    print("%5.2f%%" % (100 * x.mean()))
    print("n=%d max=%.3e %s|%r|%-6s|" % (x.size, x.max(), x.min(), name, x[0]))
    print("%(m).2f and %(s)s 100%%" % {"m": x.mean(), "s": x.sum()})
    print("%s and %r" % ((1, x.sum()), [name, x.max()]))     # containers of traced values
    line = "%-8.3g|" % x[0]
    print(line + "end", f"[{line}] {name!r} {(name, 2)}")     # Python values in f-strings
    print("%d items, %x" % (3, 255))                           # no traced value: Python's
    return "%.1f" % x.sum()


@pytest.mark.parametrize("x", [np.array([0.5, 0.25, 7.0]), np.array([-3, 4]),
                               np.array([np.nan, 1e300])])
def test_percent_formatting_prints_and_returns_as_eagerly(capsys, x):
    want = _percent_texts(x, "nm")
    printed = capsys.readouterr().out
    converted = ag.convert(_percent_texts)
    assert converted(x, "nm") == want and converted(x, "nm") == want
    assert capsys.readouterr().out == printed * 2


def test_percent_formatting_a_container_with_a_numeric_spec_is_refused():
    def f(x):
        return "%d" % ((1, x.sum()),)
    with pytest.raises(ag.TracingError, match="container holding traced values"):
        ag.convert(f)(np.ones(2))


def _numpy_texts(x):
    print(np.array2string(x, precision=2, separator=", "), np.array_str(x * 2))
    print(f"[{np.array_str(x[:2] * 3, precision=3)}]", np.array_repr(x[:1]))
    return np.array2string(x, precision=1)


@pytest.mark.parametrize("x", [np.array([1.5, 2.25, -3.125]), np.array([1e-9]),
                               np.arange(12.0)])
def test_numpy_s_texts_of_traced_values_print_and_return_as_eagerly(capsys, x):
    want = _numpy_texts(x)
    printed = capsys.readouterr().out
    converted = ag.convert(_numpy_texts)
    assert converted(x) == want and converted(x) == want
    assert capsys.readouterr().out == printed * 2


def _raises_in_a_branch(x):
    for i in range(x.shape[0]):
        if x[i] < 0:
            raise ValueError(f"x[{i}] = {x[i]:.2f} is negative; total " + str(x.sum()))
    if x.sum() > 100:
        raise OverflowError("total {:.1e} too large".format(x.sum()))
    return x.sum()


def _raises_always(x):
    if x.ndim == 1:                # Python's: every call with a 1-d x raises
        raise ValueError("a vector, summing to " + str(x.sum()))
    return x


@pytest.mark.parametrize("x", [np.array([1.0, 2.0]), np.array([1.0, -2.5]), np.array([99.0, 2.0])])
def test_an_error_raised_with_a_text_of_traced_values_has_eager_s_type_and_text(x):
    for fn in (_raises_in_a_branch, _raises_always):
        try:
            want = ("value", fn(x))
        except Exception as error:   # the oracle's error
            want = (type(error), str(error))
        converted = ag.convert(fn)
        for _ in range(2):   # the trace, then the cached graph
            try:
                got = ("value", converted(x))
            except Exception as error:   # compared below
                got = (type(error), str(error))
            assert got == want


def test_texts_needing_their_characters_now_are_refused():
    def measured(x):
        return len("n=" + str(x.sum()))
    with pytest.raises(ag.TracingError, match="only when the graph runs"):
        ag.convert(measured)(np.ones(3))

    def attribute_field(x):
        print("{0.real}".format(x.sum()))
    with pytest.raises(ag.TracingError, match="str.format of it"):
        ag.convert(attribute_field)(np.ones(3))

    def two_texts(x):
        raise RuntimeError(f"{x.sum()}", f"{x.max()}")
    with pytest.raises(ag.TracingError, match="only when the graph runs"):
        ag.convert(two_texts)(np.ones(3))
