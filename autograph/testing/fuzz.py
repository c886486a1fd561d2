"""`fuzz_graph_equivalence`: one function checked on many generated inputs of one signature.

Hypothesis draws the inputs from `TensorSpec`s (`strategies.arrays`). The
graph function is converted with those specs as its input signature, so one
trace must serve every example (unknown dimensions included), and every
example must match the eager function as in `assert_graph_equivalent`.

>>> import numpy as np
>>> fuzz_graph_equivalence(lambda x: np.where(x > 0, x, 0.0).sum(axis=-1),
...                        [TensorSpec((None, 3), np.float64)], examples=5)
"""
from __future__ import annotations

from autograph_runtime.tree import flatten

from ..specs import TensorSpec
from .backends import selected_backends
from .equivalence import BackendCheck, Call, NotEquivalent

DEFAULT_EXAMPLES = 50


def fuzz_graph_equivalence(fn, specs, kwargs=None, *, examples: int = DEFAULT_EXAMPLES,
                           elements=None, rtol=1e-6, atol=0.0, backends=None) -> None:
    """Checks `fn` eagerly against its graph on `examples` inputs drawn from `specs`.

    Args:
      fn: a function, or a graph function (its `python_function` is the oracle).
      specs: one `TensorSpec` (or a list, tuple or dict of them) per positional
        parameter; None dimensions vary between examples.
      kwargs: keyword arguments passed unchanged to every call (Python values).
      examples: how many inputs Hypothesis draws (it shrinks a failing one).
      elements: a Hypothesis strategy for every array element (default: small
        finite values, `strategies.default_elements`).
      rtol, atol, backends: as in `assert_graph_equivalent`.

    Raises `NotEquivalent` for the first (shrunk) example that differs, or
    where the graph function traces more than once. Needs Hypothesis.
    """
    __tracebackhide__ = True
    from hypothesis import HealthCheck, Phase, given, settings

    from .strategies import arrays

    specs = list(specs)
    leaves = flatten(specs, is_leaf=lambda x: isinstance(x, TensorSpec))[0]
    if not leaves or not all(isinstance(x, TensorSpec) for x in leaves):
        raise TypeError(f"specs must be TensorSpecs (or lists, tuples and dicts of them), one "
                        f"per positional parameter, got {specs!r}; pass Python values as "
                        f"kwargs")
    if not isinstance(examples, int) or examples < 1:
        raise ValueError(f"examples must be a positive int, got {examples!r}")
    kwargs = dict(kwargs or {})
    for backend in backends or selected_backends():
        checker = BackendCheck(fn, backend, rtol, atol, input_signature=specs)

        @settings(max_examples=examples, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck),
                  phases=[p for p in Phase if p is not Phase.explain])  # the report explains
        @given(arrays(specs, elements=elements))
        def check_example(args):
            checker.check(Call("generated inputs", tuple(args), kwargs))

        try:
            check_example()
        except NotEquivalent as failure:
            raise failure.with_traceback(None)  # the report says it all; keep the cause
