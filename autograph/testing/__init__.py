"""Graph-equivalence checks: a function run eagerly and as a graph must mean the same.

The API of the pytest plugin (`autograph.pytest_plugin`, loaded by pytest
through the package's `pytest11` entry point):

- `assert_graph_equivalent(fn, *args, rtol=1e-6, atol=0, **kwargs)`: `fn` on
  `args` eagerly and as a graph, on every backend, then on second inputs of
  the same signature; raises `NotEquivalent` (an `AssertionError`) with a
  readable report at the first difference or retrace;
- `check_graph_equivalence(fn, args, kwargs, ...)`: the same, arguments passed
  as a tuple and a dict;
- `fuzz_graph_equivalence(fn, specs, ...)`: the same on many inputs that
  Hypothesis draws from `TensorSpec`s, all through one trace;
- `arrays(spec)`: the Hypothesis strategy of arrays matching a `TensorSpec`
  (Hypothesis is imported only when this is used);
- `available_backends()`, `selected_backends()`: "cpu", and "gpu" where
  CuPy sees one; the backends checks run on now.

>>> import numpy as np
>>> assert_graph_equivalent(lambda x: np.tanh(x) * 2, np.linspace(-1, 1, 5))
"""
from .backends import available_backends, selected_backends
from .equivalence import NotEquivalent, assert_graph_equivalent, check_graph_equivalence
from .fuzz import fuzz_graph_equivalence

_STRATEGIES = ("arrays", "default_elements")


def __getattr__(name):
    if name in _STRATEGIES:  # imports Hypothesis, a test dependency, only when asked
        from . import strategies
        return getattr(strategies, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["NotEquivalent", "arrays", "assert_graph_equivalent", "available_backends",
           "check_graph_equivalence", "default_elements", "fuzz_graph_equivalence",
           "selected_backends"]
