"""Every callable converts or refuses clearly; argument errors speak Python.

`ag.convert` takes functions, methods, `functools.partial`s, callable objects
and NumPy's (or Python's builtin) callables, traced as they are; generators,
coroutines and C functions outside NumPy (`math.sqrt`) are refused when
decorated. `to_code` and `agc` refuse anything without Python source in one
line. A graph function refuses array subclasses, and a call that does not bind
is a `TypeError` in Python's own words, noting the caller's line.
"""
import functools
import inspect
import math

import numpy as np
import pytest

import autograph as ag
from autograph.cli import main

pytestmark = pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")


def scaled_sum(x_vec, k):
    if x_vec.sum() > 0:
        return x_vec * k
    return x_vec - k


class Doubler:
    """A callable object whose `__call__` has staged control flow."""

    def __init__(self, offset):
        self.offset = offset

    def __call__(self, x_vec):
        if x_vec.sum() > 0:
            return x_vec * 2 + self.offset
        return x_vec


def this_line() -> str:
    """`file:line` of the caller's line."""
    frame = inspect.currentframe().f_back
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


# -- what converts ---------------------------------------------------------------------------

@pytest.mark.parametrize("fn", [
    functools.partial(scaled_sum, k=3.0),
    functools.partial(scaled_sum, k=3.0, x_vec=np.ones(2)),
    functools.partial(functools.partial(scaled_sum), k=-1.0),
    Doubler(0.5),
], ids=["partial-kw", "partial-kw-both", "nested-partial", "callable-object"])
def test_partials_and_callable_objects_are_graph_functions(fn):
    g = ag.convert(fn)
    for x in (np.arange(3.0), -np.arange(3.0)):
        args = () if "x_vec" in getattr(fn, "keywords", {}) else (x,)
        np.testing.assert_array_equal(g(*args), fn(*args))
    assert g.trace_count == 1  # the `if` is staged: both branches in one graph
    assert g.__name__ in ("scaled_sum", "Doubler")
    assert "traced 1 times" in repr(g)


def test_partial_positional_arguments_and_to_code():
    fn = functools.partial(scaled_sum, np.arange(3.0))
    np.testing.assert_array_equal(ag.convert(fn)(2.0), fn(2.0))
    assert ag.to_code(fn) == ag.to_code(scaled_sum)
    assert "ag__.if_stmt" in ag.to_code(Doubler(1.0))


def test_to_code_of_a_bound_graph_method_shows_the_users_method():
    class Model:
        @ag.convert
        def step(self, x):
            if x.sum() > 0:
                return x
            return -x

    source = ag.to_code(Model().step)
    assert source.startswith("def step(self, x):") and "ag__.if_stmt" in source
    assert source == ag.to_code(Model.step)


@pytest.mark.parametrize("fn, args", [
    (np.sin, (np.linspace(0, 1, 4),)),
    (np.add, (np.ones(3), np.arange(3.0))),
    (np.add.reduce, (np.arange(6.0).reshape(2, 3),)),
    (np.concatenate, ((np.ones(2), np.zeros(3)),)),
    (abs, (-np.arange(3.0),)),
    (len, (np.ones(4),)),
    (functools.partial(np.sum, axis=0), (np.arange(6.0).reshape(2, 3),)),
], ids=["ufunc", "binary-ufunc", "ufunc-method", "c-function", "abs", "len", "partial-of-numpy"])
def test_numpy_and_builtin_callables_trace_as_they_are(fn, args):
    np.testing.assert_array_equal(ag.convert(fn)(*args), fn(*args))


def test_c_function_outside_numpy_is_refused_at_decoration():
    assert math.sqrt(4.0) == 2.0
    with pytest.raises(ag.ConversionError, match=r"math\.sqrt has no Python source"):
        ag.convert(math.sqrt)


@pytest.mark.parametrize("fn", [max, min, range, zip, int], ids=lambda f: f.__name__)
def test_builtins_without_a_signature_are_refused_at_decoration(fn):
    with pytest.raises(TypeError, match=f"parameters of '{fn.__name__}'.*wrap it"):
        ag.convert(fn)


def test_class_is_not_mistaken_for_source():
    with pytest.raises(ag.ConversionError, match="is a class: convert its methods"):
        ag.to_code(Doubler)


# -- generators and coroutines ---------------------------------------------------------------

async def coroutine_of(x_vec):
    return x_vec * 2


async def async_generator_of(x_vec):
    yield x_vec


def generator_of(x_vec):
    yield x_vec


@pytest.mark.parametrize("fn, kind", [
    (coroutine_of, "a coroutine function"),
    (async_generator_of, "an async generator function"),
    (generator_of, "`yield` (generators)"),
], ids=["async-def", "async-generator", "generator"])
def test_generators_and_coroutines_are_refused_at_decoration(fn, kind):
    for refuse in (lambda: ag.convert(fn), lambda: ag.convert(functools.partial(fn)),
                   lambda: ag.to_code(fn)):
        with pytest.raises(ag.ConversionError) as info:
            refuse()
        assert kind in str(info.value) and __file__ in str(info.value), str(info.value)


# -- to_code and agc on what has no source ---------------------------------------------------

@pytest.mark.parametrize("fn, name", [
    (np.sin, "numpy.sin"), (len, "len"), (math.sqrt, "math.sqrt"),
    (functools.partial(np.add, 1.0), "numpy.add"),
], ids=["ufunc", "builtin", "math", "partial-of-ufunc"])
def test_to_code_refuses_callables_without_source(fn, name):
    with pytest.raises(ag.ConversionError) as info:
        ag.to_code(fn)
    message = str(info.value)
    assert message.startswith(f"{name} has no Python source") and "\n" not in message, message


AGC_MODULE = '''\
import functools, math
import numpy as np

def scale(x, k):
    return x * k

class Twice:
    def __call__(self, x):
        return x * 2

sine = np.sin
root = math.sqrt
half = functools.partial(scale, k=0.5)
twice = Twice()

async def later(x):
    return x
'''


@pytest.mark.parametrize("name, args, wanted", [
    ("sine", [], "numpy.sin has no Python source"),
    ("root", [], "math.sqrt has no Python source"),
    ("root", ["--graph", "float64[]"], "math.sqrt has no Python source"),
    ("root", ["--stage", "1"], "math.sqrt has no Python source"),
    ("later", [], "later is a coroutine function"),
], ids=["ufunc", "math", "math-graph", "math-stage", "async"])
def test_agc_refuses_in_one_line_with_status_2(tmp_path, capsys, name, args, wanted):
    path = tmp_path / "callables_module.py"
    path.write_text(AGC_MODULE)
    assert main([f"{path}::{name}", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("agc: error: ConversionError: ") and wanted in err, err
    assert err.count("\n") == 1, err


@pytest.mark.parametrize("name, wanted", [
    ("half", "return x * k"), ("twice", "def __call__(self, x):"),
], ids=["partial", "callable-object"])
def test_agc_shows_partials_and_callable_objects(tmp_path, capsys, name, wanted):
    path = tmp_path / "callables_module.py"
    path.write_text(AGC_MODULE)
    assert main([f"{path}::{name}"]) == 0
    assert wanted in capsys.readouterr().out


# -- array subclasses ------------------------------------------------------------------------

def add_one(x_vec):
    return x_vec + 1


@pytest.mark.parametrize("make, kind, fix", [
    (lambda: np.ma.masked_array([1.0, 2.0], mask=[False, True]), "numpy.ma.MaskedArray",
     "x_vec.filled(fill_value) or np.asarray(x_vec)"),
    (lambda: np.matrix([[1.0, 2.0]]), "numpy.matrix", "np.asarray(x_vec)"),
], ids=["masked", "matrix"])
def test_array_subclasses_are_refused_naming_the_argument(make, kind, fix):
    g, value = ag.convert(add_one), make()
    with pytest.raises(TypeError) as info:
        line = this_line(); g(value)  # noqa: E702  (the note must name this line)
    message = str(info.value)
    assert f"argument 'x_vec' is a {kind}" in message and f"pass {fix}" in message, message
    assert any(line in note for note in info.value.__notes__), info.value.__notes__
    assert g.trace_count == 0


def test_array_subclass_nested_or_under_a_signature_is_refused():
    g = ag.convert(lambda pair: pair[0] + pair[1])
    with pytest.raises(TypeError, match=r"argument 'pair\[1\]' is a numpy\.matrix"):
        g((np.ones((1, 2)), np.matrix([[1.0, 2.0]])))
    spec = ag.convert(add_one, input_signature=[ag.TensorSpec((None,), np.float64)])
    with pytest.raises(TypeError, match="numpy.ma.MaskedArray"):
        spec(np.ma.masked_array([1.0, 2.0]))


def test_plain_arrays_scalars_and_memmaps_still_pass(tmp_path):
    g = ag.convert(add_one)
    mapped = np.memmap(tmp_path / "values.bin", dtype=np.float64, mode="w+", shape=(3,))
    mapped[:] = [1.0, 2.0, 3.0]
    for x in (np.arange(3.0), np.float64(2.5), np.int64(3), mapped, 2.0):
        result = g(x)
        np.testing.assert_array_equal(result, add_one(x))
        assert type(result) in (np.ndarray, np.float64, np.int64, float)


# -- argument errors -------------------------------------------------------------------------

def two_args(x_vec, y_vec):
    return x_vec + y_vec


def keyword_only(x_vec, *, scale_float):
    return x_vec * scale_float


@pytest.mark.parametrize("fn, args, kwargs", [
    (two_args, (np.ones(2),), {}),
    (two_args, (np.ones(2), np.ones(2), np.ones(2)), {}),
    (two_args, (np.ones(2), np.ones(2)), {"z": 1}),
    (two_args, (np.ones(2),), {"x_vec": np.ones(2)}),
    (keyword_only, (np.ones(2),), {}),
    (Doubler(0.0), (), {}),
], ids=["missing", "extra", "unexpected-keyword", "multiple-values", "keyword-only",
        "callable-object"])
def test_argument_errors_speak_python(fn, args, kwargs):
    with pytest.raises(TypeError) as eager:
        fn(*args, **kwargs)
    g = ag.convert(fn)
    for call in (g, g.get_concrete_function):
        with pytest.raises(TypeError) as info:
            line = this_line(); call(*args, **kwargs)  # noqa: E702
        assert str(info.value) == str(eager.value)
        assert any(line in note and "calling graph function" in note
                   for note in info.value.__notes__), info.value.__notes__
    assert g.trace_count == 0


def test_argument_error_names_the_method():
    class Model:
        @ag.convert
        def step(self, x_vec):
            return x_vec

    with pytest.raises(TypeError) as info:
        Model().step()
    assert str(info.value) == ("test_argument_error_names_the_method.<locals>.Model.step() "
                               "missing 1 required positional argument: 'x_vec'")


def test_callable_object_with_a_converted_call():
    class Shift:
        @ag.convert
        def __call__(self, x_vec):
            return x_vec + 1

    shift = Shift()
    np.testing.assert_array_equal(ag.convert(shift)(np.arange(3.0)), np.arange(1.0, 4.0))
    assert "return x_vec + 1" in ag.to_code(shift)
