"""The pytest plugin, loaded through the package's `pytest11` entry point.

- the fixture `graph_equivalence`: `autograph.testing.assert_graph_equivalent`;
- the marker `@pytest.mark.graph_equivalence(args=[...], ...)` on a function
  at the top level of a test module makes the function itself a test item,
  whatever its name: it is checked eagerly against its graph, on `args`
  (`MARKER_OPTIONS` lists the options); stacked markers make one item each;
- the option `--ag-backend=cpu,gpu` chooses the backends checks run on;
- a report header line names the backends found.

Hypothesis is imported only by markers with `specs`.
"""
from __future__ import annotations

import inspect

import pytest

MARKER = "graph_equivalence"
MARKER_OPTIONS = {
    "args": "the function's positional arguments (a list or tuple)",
    "kwargs": "its keyword arguments (a dict)",
    "rtol": "relative tolerance for floats (default 1e-6)",
    "atol": "absolute tolerance for floats (default 0)",
    "second_args": "positional arguments of the second call (default: derived from args; "
                   "False calls with args again)",
    "second_kwargs": "keyword arguments of the second call",
    "specs": "TensorSpecs to draw inputs from with Hypothesis, instead of args",
    "examples": "how many inputs to draw from specs (default 50)",
    "elements": "a Hypothesis strategy for every array element drawn from specs",
}
_WITH_ARGS = {"args", "second_args", "second_kwargs"}
_WITH_SPECS = {"specs", "examples", "elements"}
_PREVIOUS_BACKENDS = pytest.StashKey[object]()


def available_backends() -> list[str]:
    """"cpu", plus "gpu" where CuPy sees a GPU."""
    from autograph.testing.backends import available_backends
    return available_backends()


def pytest_addoption(parser):
    group = parser.getgroup("autograph", "autograph graph-equivalence checks")
    group.addoption("--ag-backend", dest="ag_backend", metavar="NAMES", default=None,
                    help="comma-separated backends that graph-equivalence checks run on: "
                         "cpu, native (the CPU, graphs compiled by Numba), gpu, dask "
                         "(default: every backend found but native and dask)")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", f"{MARKER}(args=[...], kwargs={{}}, rtol=1e-6, atol=0, specs=None, "
                   f"examples=50, ...): make this function a test that checks it eagerly "
                   f"against its autograph graph (see autograph.pytest_plugin)")
    from autograph.testing.backends import parse_backends, select
    value = config.getoption("ag_backend", None)
    names = None
    if value is not None:
        try:
            names = parse_backends(value)
        except ValueError as error:
            raise pytest.UsageError(f"--ag-backend={value}: {error}") from None
    config.stash[_PREVIOUS_BACKENDS] = select(names)


def pytest_unconfigure(config):
    if _PREVIOUS_BACKENDS in config.stash:
        from autograph.testing.backends import select
        select(config.stash[_PREVIOUS_BACKENDS])


def pytest_report_header(config):
    from autograph.testing.backends import default_backends, selected_backends
    found, used = available_backends(), selected_backends()
    line = f"autograph backends: {', '.join(found)}"
    if used == default_backends():
        return line
    return f"{line} (checking on {', '.join(used)}: --ag-backend)"


@pytest.fixture
def graph_equivalence():
    """`autograph.testing.assert_graph_equivalent(fn, *args, rtol=1e-6, atol=0, **kwargs)`."""
    from autograph.testing import assert_graph_equivalent
    return assert_graph_equivalent


# -- the marker ------------------------------------------------------------------------------

def _marks_of(obj) -> list:
    if not callable(obj) or inspect.isclass(obj):
        return []
    try:
        marks = getattr(obj, "pytestmark", None)
    except Exception:  # an object whose attributes misbehave is not a marked function
        return []
    return marks if isinstance(marks, list) else []


def marker_options(mark, name: str) -> dict:
    """The options of one marker, checked; ValueError says what is wrong."""
    where = f"@pytest.mark.{MARKER} on {name}"
    if mark.args:
        raise ValueError(f"{where}: pass the function's arguments as args=[...], not "
                         f"positionally")
    unknown = sorted(set(mark.kwargs) - set(MARKER_OPTIONS))
    if unknown:
        raise ValueError(f"{where}: unknown option {unknown[0]!r}; the options are "
                         f"{', '.join(MARKER_OPTIONS)}")
    options = dict(mark.kwargs)
    if ("args" in options) == ("specs" in options):
        raise ValueError(f"{where}: give the inputs, as args=[...] (one call) or as "
                         f"specs=[TensorSpec(...), ...] (inputs drawn by Hypothesis)")
    mixed = sorted(set(options) & (_WITH_ARGS if "specs" in options else _WITH_SPECS))
    if mixed:
        raise ValueError(f"{where}: {mixed[0]} goes with "
                         f"{'args' if 'specs' in options else 'specs'}, not with "
                         f"{'specs' if 'specs' in options else 'args'}")
    for key in ("args", "second_args", "specs"):
        if key in options and not isinstance(options[key], (list, tuple)) \
                and not (key == "second_args" and options[key] is False):
            raise ValueError(f"{where}: {key} must be a list or tuple, got {options[key]!r}")
    for key in ("kwargs", "second_kwargs"):
        if key in options and not isinstance(options[key], dict):
            raise ValueError(f"{where}: {key} must be a dict, got {options[key]!r}")
    return options


class GraphEquivalenceItem(pytest.Item):
    """A function under test, checked against its graph as one marker asks."""

    def __init__(self, *, function, options: dict, marks: list, **kwargs):
        super().__init__(**kwargs)
        self.obj = function
        self.options = options
        self.own_markers.extend(marks)  # skip, xfail and the rest apply as to any test

    def runtest(self):
        from autograph import testing
        options = dict(self.options)
        if "specs" in options:
            testing.fuzz_graph_equivalence(self.obj, options.pop("specs"), **options)
        else:
            testing.check_graph_equivalence(self.obj, options.pop("args"), **options)

    def repr_failure(self, excinfo, style=None):
        from autograph.testing import NotEquivalent
        if isinstance(excinfo.value, NotEquivalent):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        code = getattr(getattr(self.obj, "python_function", self.obj), "__code__", None)
        return self.path, code.co_firstlineno - 1 if code else None, f"{self.name} " \
                                                                      f"(graph equivalence)"


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    marks = _marks_of(obj)
    equivalence = [m for m in marks if getattr(m, "name", None) == MARKER]
    if not equivalence:
        return None
    if not isinstance(collector, pytest.Module):
        raise collector.CollectError(
            f"@pytest.mark.{MARKER} on {name}: the marker makes functions at the top level of "
            f"a test module into tests; inside a class, call the graph_equivalence fixture")
    try:
        options = [marker_options(mark, name) for mark in equivalence]
    except ValueError as error:
        raise collector.CollectError(str(error)) from None
    names = [name] if len(options) == 1 else [f"{name}[{i}]" for i in range(len(options))]
    return [GraphEquivalenceItem.from_parent(collector, name=item_name, function=obj,
                                             options=opts, marks=marks)
            for item_name, opts in zip(names, options)]
